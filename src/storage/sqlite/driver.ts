/**
 * The driver port: everything above it speaks SQL through these few calls. One adapter wraps wa-sqlite (OPFS in
 * the worker, memory in Node tests); repositories build on the port and never see the wasm API.
 */
export type SqlValue = null | number | bigint | string | Uint8Array;
export type SqlParams = readonly (SqlValue | boolean | undefined)[];
export type Row = Record<string, SqlValue>;

export interface RunResult {
  readonly changes: number;
  readonly lastInsertRowid: number;
}

export interface SqlDriver {
  /** All rows of one statement. Blobs are copies, safe to keep. */
  all<T = Row>(sql: string, params?: SqlParams): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Row>(sql: string, params?: SqlParams): Promise<T | undefined>;
  run(sql: string, params?: SqlParams): Promise<RunResult>;
  /** Runs a script of several statements without parameters (migrations, pragmas). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in a transaction: commits when it resolves, rolls back when it throws. Nested calls use
   * SAVEPOINTs. Callers serialise access (one operation at a time) — the port does not interleave work.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
