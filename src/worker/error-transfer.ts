import * as Comlink from 'comlink';
import { BrainError, isErrorCode, type BrainErrorData } from '../core/errors';

interface SerializedThrow {
  readonly brainError: BrainErrorData;
}

/** Foreign errors become `Internal` BrainErrors so a caller always gets a `code`. */
export function toBrainError(error: unknown): BrainError {
  if (error instanceof BrainError) return error;
  if (error instanceof Error) return new BrainError('Internal', error.message || error.name);
  return new BrainError('Internal', String(error));
}

let installed = false;

/**
 * Comlink cannot clone Error subclasses: both sides install this handler, so a BrainError thrown in the worker
 * is rejected on the client as a BrainError with the same `code`, message and details.
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
      const data = toBrainError(value).toData();
      return [{ brainError: data } satisfies SerializedThrow, []];
    },
    deserialize(serialized: unknown) {
      const data = (serialized as SerializedThrow).brainError;
      if (data && isErrorCode(data.code)) throw BrainError.fromData(data);
      throw new BrainError('Internal', 'The worker failed with an unreadable error.');
    },
  });
}
