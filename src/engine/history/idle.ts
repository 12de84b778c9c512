/**
 * Work done when the engine is idle (history indexing behind the writes): a job starts once no call has asked for
 * it for `quietMs` — each new ask starts the wait again, so a caller sending batches back to back is not slowed by
 * it — and runs on the engine's serial queue like a call, one bounded chunk per turn, so a call that comes in waits
 * for at most one chunk. A job returns whether more is left; it is queued again after a timer tick.
 */
import type { TimerPort } from '../../core/retention/index';
import type { SerialQueue } from '../../core/serial-queue';
import { globalTimers } from '../timers';

export type IdleJob = () => Promise<boolean>;

/** While calls are queued, how long to wait before looking again (ms). */
const BUSY_RETRY_MS = 5;
/** How long no one must ask for a job before it starts, unless the asker says otherwise (ms). */
export const QUIET_MS = 50;

export type WhenIdle = (job: IdleJob, quietMs?: number) => void;

/** `timers`: the engine's timer port (timers.ts: in Node, a pending job does not keep the process alive). */
export function createIdleRunner(queue: SerialQueue, timers: TimerPort = globalTimers): WhenIdle {
  /** Jobs waiting for their quiet time (with the timer), and jobs running their chunks (null). */
  const jobs = new Map<IdleJob, unknown>();

  function arm(job: IdleJob, ms: number): void {
    jobs.set(
      job,
      timers.set(() => {
        if (queue.pending > 0) return arm(job, BUSY_RETRY_MS);
        jobs.set(job, null);
        return queue.run(job).then(
          (more) => (more ? arm(job, 0) : jobs.delete(job)),
          // Not lost: idle work is only ever work put off, still marked in the database, and every reader does it
          // first — a failure (a closed brain aside) then reaches that reader's caller. Scheduling stops until the
          // next write asks again.
          () => jobs.delete(job),
        );
      }, ms),
    );
  }

  return (job, quietMs = QUIET_MS) => {
    const timer = jobs.get(job);
    if (timer === null) return; // running: it goes on while there is more
    if (timer !== undefined) timers.clear(timer);
    arm(job, quietMs);
  };
}
