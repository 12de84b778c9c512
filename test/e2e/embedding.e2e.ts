import { expect, test } from '@playwright/test';
import { createProfile, openApp, watchErrors } from './harness';

test('the example page runs its toy loop on its own brain; the app brain is untouched', async () => {
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const app = await openApp(context);
    await app.evaluate(() => globalThis.agentBrain!.startSession({ title: 'app session' }));

    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/playground/');
    await expect(page.getByRole('status')).toContainText('Done: 4 steps recorded in playground.db');
    await page.getByRole('button', { name: 'Run the loop again' }).click();
    await expect.poll(() => page.evaluate(() => globalThis.playground?.runs.length)).toBe(2);
    const playground = await page.evaluate(async () => {
      const brain = globalThis.playground!.brain;
      return { db: (await brain.info()).dbName, sessions: (await brain.listSessions()).length };
    });
    expect(playground).toEqual({ db: 'playground.db', sessions: 2 });

    // Both brains are open at once (different databases, different owners), and the app's is unchanged.
    const appSessions = await app.evaluate(async () =>
      (await globalThis.agentBrain!.listSessions()).map((s) => s.title),
    );
    expect(appSessions).toEqual(['app session']);
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await profile.dispose();
  }
});

test('after a first visit the app opens with the network cut', async () => {
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await openApp(context);
    await page.evaluate(async () => {
      await globalThis.agentBrain!.startSession({ title: 'made online' });
      await navigator.serviceWorker.ready;
    });
    // The service worker has precached the build: wait until it controls the page, then cut the network.
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await context.setOffline(true);
    await page.reload();
    await page.waitForFunction(() => globalThis.agentBrain !== undefined, null, { timeout: 30_000 });
    await expect(page.getByRole('button', { name: /made online/ })).toBeVisible();
    const titles = await page.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      await brain.startSession({ title: 'made offline' });
      return (await brain.listSessions()).map((s) => s.title).sort();
    });
    expect(titles).toEqual(['made offline', 'made online']);
    await context.setOffline(false);
    await context.close();
  } finally {
    await profile.dispose();
  }
});
