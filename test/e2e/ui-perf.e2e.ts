import { expect, test } from '@playwright/test';
import { createProfile, openApp, watchErrors } from './harness';

/** Starts counting long tasks (main thread busy > 50 ms) in the page; `stop` returns their durations. */
async function watchLongTasks(page: import('@playwright/test').Page) {
  await page.evaluate(() => {
    const g = globalThis as unknown as { __longTasks: number[]; __longTaskObserver: PerformanceObserver };
    g.__longTasks = [];
    g.__longTaskObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) g.__longTasks.push(Math.round(entry.duration));
    });
    g.__longTaskObserver.observe({ type: 'longtask' });
  });
  return {
    stop: () =>
      page.evaluate(() => {
        const g = globalThis as unknown as { __longTasks: number[]; __longTaskObserver: PerformanceObserver };
        for (const entry of g.__longTaskObserver.takeRecords())
          g.__longTasks.push(Math.round(entry.duration));
        g.__longTaskObserver.disconnect();
        return g.__longTasks;
      }),
  };
}

test('a 100 MB database is exported and imported from the storage view without a long task', async () => {
  test.setTimeout(240_000);
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await openApp(context, '/#/storage');
    const errors = watchErrors(page);
    // ~100 MB of step results through the public API: 25 finished tasks of 4 MB each (cleanable), one running.
    const fileBytes = await page.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      const { id: sessionId } = await brain.startSession({ title: 'Big history' });
      const chunk = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(29_128); // ~1 MiB of text
      for (let t = 0; t < 25; t++) {
        const { id: taskId } = await brain.startTask({ sessionId, title: `Old attempt ${t + 1}` });
        for (let s = 0; s < 4; s++)
          await brain.recordStep({ taskId, tool: 'dump', result: `${t}:${s}:${chunk}`, status: 'ok' });
        await brain.setTaskState(taskId, 'superseded');
      }
      await brain.startTask({ sessionId, title: 'Current work' });
      return (await brain.info()).fileBytes;
    });
    expect(fileBytes).toBeGreaterThan(100_000_000);

    const exportTasks = await watchLongTasks(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export agent.db' }).click();
    await download;
    await expect(page.getByText(/^Exported .* as agent-/)).toBeVisible({ timeout: 60_000 });
    const duringExport = await exportTasks.stop();

    // Import that same file through the file input (built in the page: no 100 MB over the test's wire).
    await page.evaluate(async () => {
      const bytes = await globalThis.agentBrain!.exportDatabase();
      (globalThis as unknown as { __bigFile: File }).__bigFile = new File(
        [bytes as Uint8Array<ArrayBuffer>],
        'big.db',
      );
    });
    await page.waitForTimeout(500); // let the copy above settle: it is the test's, not the app's
    const importTasks = await watchLongTasks(page);
    await page.evaluate(() => {
      const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
      const files = new DataTransfer();
      files.items.add((globalThis as unknown as { __bigFile: File }).__bigFile);
      input.files = files.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect(page.getByTestId('progress')).toBeVisible();
    await expect(page.getByTestId('import-done')).toContainText('Imported big.db', { timeout: 120_000 });
    const duringImport = await importTasks.stop();
    console.log(`long tasks: export ${JSON.stringify(duringExport)}, import ${JSON.stringify(duringImport)}`);
    expect(duringExport, 'long tasks during export (ms)').toEqual([]);
    expect(duringImport, 'long tasks during import (ms)').toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await profile.dispose();
  }
});
