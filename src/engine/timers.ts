/**
 * The engine's timers in the worker (and in Node tests): what the lifecycle's cleanup passes and the idle indexer
 * schedule with. One port for every feature, so a test gives them all fake time the same way.
 */
import type { TimerPort } from '../core/retention/index';

export const globalTimers: TimerPort = {
  now: () => performance.now(),
  set: (fn, ms) => {
    // The work `fn` started goes on by itself (each feature handles its own failures).
    const handle = setTimeout(() => void fn(), ms);
    // In Node (tests) a pending job must not keep the process alive.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
