/**
 * Issue 13, item 4: an agent.db emptied outside the app (here by a page of the same origin while the app is
 * closed) is not opened as a new brain: the app says the brain kept here is gone and offers to start an empty one;
 * only that click gives an empty brain, and it stays the brain afterwards.
 */
import { expect, test } from '@playwright/test';
import { createProfile, openApp } from './harness';

test('an emptied agent.db is reported, and an empty brain starts only when asked', async () => {
  const profile = await createProfile();
  try {
    let context = await profile.launch();
    let page = await openApp(context);
    await page.evaluate(() => globalThis.agentBrain!.startSession({ title: 'precious session' }));
    await expect(page.getByRole('button', { name: /precious session/ })).toBeVisible();
    await context.close();

    // The app is closed; a static file of the same origin empties the database file, as a tool would.
    context = await profile.launch();
    const outside = await context.newPage();
    await outside.goto('/favicon.svg');
    await outside.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const writable = await (await root.getFileHandle('agent.db')).createWritable();
      await writable.truncate(0);
      await writable.close();
    });
    await outside.close();

    page = await context.newPage();
    await page.goto('/');
    const notice = page.getByRole('alert');
    await expect(notice.getByRole('heading', { name: 'The brain kept here is gone' })).toBeVisible();
    await expect(notice).toContainText('agent.db is empty, though a brain was kept here');
    // Trying again does not quietly make a new brain.
    await notice.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'The brain kept here is gone' })).toBeVisible();

    await page.getByRole('button', { name: 'Start an empty brain' }).click();
    await page.waitForFunction(() => globalThis.agentBrain !== undefined);
    expect(await page.evaluate(() => globalThis.agentBrain!.listSessions())).toEqual([]);
    await page.evaluate(() => globalThis.agentBrain!.startSession({ title: 'a new start' }));
    await page.reload();
    await page.waitForFunction(() => globalThis.agentBrain !== undefined);
    const titles = await page.evaluate(async () =>
      (await globalThis.agentBrain!.listSessions()).map((s) => s.title),
    );
    expect(titles).toEqual(['a new start']);
    await context.close();
  } finally {
    await profile.dispose();
  }
});
