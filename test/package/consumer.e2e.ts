/**
 * The package as a playground developer meets it: packed, installed into a fresh Vite + TypeScript app with no
 * bundler configuration, type-checked, built, served by `vite preview` and opened in Chromium. Prints the
 * installed size and the main-thread bundle size, and holds them to the issue's bounds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { PreviewServer, ViteDevServer } from 'vite';
import { defaultStartTimeoutMs } from '../../src/lib/worker-start';
import {
  buildApp,
  builtFiles,
  createConsumerApp,
  directoryBytes,
  mainThreadBundle,
  serve,
  serveDev,
  typeCheck,
  variantOf,
  type ConsumerApp,
} from './consumer-build';

const MiB = 1024 * 1024;
let app: ConsumerApp;
const servers: (PreviewServer | ViteDevServer)[] = [];

test.beforeAll(async () => {
  test.setTimeout(300_000);
  app = createConsumerApp();
  typeCheck(app);
  await buildApp(app);
  const installed = directoryBytes(path.join(app.dir, 'node_modules'));
  const bundle = mainThreadBundle(app.dist);
  console.log(
    `consumer: installed node_modules ${(installed / MiB).toFixed(2)} MiB; main-thread bundle ` +
      `${(bundle.bytes / 1024).toFixed(1)} KiB, ${(bundle.gzipBytes / 1024).toFixed(1)} KiB gzip (${bundle.files.join(', ')})`,
  );
  expect(installed).toBeLessThan(25 * MiB);
  expect(bundle.gzipBytes).toBeLessThan(60 * 1024);
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  if (app) fs.rmSync(app.dir, { recursive: true, force: true });
});

async function served(outDir: string): Promise<string> {
  const { url, server } = await serve(app, outDir);
  servers.push(server);
  return url;
}

async function result(page: Page): Promise<Record<string, unknown>> {
  await expect(page.locator('body[data-result]')).toBeAttached();
  return JSON.parse((await page.locator('body').getAttribute('data-result')) ?? 'null') as Record<
    string,
    unknown
  >;
}

test('the published types import only the package and its dependencies', () => {
  // What `skipLibCheck: false` in the app's tsconfig makes tsc check (beforeAll); said here by name.
  const installed = path.join(app.dir, 'node_modules/agent-brain');
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const allowed = new Set(Object.keys(manifest.dependencies ?? {}));
  const types = path.join(installed, 'dist-lib/types');
  const imported = new Map<string, string>();
  for (const file of fs.readdirSync(types, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.d.ts')) continue;
    const text = fs.readFileSync(path.join(types, file), 'utf8');
    for (const match of text.matchAll(
      /(?:\bfrom\s*|\bimport\s*\(\s*|reference types=)["']([^"'.][^"']*)["']/g,
    )) {
      const name = match[1]!.startsWith('@')
        ? match[1]!.split('/').slice(0, 2).join('/')
        : match[1]!.split('/')[0]!;
      imported.set(name, file);
    }
  }
  expect(imported.size).toBeGreaterThan(0); // control: the scan sees the imports there are (comlink)
  const foreign = [...imported].filter(([name]) => !allowed.has(name));
  expect(foreign, 'declarations importing a package that is not a dependency').toEqual([]);
});

test('the build ships the workers and the wasm as files, not inlined', () => {
  const files = builtFiles(app.dist);
  const workers = files.filter((f) => /brain\.worker-[\w-]+\.js$/.test(f));
  const wasm = files.filter((f) => f.endsWith('.wasm'));
  expect(workers).toHaveLength(1);
  expect(wasm).toHaveLength(1);
  const worker = fs.readFileSync(path.join(app.dist, workers[0]!), 'utf8');
  expect(worker).not.toContain('data:application/wasm');
  expect(worker).toContain(path.posix.basename(wasm[0]!));
  // The brain worker's line reader (a nested worker, for large imports) is emitted beside it and named by it.
  const readers = files.filter((f) => /line-reader\.worker-[\w-]+\.js$/.test(f));
  expect(readers).toHaveLength(1);
  expect(worker).toContain(path.posix.basename(readers[0]!));
});

test('records a session, task, step and checkpoint, and reads them back after a reload', async ({ page }) => {
  const url = await served(app.dist);
  await page.goto(`${url}/#write`);
  const written = await result(page);
  expect(written, JSON.stringify(written)).toMatchObject({ ok: true, data: { tool: true, memory: true } });
  expect(written['tools']).toContain('record_decision');

  await page.evaluate(() => (location.hash = '#read'));
  await page.reload();
  const read = await result(page);
  expect(read, JSON.stringify(read)).toMatchObject({
    ok: true,
    data: {
      session: 'Fix the flaky date test',
      task: 'Reproduce the failure',
      steps: ['edit_file'],
      checkpoint: { path: 'src/date.ts', before: 'weekStart = 1\n', after: 'weekStart = 0\n' },
      resumeMentionsDecision: true,
      memory: true,
    },
  });
  // agent-brain/markdown, loaded on demand: rendered and sanitised.
  expect(read['markdown']).toContain('<h1>Resumed</h1>');
  expect(read['markdown']).not.toContain('<script');
});

test('works under the Vite dev server too, with no configuration', async ({ page }) => {
  const { url, server } = await serveDev(app);
  servers.push(server);
  await page.goto(`${url}/#write`);
  const written = await result(page);
  expect(written, JSON.stringify(written)).toMatchObject({ ok: true, data: { tool: true } });
});

const failures = [
  { name: 'removed from the build', worker: null, stage: 'load', says: 'could not be loaded' },
  {
    name: 'throwing while it starts',
    worker: 'throw new Error("broken build");\n',
    stage: 'load',
    says: 'broken build',
  },
  { name: 'never answering', worker: 'export {};\n', stage: 'timeout', says: 'did not answer' },
] as const;

for (const failure of failures) {
  test(`a worker ${failure.name}: openBrain() rejects with WorkerUnavailable naming its URL`, async ({
    page,
  }) => {
    const url = await served(variantOf(app, failure.name.replace(/\W+/g, '-'), failure.worker));
    const started = Date.now();
    await page.goto(`${url}/#read`);
    const failed = await result(page);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `worker ${failure.name}: typed error after ${seconds.toFixed(2)} s (in the page ${Math.round(Number(failed['ms']))} ms)`,
    );
    expect(failed, JSON.stringify(failed)).toMatchObject({
      ok: false,
      brainError: true,
      code: 'WorkerUnavailable',
      details: { stage: failure.stage },
    });
    const details = failed['details'] as { url: string };
    expect(details.url).toMatch(new RegExp(`^${url}/assets/brain\\.worker-[\\w-]+\\.js$`));
    expect(failed['message']).toContain(details.url);
    expect(failed['message']).toContain(failure.says);
    // Loading failures are reported at once; silence after the start bound (8 s by default) plus the page load.
    expect(seconds).toBeLessThan(failure.stage === 'timeout' ? (defaultStartTimeoutMs + 4_000) / 1000 : 10);
    if (failure.stage === 'timeout')
      expect(Number(failed['ms'])).toBeGreaterThanOrEqual(defaultStartTimeoutMs);
  });
}
