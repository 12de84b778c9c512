/**
 * Progress of a long bench phase, with counts: the page logs a structured line that the Node half
 * (test/bench/lib/browser.mjs) shows on the terminal. At most a line every 250 ms, plus the last one of a phase.
 */
let lastAt = 0;

export function progress(phase: string, done: number, total: number): void {
  const now = performance.now();
  if (done < total && now - lastAt < 250) return;
  lastAt = now;
  console.info(`[progress] ${JSON.stringify({ phase, done, total })}`);
}
