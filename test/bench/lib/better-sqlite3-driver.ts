/**
 * The driver port (src/storage/sqlite/driver.ts) over a native better-sqlite3 connection, for bench anchors that
 * run the repository's own repos and features on a native SQLite. The connection is passed in (typed by the few
 * calls used here): the repository has no type package for better-sqlite3, and the caller owns opening it.
 */
import type { Row, RunResult, SqlDriver, SqlParams, SqlValue } from '../../../src/storage/sqlite/driver';

interface NativeStatement {
  all(...params: SqlValue[]): unknown[];
  get(...params: SqlValue[]): unknown;
  run(...params: SqlValue[]): { changes: number; lastInsertRowid: number | bigint };
}

/** The part of a better-sqlite3 `Database` the adapter uses. */
export interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): unknown;
  close(): unknown;
}

/** Binds as the wa-sqlite adapter does: undefined → NULL, booleans → 0/1. */
const bind = (params: SqlParams = []): SqlValue[] =>
  params.map((v) => (v === undefined ? null : typeof v === 'boolean' ? (v ? 1 : 0) : v));

/**
 * better-sqlite3 binds `?`, not SQLite's numbered `?NNN` (which the repos use to bind one value twice): such a
 * statement is prepared with plain `?`s and its values put in their order of appearance.
 */
function numbered(sql: string): { sql: string; order: number[] | null } {
  if (!/\?\d/.test(sql)) return { sql, order: null };
  const order: number[] = [];
  const plain = sql.replace(/\?(\d+)/g, (_, n: string) => {
    order.push(Number(n) - 1);
    return '?';
  });
  return { sql: plain, order };
}

export function createBetterSqlite3Driver(db: NativeDatabase): SqlDriver {
  const statements = new Map<string, { stmt: NativeStatement; order: number[] | null }>();
  /** The prepared statement and its values as it binds them. */
  const statement = (sql: string, params?: SqlParams): [NativeStatement, SqlValue[]] => {
    let entry = statements.get(sql);
    if (!entry) {
      const { sql: text, order } = numbered(sql);
      entry = { stmt: db.prepare(text), order };
      statements.set(sql, entry);
    }
    const values = bind(params);
    return [entry.stmt, entry.order ? entry.order.map((i) => values[i] ?? null) : values];
  };
  let depth = 0;
  return {
    async all<T = Row>(sql: string, params?: SqlParams) {
      const [stmt, values] = statement(sql, params);
      return stmt.all(...values) as T[];
    },
    async get<T = Row>(sql: string, params?: SqlParams) {
      const [stmt, values] = statement(sql, params);
      return stmt.get(...values) as T | undefined;
    },
    async run(sql: string, params?: SqlParams): Promise<RunResult> {
      const [stmt, values] = statement(sql, params);
      const { changes, lastInsertRowid } = stmt.run(...values);
      return { changes, lastInsertRowid: Number(lastInsertRowid) };
    },
    async exec(sql: string) {
      db.exec(sql);
    },
    async transaction<T>(fn: () => Promise<T>): Promise<T> {
      const name = `sp${depth}`;
      db.exec(depth === 0 ? 'BEGIN' : `SAVEPOINT ${name}`);
      depth++;
      try {
        const result = await fn();
        depth--;
        db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${name}`);
        return result;
      } catch (error) {
        depth--;
        db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${name}; RELEASE ${name}`);
        throw error;
      }
    },
    async close() {
      statements.clear();
      db.close();
    },
  };
}
