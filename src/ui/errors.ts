import { isBrainError } from '../lib/index';

/** The sentence to show a person for a failed call: the engine's typed errors already carry one. */
export function messageOf(error: unknown): string {
  if (isBrainError(error)) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
