import * as Comlink from 'comlink';
import { BrainError, isErrorCode, type BrainErrorData } from '../core/errors';

interface SerializedThrow {
  readonly brainError: BrainErrorData;
  /**
   * Where an unexpected (`Internal`) error was thrown, as the throwing side's `stack` text. Carried in every build,
   * not only under `import.meta.env.DEV`: the package is built in production mode, so that flag would hide it from
   * exactly the consumers who report the bug; and it is data the page already holds (the worker's code is the
   * page's own), only ever for errors that are a bug. Expected errors do not carry it: their code and message say it.
   */
  readonly stack?: string;
}

/** Foreign errors become `Internal` BrainErrors so a caller always gets a `code`. */
export function toBrainError(error: unknown): BrainError {
  if (error instanceof BrainError) return error;
  if (error instanceof Error) return new BrainError('Internal', error.message || error.name);
  return new BrainError('Internal', String(error));
}

// The unexpected errors already logged: an error object rethrown to several callers (a shared failed promise)
// is logged once. Weak, so a logged error is not kept alive by it.
const logged = new WeakSet<object>();

/** An `Internal` error is a bug: say so in the console of the side that threw it, once, with its own stack. */
function logUnexpected(error: unknown): void {
  if (typeof error === 'object' && error !== null) {
    if (logged.has(error)) return;
    logged.add(error);
  }
  console.error('agent-brain: an unexpected error, passed to the caller as Internal:', error);
}

function serializeThrow(value: unknown): SerializedThrow {
  const brainError = toBrainError(value).toData();
  if (brainError.code !== 'Internal') return { brainError };
  logUnexpected(value);
  const stack = value instanceof Error ? value.stack : undefined;
  return stack === undefined ? { brainError } : { brainError, stack };
}

function deserializeThrow(serialized: unknown): BrainError {
  const { brainError: data, stack } = (serialized ?? {}) as Partial<SerializedThrow>;
  if (!data || !isErrorCode(data.code)) {
    return new BrainError('Internal', 'The worker failed with an unreadable error.');
  }
  const error = BrainError.fromData(data);
  // Appended rather than set as `cause`: every console and test runner prints `stack`, so DevTools shows both
  // where the call failed here and, below, where it was thrown over there.
  if (typeof stack === 'string') {
    error.stack = `${error.stack ?? String(error)}\nThrown across the worker boundary as ${stack}`;
  }
  return error;
}

let installed = false;

/**
 * Comlink cannot clone Error subclasses: both sides install this handler, so a BrainError thrown in the worker
 * is rejected on the client as a BrainError with the same `code`, message and details. An unexpected error
 * (`Internal`) is logged once by the side that threw it and keeps its stack on the other (`SerializedThrow`).
 */
export function installErrorTransfer(): void {
  if (installed) return;
  installed = true;
  Comlink.transferHandlers.set('throw', {
    canHandle: (value: unknown): value is { value: unknown } =>
      typeof value === 'object' &&
      value !== null &&
      Object.getOwnPropertySymbols(value).some((symbol) => symbol.description === 'Comlink.thrown'),
    serialize({ value }: { value: unknown }) {
      return [serializeThrow(value), []];
    },
    deserialize(serialized: unknown) {
      throw deserializeThrow(serialized);
    },
  });
}
