/**
 * Work done when no engine call waits (history indexing behind the writes): a job runs on the engine's serial
 * queue like a call, one bounded chunk per turn, so an incoming call waits for at most one chunk. A job returns
 * whether more is left; it is queued again after a timer tick (calls sent meanwhile go first).
 */
import type { SerialQueue } from '../../core/serial-queue';

export type IdleJob = () => Promise<boolean>;

/** While calls are queued, how long to wait before looking again (ms). */
const BUSY_RETRY_MS = 5;

export function createIdleRunner(queue: SerialQueue): (job: IdleJob) => void {
  const scheduled = new Set<IdleJob>();

  function arm(job: IdleJob, ms: number): void {
    setTimeout(() => {
      if (queue.pending > 0) return arm(job, BUSY_RETRY_MS);
      queue.run(job).then(
        (more) => (more ? arm(job, 0) : scheduled.delete(job)),
        // Not lost: idle work is only ever work put off, still marked in the database, and every reader does it
        // first — a failure (a closed brain aside) then reaches that reader's caller. Scheduling stops until the
        // next write schedules it again.
        () => scheduled.delete(job),
      );
    }, ms);
  }

  return (job) => {
    if (scheduled.has(job)) return;
    scheduled.add(job);
    arm(job, 0);
  };
}
