/**
 * Expected failures carry a stable `code` a caller can switch on and a message a person can act on.
 * Foreign errors (DOMException, SQLiteError, fflate) are translated into these where they enter.
 */
export const errorCodes = [
  'InvalidArgument',
  'NotFound',
  'CorruptBody',
  'CheckpointRemoved',
  'TooLarge',
  'Conflict',
  'PathEscapes',
  'MalformedLine',
  'InvalidUtf8',
  'NotADirectory',
  'PermissionDenied',
  'QuotaExceeded',
  'OpenElsewhere',
  'Closed',
  'NotSqlite',
  'CorruptDatabase',
  'NewerSchema',
  /** A database whose tables, indexes, triggers or views are not exactly the migrations' (one not ours). */
  'SchemaMismatch',
  /** The database file is empty or missing where a brain was kept: it was removed outside agent-brain. */
  'BrainMissing',
  'CorruptArchive',
  /** A file no transcript format claims (the message names the known formats). */
  'UnknownFormat',
  /** The caller cancelled a long call (an import): nothing of it was kept. */
  'Cancelled',
  'Busy',
  /** A checkpoint entry that holds its change only as a patch: its whole bodies were never seen. */
  'BodiesUnknown',
  /** A patch checkpoint does not fit the file as it is now (the message names the hunk and the file). */
  'PatchDoesNotApply',
  /**
   * The brain's worker could not start: its file could not be loaded, it threw while starting, or it did not answer
   * in time (`details.stage`, `details.url`). A build or serving problem, not a bug of the engine.
   */
  'WorkerUnavailable',
  'Internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface BrainErrorData {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

export class BrainError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'BrainError';
    this.code = code;
    this.details = details;
  }

  toData(): BrainErrorData {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromData(data: BrainErrorData): BrainError {
    return new BrainError(data.code, data.message, data.details);
  }
}

export function isBrainError(value: unknown, code?: ErrorCode): value is BrainError {
  return value instanceof BrainError && (code === undefined || value.code === code);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}

/** For exhaustive switches: a `never` that reaches run time is a bug, reported as such. */
export function unreachable(value: never): never {
  throw new BrainError('Internal', `Unexpected value: ${JSON.stringify(value)}`);
}
