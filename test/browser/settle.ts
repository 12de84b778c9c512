/** Waiting on events in browser tests: a worker's Web Locks released, a promise settled within a bound. */
import { expect } from 'vitest';

/** Polls the Web Locks until no lock naming `name` is held (a killed or closed worker let the database go). */
export async function untilReleased(name: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const { held = [] } = await navigator.locks.query();
        return held.some((lock) => lock.name?.includes(name));
      },
      { timeout: 10_000, message: `A worker still holds ${name}.` },
    )
    .toBe(false);
}

export type Outcome =
  { settled: 'resolved'; value: unknown } | { settled: 'rejected'; error: unknown } | { settled: 'never' };

/** How a promise settles within `ms` (a hang shows as `never` instead of a test timeout). */
export function outcomeOf(promise: Promise<unknown>, ms = 10_000): Promise<Outcome> {
  return Promise.race([
    promise.then(
      (value): Outcome => ({ settled: 'resolved', value }),
      (error: unknown): Outcome => ({ settled: 'rejected', error }),
    ),
    new Promise<Outcome>((resolve) => setTimeout(() => resolve({ settled: 'never' }), ms)),
  ]);
}
