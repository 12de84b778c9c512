/**
 * Coalesces refresh requests: the engine announces every committed change (a running agent makes dozens a
 * second), but a view needs at most one fetch in flight and one more queued after it. `settled()` resolves once
 * nothing is scheduled or running (tests and progress indicators wait on it).
 */
export interface Refresher {
  request(): void;
  settled(): Promise<void>;
  cancel(): void;
}

export function createRefresher(
  task: () => Promise<void>,
  onError: (error: unknown) => void,
  delayMs = 30,
): Refresher {
  let running = false;
  let again = false;
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waiters: (() => void)[] = [];

  const idle = () => !running && timer === undefined;
  const wake = () => {
    if (!idle()) return;
    const list = waiters;
    waiters = [];
    for (const resolve of list) resolve();
  };
  const run = async () => {
    timer = undefined;
    running = true;
    try {
      do {
        again = false;
        try {
          await task();
        } catch (error) {
          onError(error);
        }
      } while (again && !cancelled);
    } finally {
      running = false;
      wake();
    }
  };
  return {
    request() {
      cancelled = false;
      if (running) again = true;
      else if (timer === undefined) timer = setTimeout(() => void run(), delayMs);
    },
    settled() {
      return idle() ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
    cancel() {
      cancelled = true;
      again = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      wake();
    },
  };
}
