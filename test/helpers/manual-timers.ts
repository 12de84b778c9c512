/**
 * Timers on a hand-moved clock, for the engine's timer port (`TimerPort`): `advance(ms)` fires what falls due, in
 * order of due time (then of setting), each awaited with the work it returns; `next()` is when the next one is due;
 * `pending()` how many wait.
 */
import type { TimerPort } from '../../src/core/retention/index';

export function manualTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void | Promise<unknown> }>();
  const timers: TimerPort = {
    now: () => now,
    set(fn, ms) {
      const id = nextId++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clear(handle) {
      pending.delete(handle as number);
    },
  };
  /**
   * Moves the clock `ms` on. `awaitWork` (default): each fired timer's work is awaited before the next; false for a
   * test that holds that work open itself (it then waits on its own signal).
   */
  async function advance(ms: number, { awaitWork = true }: { readonly awaitWork?: boolean } = {}) {
    const until = now + ms;
    for (;;) {
      const due = [...pending.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      // The work the timer started (a cleanup pass, an idle job), awaited: the test goes on once it has ended.
      const work = due[1].fn();
      if (awaitWork) await work;
    }
    now = until;
  }
  return {
    timers,
    advance,
    next: () => Math.min(...[...pending.values()].map((t) => t.at)),
    pending: () => pending.size,
  };
}
