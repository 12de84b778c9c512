/** Building one API out of feature modules, and running its calls one at a time. */
import { BrainError } from '../core/errors';
import { createSerialQueue, type SerialQueue } from '../core/serial-queue';

/** Merges feature modules into one API; two features defining the same method is a bug caught at startup. */
export function assemble<T extends object>(...features: object[]): T {
  const api: Record<string, unknown> = {};
  for (const feature of features) {
    for (const [name, value] of Object.entries(feature)) {
      if (name in api) throw new BrainError('Internal', `Two engine features both define ${name}.`);
      api[name] = value;
    }
  }
  return api as T;
}

/**
 * Every method runs alone on the one connection (a serial queue), so statements of two calls never interleave
 * inside each other's transactions. `exempt` methods (listener registration) run at once.
 */
export function serialise<T extends object>(
  api: T,
  exempt: ReadonlySet<string>,
  queue: SerialQueue = createSerialQueue(),
): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(api)) {
    wrapped[name] =
      typeof value === 'function' && !exempt.has(name)
        ? (...args: unknown[]) =>
            queue.run(() => Promise.resolve((value as (...a: unknown[]) => unknown)(...args)))
        : value;
  }
  return wrapped as T;
}
