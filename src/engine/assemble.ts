/** Building one API out of feature modules, and running its calls one at a time. */
import { BrainError } from '../core/errors';
import { createSerialQueue, type SerialQueue } from '../core/serial-queue';

/** What features assembled offer: every feature's methods, the intersection of their types. */
export type Assembled<F extends readonly object[]> = F extends readonly [
  infer First,
  ...infer Rest extends readonly object[],
]
  ? First & Assembled<Rest>
  : unknown;

/**
 * Merges feature modules into one API typed as all of them together, so a caller that states the API it must
 * offer (`satisfies BrainApi`) fails to compile when a feature is left out. Two features defining the same method
 * is a bug caught at startup.
 */
export function assemble<F extends readonly object[]>(...features: F): Assembled<F> {
  const api: Record<string, unknown> = {};
  for (const feature of features) {
    for (const [name, value] of Object.entries(feature)) {
      if (name in api) throw new BrainError('Internal', `Two engine features both define ${name}.`);
      api[name] = value;
    }
  }
  // Every feature's own properties were copied, which is what the intersection promises.
  return api as Assembled<F>;
}

type Method = (...args: unknown[]) => unknown;

/** `api` with each method replaced by `wrap(name, method)`, which must keep its signature; other values kept. */
export function wrapMethods<T extends object>(api: T, wrap: (name: string, method: Method) => Method): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(api)) {
    wrapped[name] = typeof value === 'function' ? wrap(name, value as Method) : value;
  }
  // The same names; each method keeps its signature by `wrap`'s contract.
  return wrapped as T;
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
  return wrapMethods(api, (name, method) =>
    exempt.has(name) ? method : (...args) => queue.run(() => Promise.resolve(method(...args))),
  );
}
