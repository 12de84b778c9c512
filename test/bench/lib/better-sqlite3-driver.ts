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

export function createBetterSqlite3Driver(db: NativeDatabase): SqlDriver {
  const statements = new Map<string, NativeStatement>();
  const statement = (sql: string) => {
    let stmt = statements.get(sql);
    if (!stmt) statements.set(sql, (stmt = db.prepare(sql)));
    return stmt;
  };
  let depth = 0;
  return {
    async all<T = Row>(sql: string, params?: SqlParams) {
      return statement(sql).all(...bind(params)) as T[];
    },
    async get<T = Row>(sql: string, params?: SqlParams) {
      return statement(sql).get(...bind(params)) as T | undefined;
    },
    async run(sql: string, params?: SqlParams): Promise<RunResult> {
      const { changes, lastInsertRowid } = statement(sql).run(...bind(params));
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
