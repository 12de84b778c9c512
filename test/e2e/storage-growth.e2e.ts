import { expect, test, type Page } from '@playwright/test';
import { createProfile, openApp, watchErrors } from './harness';
import { expectAccessible, saveScreenshot } from './ui-helpers';

/** The rows the growth table should show, computed in the page from the engine's own samples. */
function expectedRows(page: Page) {
  return page.evaluate(async () => {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    const bytes = (n: number) => {
      let value = n;
      let unit = 0;
      while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
      }
      return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
    };
    const causes: Record<string, string> = {
      open: 'opened',
      writes: 'writes',
      cleanup: 'after cleanup',
      maintain: 'after upkeep',
      compact: 'after compacting',
      import: 'after import',
    };
    const { samples } = await globalThis.agentBrain!.sizeHistory();
    return samples.map((s) => [
      new Date(s.at).toLocaleString(),
      causes[s.cause] ?? s.cause,
      bytes(s.fileBytes),
      bytes(s.heavyBytes),
      bytes(s.freeBytes),
    ]);
  });
}

/** Records every text the progress bars show, however briefly (a MutationObserver in the page). */
async function recordProgressTexts(page: Page) {
  await page.evaluate(() => {
    const g = globalThis as unknown as { __progressTexts: string[]; __progressObserver: MutationObserver };
    g.__progressTexts = [];
    g.__progressObserver = new MutationObserver(() => {
      for (const bar of document.querySelectorAll('[data-testid=progress]'))
        g.__progressTexts.push((bar.textContent ?? '').replace(/\s+/g, ' ').trim());
    });
    g.__progressObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () =>
    page.evaluate(() => {
      const g = globalThis as unknown as { __progressTexts: string[]; __progressObserver: MutationObserver };
      g.__progressObserver.disconnect();
      return g.__progressTexts;
    });
}

test('storage growth: one sample said plainly, then a reopen and a cleanup drawn as a line with a matching table; compact counts pages', async () => {
  test.setTimeout(180_000);
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    let page = await openApp(context, '/#/storage');
    let errors = watchErrors(page);
    const growth = page.getByTestId('growth-chart');

    // A new brain has the sample taken when it opened, and says a line needs two.
    await expect(growth.getByTestId('growth-single')).toContainText('One size sample so far');
    await expect(growth.locator('canvas')).toHaveCount(0);

    // ~48 MiB of step results in 6 finished tasks (cleanable) and a running one.
    await page.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      await brain.setAutoCleanup({ enabled: false });
      const { id: sessionId } = await brain.startSession({ title: 'Growth' });
      // 1 MiB of random bytes as base64: steps are stored packed, and zlib cannot pack these below 1 MiB.
      const raw = new Uint8Array(1024 * 1024);
      for (let at = 0; at < raw.length; at += 65_536) crypto.getRandomValues(raw.subarray(at, at + 65_536));
      let binary = '';
      for (const byte of raw) binary += String.fromCharCode(byte);
      const chunk = btoa(binary);
      for (let t = 0; t < 6; t++) {
        const { id: taskId } = await brain.startTask({ sessionId, title: `Old attempt ${t + 1}` });
        for (let s = 0; s < 8; s++)
          await brain.recordStep({ taskId, tool: 'dump', result: `${t}:${s}:${chunk}`, status: 'ok' });
        await brain.setTaskState(taskId, 'superseded');
      }
      await brain.startTask({ sessionId, title: 'Current work' });
    });
    expect(errors).toEqual([]);

    // Reopen (a reload): the engine samples the grown database as it finds it.
    await page.close();
    page = await openApp(context, '/#/storage');
    errors = watchErrors(page);
    await page.evaluate(() => globalThis.agentBrain!.setAutoCleanup({ enabled: false }));
    const chart = page.getByTestId('growth-chart');
    await expect(chart.locator('canvas')).toBeVisible();
    await expect(chart.getByRole('img')).toHaveAttribute('aria-label', /over 2 samples/);

    // Compact the full file: the bar counts pages from inside the VACUUM.
    const progressTexts = await recordProgressTexts(page);
    await page.getByRole('button', { name: 'Compact now' }).click();
    await expect(page.getByTestId('compact-done')).toBeVisible({ timeout: 60_000 });
    const seen = await progressTexts();
    expect(
      seen.some((text) => /Compacting: reading pages… [\d,]+ of [\d,]+/.test(text)),
      seen.join(' | '),
    ).toBe(true);

    // Run the cleanup from the dry run.
    await expect(page.getByTestId('cleanup-summary')).toContainText('6 tasks can be cleaned');
    await page.getByRole('button', { name: 'Run cleanup…' }).click();
    await page.getByRole('button', { name: 'Clean now' }).click();
    await expect(page.getByTestId('cleanup-done')).toContainText('Cleaned 6 tasks', { timeout: 60_000 });

    // The chart now shows the cleanup: at least the grown and the cleaned state, and the table says the same.
    await expect(chart.getByRole('img')).toHaveAttribute('aria-label', /over [3-9] samples/);
    await chart.getByText(/Show the numbers/).click();
    const table = chart.getByTestId('growth-table');
    await expect(table).toBeVisible();
    const shownRows = () =>
      table
        .getByTestId('growth-row')
        .evaluateAll((rows) =>
          rows.map((row) =>
            [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim()),
          ),
        );
    // The engine records its last sample after the cleanup's own change notices: the table follows it.
    await expect
      .poll(async () => JSON.stringify(await shownRows()) === JSON.stringify(await expectedRows(page)))
      .toBe(true);
    const expected = await expectedRows(page);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(expected.at(-1)?.[1]).toBe('after cleanup');
    expect(await shownRows()).toEqual(expected);
    // Grown, then cleaned: heavy data went to free pages.
    const [grown, cleaned] = [expected.at(-2)!, expected.at(-1)!];
    expect(grown[3]).toMatch(/MiB/);
    expect(cleaned[3]).not.toMatch(/MiB/);
    expect(cleaned[4]).toMatch(/MiB/);

    await saveScreenshot(page, 'storage-growth-light');
    await expectAccessible(page, 'storage with the growth chart');
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await profile.dispose();
  }
});
