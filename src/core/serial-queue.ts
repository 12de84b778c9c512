/**
 * Runs async jobs one at a time, in call order. The worker has one SQLite connection; without this, two API
 * calls could interleave their statements inside each other's transactions.
 */
export interface SerialQueue {
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Jobs queued or running. */
  readonly pending: number;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;
  return {
    run<T>(job: () => Promise<T>): Promise<T> {
      pending++;
      const result = tail.then(job, job);
      tail = result.then(
        () => pending--,
        () => pending--,
      );
      return result;
    },
    get pending() {
      return pending;
    },
  };
}
