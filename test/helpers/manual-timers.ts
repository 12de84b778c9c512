/**
 * Timers on a hand-moved clock, for the engine's timer port (`TimerPort`): `advance(ms)` fires what falls due, in
 * order of due time (then of setting), letting the event loop turn after each; `next()` is when the next one is due;
 * `pending()` how many wait.
 */
import type { TimerPort } from '../../src/core/retention/index';

export function manualTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
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
  async function advance(ms: number) {
    const until = now + ms;
    for (;;) {
      const due = [...pending.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) break;
      pending.delete(due[0]);
      now = due[1].at;
      due[1].fn();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    now = until;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return {
    timers,
    advance,
    next: () => Math.min(...[...pending.values()].map((t) => t.at)),
    pending: () => pending.size,
  };
}
