/**
 * The main-thread probe of the long-task tests (ui-perf.e2e.ts, sessions-list.e2e.ts): a PerformanceObserver of
 * `longtask` entries (the main thread busy > 50 ms), and a wait until the page is quiet so that what a watch sees
 * belongs to the step it watches. Long tasks are wall-clock time: the files that use this run alone (the config's
 * `alone` project).
 */
import { expect, type Page } from '@playwright/test';

/** Starts counting long tasks (main thread busy > 50 ms) in the page; `stop` returns their durations. */
export async function watchLongTasks(page: Page) {
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

/**
 * Waits until the page is quiet, so that what the next watch sees belongs to the step it watches: three times in a
 * row, every worker call sent so far is answered (a call of ours, queued in the worker behind them) and the main
 * thread then reaches a long idle period (nothing queued and no timer due within 40 ms: no refresh pending).
 */
export async function quiet(page: Page) {
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const idle = () =>
            new Promise<number>((resolve) =>
              requestIdleCallback((deadline) => resolve(deadline.timeRemaining())),
            );
          let least = Infinity;
          for (let round = 0; round < 3; round++) {
            await globalThis.agentBrain!.info();
            least = Math.min(least, await idle());
          }
          return least;
        }),
      { message: 'the page never went quiet', timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(40);
}

/**
 * Waits until what the last step started has been drawn: the worker has answered everything sent before (a call
 * of ours queued behind it), two frames have passed, then an idle callback (or a second) — so the long tasks of
 * that step, if any, are in the observer. Unlike `quiet`, it does not wait for a 40 ms idle period, which a page
 * with a long scrolling list may not give for a long while after an input.
 */
export async function drawn(page: Page) {
  await page.evaluate(async () => {
    await globalThis.agentBrain!.info();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 }));
  });
}
