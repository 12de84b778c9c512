import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProfile, openApp, watchErrors } from './harness';
import { expectAccessible, saveScreenshot } from './ui-helpers';

const actionsShown = (page: Page) => page.getByTestId('demo-actions').getByRole('listitem').count();

/** First visit online: waits until the service worker has precached the build and controls the page. */
async function firstVisit(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

test('with the network cut after a first visit, a reload opens the app and the demo runs to the end', async () => {
  test.setTimeout(240_000);
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await openApp(context);
    await firstVisit(page);
    await context.setOffline(true);
    const errors = watchErrors(page);
    await page.reload();
    await page.waitForFunction(() => globalThis.agentBrain !== undefined, null, { timeout: 30_000 });
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);

    await expect(page.getByRole('heading', { name: 'See agent-brain work in a minute' })).toBeVisible();
    await page.getByLabel('Pace').selectOption({ label: 'as fast as it goes' });
    const started = Date.now();
    await page.getByRole('button', { name: 'Start the demo task' }).click();
    await expect(page.getByTestId('demo-project-open')).toContainText('tiny-paginate');
    await expect.poll(() => actionsShown(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
    await expect(page.getByTestId('demo-finished')).toBeVisible({ timeout: 180_000 });
    await expect(page.getByTestId('progress')).toContainText(/Plan finished.*(\d+) of \1/);
    test.info().annotations.push({ type: 'demo run offline', description: `${Date.now() - started} ms` });
    const steps = await page.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      const session = (await brain.listSessions()).find((s) => s.title.startsWith('Demo agent'))!;
      return (await brain.resumePoint(session.id)).plan!.steps.map((s) => s.state);
    });
    expect(steps.length).toBeGreaterThan(3);
    expect(steps.every((s) => s === 'done')).toBe(true);

    // The lazily loaded parts (charts, diffs) come from the precache too.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Storage' }).click();
    await expect(page.getByTestId('chart-kinds').locator('canvas')).toBeVisible();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Checkpoints' }).click();
    await expect(page.getByTestId('diff').locator('.d2h-code-side-line').first()).toBeVisible();
    await saveScreenshot(page, 'offline-checkpoints-light');
    expect(errors).toEqual([]);
    await context.setOffline(false);
    await context.close();
  } finally {
    await profile.dispose();
  }
});

test('the Storage view shows quota, usage and persistence; the app asks once by itself, then on a click', async () => {
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    // Count the app's requests for persistent storage (across reloads).
    await context.addInitScript(() => {
      const persist = StorageManager.prototype.persist;
      StorageManager.prototype.persist = function (this: StorageManager) {
        localStorage.setItem(
          'test.persist-calls',
          String(Number(localStorage.getItem('test.persist-calls')) + 1),
        );
        return persist.call(this);
      };
    });
    const page = await openApp(context, '/#/storage');
    const errors = watchErrors(page);
    const panel = page.getByTestId('storage-quota');
    const calls = () => page.evaluate(() => Number(localStorage.getItem('test.persist-calls')));
    const usage = panel.getByTestId('quota-usage');
    await expect
      .poll(async () => (await usage.textContent())?.replace(/\s+/g, ' ').trim())
      .toMatch(
        /^[\d.]+ \S+ used of [\d.]+ \S+ this browser allows this site \((< 1|\d+) %\); agent\.db is [\d.]+ \S+ of it/,
      );
    await expect(panel.getByTestId('persistence')).toContainText('Best effort:');
    await expect(page.getByTestId('status-persistence')).toHaveText('data may be cleared by the browser');
    // Opening is no reason to ask; the first real write is (headless Chromium then says no, silently).
    expect(await calls()).toBe(0);
    await page.evaluate(() => globalThis.agentBrain!.startSession({ title: 'worth keeping' }));
    await expect.poll(calls).toBe(1);
    await page.evaluate(() => globalThis.agentBrain!.startSession({ title: 'more' }));
    await page.reload();
    await page.waitForFunction(() => globalThis.agentBrain !== undefined);
    await page.evaluate(() => globalThis.agentBrain!.startSession({ title: 'after a reload' }));
    await expect(panel.getByTestId('persistence')).toContainText('Best effort:');
    expect(await calls(), 'asked by itself once per browser').toBe(1);

    // A click asks again and says what the answer means.
    await panel.getByRole('button', { name: 'Ask the browser to keep this data' }).click();
    await expect(panel.getByTestId('persist-declined')).toContainText('The browser said no.');
    expect(await calls()).toBe(2);
    await saveScreenshot(page, 'storage-quota-light');
    await expectAccessible(page, 'storage with the quota panel');

    const origin = new URL(page.url()).origin;
    const cdp = await context.newCDPSession(page);
    // Where the browser grants it (Chromium: engagement, bookmark, installed app), the view says so.
    await cdp.send('Browser.grantPermissions', { origin, permissions: ['durableStorage'] });
    await panel.getByRole('button', { name: 'Ask the browser to keep this data' }).click();
    await expect(panel.getByTestId('persistence')).toContainText('Persistent:');
    await expect(page.getByTestId('status-persistence')).toHaveText('data kept persistently');
    await expect(panel.getByRole('button', { name: 'Ask the browser to keep this data' })).toHaveCount(0);
    await page.reload();
    await page.waitForFunction(() => globalThis.agentBrain !== undefined);
    await expect(panel.getByTestId('persistence')).toContainText('Persistent:');
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await profile.dispose();
  }
});

/** A static host for a copy of the build that the test can redeploy (vite preview serves a fixed folder). */
async function serveCopy(): Promise<{ root: string; origin: string; close(): Promise<void> }> {
  const built = resolve(
    fileURLToPath(new URL('../..', import.meta.url)),
    process.env['E2E_OUTDIR'] ?? 'dist',
  );
  const root = await mkdtemp(join(tmpdir(), 'agent-brain-site-'));
  await cp(built, root, { recursive: true });
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.wasm': 'application/wasm',
    '.svg': 'image/svg+xml',
    '.webmanifest': 'application/manifest+json',
    '.map': 'application/json',
  };
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    readFile(file).then(
      (body) => {
        response.writeHead(200, {
          'content-type': types[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-cache',
        });
        response.end(body);
      },
      () => {
        response.writeHead(404);
        response.end();
      },
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    root,
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * Deploys "the next build" over the copy the way a real deploy does: the lazily loaded chart chunk changes, so
 * it — and every chunk that imports it, as content hashes go — gets a new name (the old files are gone from the
 * server), and the page a new revision the service worker notices.
 */
async function deployNextBuild(root: string): Promise<string> {
  const assets = (await readdir(join(root, 'assets'))).filter((name) => name.endsWith('.js'));
  const texts = new Map(
    await Promise.all(assets.map(async (n) => [n, await readFile(join(root, 'assets', n), 'utf8')] as const)),
  );
  const next = (name: string) => name.replace(/^([a-z]+(?:\.[a-z]+)?)-/i, '$1-next-');
  const chart = assets.find((name) => /^chart-.*\.js$/.test(name))!;
  const renamed = new Map([[chart, '']]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, text] of texts) {
      if (!renamed.has(name) && [...renamed.keys()].some((old) => text.includes(old))) {
        renamed.set(name, '');
        grew = true;
      }
    }
  }
  for (const old of renamed.keys()) renamed.set(old, next(old));
  const update = (text: string) => [...renamed].reduce((t, [old, name]) => t.replaceAll(old, name), text);
  for (const [old, name] of renamed) {
    await writeFile(join(root, 'assets', name), update(texts.get(old)!));
    await rm(join(root, 'assets', old));
  }
  const index = join(root, 'index.html');
  await writeFile(
    index,
    update(await readFile(index, 'utf8')).replace(
      '<head>',
      '<head>\n    <meta name="agent-brain-build" content="next" />',
    ),
  );
  const sw = join(root, 'sw.js');
  await writeFile(
    sw,
    update(await readFile(sw, 'utf8')).replace(/(url:"index\.html",revision:")[0-9a-f]+/, '$1next'),
  );
  return `/assets/${chart}`;
}

/**
 * Opens the app in a new tab until the new build serves it: the waiting service worker activates once the old
 * build has no tab left, which the browser does a moment after the last one closes. A tab of the old build
 * keeps it in place, so each try is a new tab, closed again when it still shows the old build.
 */
async function nextVisit(
  context: BrowserContext,
  url: string,
): Promise<{ next: Page; nextErrors: string[] }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const next = await context.newPage();
    const nextErrors = watchErrors(next);
    await next.goto(url);
    if ((await next.locator('meta[name="agent-brain-build"]').count()) === 1) return { next, nextErrors };
    await next.close();
    if (Date.now() > deadline)
      throw new Error('The new build was not served within 30 s of closing the old tab.');
    await new Promise((done) => setTimeout(done, 500));
  }
}

test('an update is picked up on the next visit without breaking an open session', async () => {
  test.setTimeout(180_000);
  const site = await serveCopy();
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${site.origin}/#/sessions`);
    await page.waitForFunction(() => globalThis.agentBrain !== undefined, null, { timeout: 30_000 });
    await firstVisit(page);
    await page.waitForFunction(() => globalThis.agentBrain !== undefined, null, { timeout: 30_000 });
    await page.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      const { id } = await brain.startSession({ title: 'open during the update' });
      const task = await brain.startTask({ sessionId: id, title: 'keep working' });
      await brain.recordStep({ taskId: task.id, tool: 'edit', result: 'x'.repeat(5000), status: 'ok' });
    });
    await expect(page.getByRole('button', { name: /open during the update/ })).toBeVisible();

    const oldChart = await deployNextBuild(site.root);
    expect((await fetch(site.origin + oldChart)).status, 'the old chart chunk is gone from the server').toBe(
      404,
    );
    // The browser checks for a new service worker on navigations and now and then; ask now.
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
    await expect(page.getByTestId('update-waiting')).toContainText('A new version is ready');
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).waiting !== null)).toBe(
      true,
    );

    // The open session goes on with its own build: writes work, and a chunk it never loaded (the charts, whose
    // file the deploy removed from the server) still comes from the old build's precache.
    await page.evaluate(() => globalThis.agentBrain!.startSession({ title: 'written after the deploy' }));
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Storage' }).click();
    await expect(page.getByTestId('chart-kinds').locator('canvas')).toBeVisible();
    expect(await page.locator('meta[name="agent-brain-build"]').count()).toBe(0);
    await saveScreenshot(page, 'update-waiting-light');
    expect(errors).toEqual([]);

    // The next visit (every tab of the old build closed) runs the new build, on the same brain.
    await page.close();
    const { next, nextErrors } = await nextVisit(context, `${site.origin}/#/sessions`);
    await next.waitForFunction(() => globalThis.agentBrain !== undefined, null, { timeout: 30_000 });
    await expect(next.getByRole('button', { name: /written after the deploy/ })).toBeVisible();
    await expect(next.getByRole('button', { name: /open during the update/ })).toBeVisible();
    await expect(next.getByTestId('update-waiting')).toHaveCount(0);
    await next.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Storage' }).click();
    await expect(next.getByTestId('chart-kinds').locator('canvas')).toBeVisible();
    expect(nextErrors).toEqual([]);
    await context.close();
  } finally {
    await profile.dispose();
    await site.close();
  }
});
