import * as SQLite from '@journeyapps/wa-sqlite';
import { SQLiteError } from '@journeyapps/wa-sqlite';
import { BrainError } from '../../../core/errors';
import { utf8Length } from '../../../core/utf8';
import type { Row, RunResult, SqlDriver, SqlParams, SqlValue } from '../driver';

type SQLiteAPI = ReturnType<typeof SQLite.Factory>;

/** Asks the VFS why an I/O error happened (SQLite only reports "disk I/O error"), e.g. a full quota. */
export type IoErrorExplainer = () => BrainError | undefined;

const PREPARE_PERSISTENT = 0x01;

/** Translates SQLite's result codes into the engine's typed errors where a person can act on them. */
export function translateSqliteError(error: unknown, sql?: string, explainIo?: IoErrorExplainer): unknown {
  if (error instanceof BrainError) return error;
  if (error instanceof SQLiteError) {
    const primary = error.code & 0xff;
    if (primary === SQLite.SQLITE_IOERR) {
      const explained = explainIo?.();
      if (explained) return explained;
    }
    switch (primary) {
      case SQLite.SQLITE_FULL:
        return new BrainError(
          'QuotaExceeded',
          'The browser storage quota is full: free space or allow persistent storage.',
        );
      case SQLite.SQLITE_IOERR:
        // OPFS reports a full quota as a failed write.
        if (error.code === SQLite.SQLITE_IOERR_WRITE) {
          return new BrainError(
            'QuotaExceeded',
            'Writing agent.db failed; the browser storage quota is probably full.',
            {
              sqliteCode: error.code,
            },
          );
        }
        return new BrainError('Internal', `SQLite I/O error (${error.code}): ${error.message}`, {
          sqliteCode: error.code,
        });
      case SQLite.SQLITE_NOTADB:
        return new BrainError('NotSqlite', 'The file is not an SQLite database.');
      case SQLite.SQLITE_CORRUPT:
        return new BrainError('CorruptDatabase', `The database is corrupt: ${error.message}`);
      case SQLite.SQLITE_BUSY:
      case SQLite.SQLITE_LOCKED:
        return new BrainError('Busy', `The database is busy: ${error.message}`);
      case SQLite.SQLITE_CONSTRAINT:
        return new BrainError('InvalidArgument', `Constraint failed: ${error.message}`, {
          sqliteCode: error.code,
        });
      default:
        return new BrainError(
          'Internal',
          `SQLite error ${error.code}: ${error.message}${sql ? ` in: ${sql.slice(0, 120)}` : ''}`,
          {
            sqliteCode: error.code,
          },
        );
    }
  }
  return error;
}

/** The parts of the Emscripten module a text binding needs (the build exports them; the package ships no types). */
interface WasmHeap {
  HEAPU8: Uint8Array;
  _sqlite3_malloc(bytes: number): number;
  _sqlite3_bind_text(stmt: number, index: number, text: number, bytes: number, destructor: number): number;
  _getSqliteFree(): number;
}

function wasmHeap(module: unknown): WasmHeap | null {
  const m = module as Partial<WasmHeap> | null;
  return m &&
    m.HEAPU8 instanceof Uint8Array &&
    typeof m._sqlite3_malloc === 'function' &&
    typeof m._sqlite3_bind_text === 'function' &&
    typeof m._getSqliteFree === 'function'
    ? (m as WasmHeap)
    : null;
}

const textEncoder = new TextEncoder();
/** Below this many UTF-16 units a string gets its worst case (3 bytes a unit) rather than a counting pass. */
const COUNT_ABOVE = 64 * 1024;

/**
 * Binds a string by encoding it straight into SQLite's heap (`encodeInto`), which SQLite then owns and frees.
 * wa-sqlite's own `bind_text` encodes into a fresh ArrayBuffer first and copies that in: one short-lived buffer
 * per bound string, which a long import turns into hundreds of MB waiting for the garbage collector.
 */
function bindText(heap: WasmHeap, stmt: number, index: number, text: string): number {
  const capacity = text.length <= COUNT_ABOVE ? text.length * 3 : utf8Length(text);
  const ptr = heap._sqlite3_malloc(capacity + 1);
  if (ptr === 0) return SQLite.SQLITE_NOMEM;
  // Read HEAPU8 after the allocation: a growing wasm memory replaces it.
  const { read, written } = textEncoder.encodeInto(text, heap.HEAPU8.subarray(ptr, ptr + capacity));
  // SQLite owns the allocation from here, even when the call fails.
  const rc = heap._sqlite3_bind_text(stmt, index, ptr, written, heap._getSqliteFree());
  if (read !== text.length)
    throw new BrainError(
      'Internal',
      `A string of ${text.length} UTF-16 units did not fit in ${capacity} bytes.`,
    );
  return rc;
}

function bindValue(
  api: SQLiteAPI,
  heap: WasmHeap | null,
  stmt: number,
  index: number,
  value: SqlValue | boolean | undefined,
): void {
  if (value === undefined || value === null) {
    api.bind_null(stmt, index);
  } else if (typeof value === 'number') {
    // wa-sqlite binds non-int32 numbers as doubles; keep large integers (epoch ms, sizes) as INTEGER.
    if (Number.isSafeInteger(value)) api.bind_int64(stmt, index, BigInt(value));
    else api.bind_double(stmt, index, value);
  } else if (typeof value === 'boolean') {
    api.bind_int(stmt, index, value ? 1 : 0);
  } else if (typeof value === 'string' && heap) {
    const rc = bindText(heap, stmt, index, value);
    if (rc !== SQLite.SQLITE_OK) throw new SQLiteError(`sqlite3_bind_text failed (${rc})`, rc);
  } else {
    api.bind(stmt, index, value);
  }
}

function readRow(api: SQLiteAPI, stmt: number, columns: readonly string[]): Row {
  const row: Row = {};
  const values = api.row(stmt) as SqlValue[];
  for (let i = 0; i < columns.length; i++) {
    const value = values[i] ?? null;
    // Integers within the safe range come back as numbers; beyond it as bigint (never silently rounded).
    row[columns[i] as string] =
      typeof value === 'bigint' &&
      value <= BigInt(Number.MAX_SAFE_INTEGER) &&
      value >= BigInt(Number.MIN_SAFE_INTEGER)
        ? Number(value)
        : value;
  }
  return row;
}

/** Wraps one open wa-sqlite connection. Statements are prepared once and cached. */
export function createWaSqliteDriver(
  api: SQLiteAPI,
  db: number,
  explainIo?: IoErrorExplainer,
  /** The wasm module, for binding strings without a copy (wa-sqlite's own binding where it is not given). */
  module?: unknown,
): SqlDriver {
  const heap = wasmHeap(module);
  const cache = new Map<string, { stmt: number; columns: string[] }>();
  let depth = 0;
  let closed = false;

  async function prepare(sql: string) {
    const cached = cache.get(sql);
    if (cached) return cached;
    for await (const stmt of api.statements(db, sql, { unscoped: true, flags: PREPARE_PERSISTENT })) {
      const entry = { stmt, columns: api.column_names(stmt) };
      cache.set(sql, entry);
      return entry;
    }
    throw new BrainError('Internal', `Empty SQL statement: ${sql}`);
  }

  async function execute(sql: string, params: SqlParams, collect: boolean, limit = Infinity): Promise<Row[]> {
    if (closed) throw new BrainError('Closed', 'The database is closed.');
    // Preparing reads the schema (I/O that can fail like any other): its errors are translated too.
    const { stmt, columns } = await prepare(sql).catch((error: unknown) => {
      throw translateSqliteError(error, sql, explainIo);
    });
    const rows: Row[] = [];
    try {
      api.clear_bindings(stmt);
      for (let i = 0; i < params.length; i++) bindValue(api, heap, stmt, i + 1, params[i]);
      while ((await api.step(stmt)) === SQLite.SQLITE_ROW) {
        if (collect && rows.length < limit) rows.push(readRow(api, stmt, columns));
        if (rows.length >= limit) break;
      }
    } catch (error) {
      throw translateSqliteError(error, sql, explainIo);
    } finally {
      await api.reset(stmt).catch(() => undefined);
    }
    return rows;
  }

  return {
    all: <T>(sql: string, params: SqlParams = []) => execute(sql, params, true) as Promise<T[]>,
    get: async <T>(sql: string, params: SqlParams = []) =>
      (await execute(sql, params, true, 1))[0] as T | undefined,
    async run(sql: string, params: SqlParams = []): Promise<RunResult> {
      await execute(sql, params, false);
      return { changes: api.changes(db), lastInsertRowid: api.last_insert_id(db) };
    },
    async exec(sql: string) {
      if (closed) throw new BrainError('Closed', 'The database is closed.');
      try {
        await api.exec(db, sql);
      } catch (error) {
        throw translateSqliteError(error, sql, explainIo);
      }
    },
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      const outer = depth === 0;
      const name = `sp${depth}`;
      // Prepared once like any statement (a savepoint per imported tool call is thousands a transaction).
      await execute(outer ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${name}`, [], false);
      depth++;
      let result: T;
      try {
        result = await fn();
        // A failed COMMIT (e.g. a full quota) is handled below like any failure: rolled back, then rethrown.
        await execute(outer ? 'COMMIT' : `RELEASE ${name}`, [], false);
      } catch (error) {
        const rollback = outer ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`;
        await api.exec(db, rollback).catch(() => undefined);
        throw error;
      } finally {
        depth--;
      }
      return result;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const { stmt } of cache.values()) await api.finalize(stmt);
      cache.clear();
      await api.close(db);
    },
  };
}
