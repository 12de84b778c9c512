/**
 * SQLite on the test page itself (wa-sqlite's memory VFS, no OPFS): to craft databases the engine must refuse or
 * accept — planted triggers and views, missing tables, WAL headers, bad JSON — from a brain's own export.
 */
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { createSqliteEngine, type SqliteEngine } from '../../src/storage/sqlite/vfs/open';

let engine: Promise<SqliteEngine> | undefined;
let counter = 0;

function pageEngine(): Promise<SqliteEngine> {
  engine ??= SQLiteESMFactory({ locateFile: () => wasmUrl }).then((module) =>
    createSqliteEngine(module, null),
  );
  return engine;
}

/**
 * SQLite's `PRAGMA integrity_check` of a database file's bytes, run in memory on the page: the same check as the
 * engine's `integrityCheck()`, without reading a large file page by page through OPFS (slow in a test browser's
 * off-the-record profile).
 */
export async function integrityOf(bytes: Uint8Array): Promise<string[]> {
  const sqlite = await pageEngine();
  const name = `page-${++counter}.db`;
  sqlite.memory.put(name, bytes);
  try {
    const db = await sqlite.open(name, 'memory');
    try {
      return (await db.all<{ integrity_check: string }>('PRAGMA integrity_check')).map(
        (r) => r.integrity_check,
      );
    } finally {
      await db.close();
    }
  } finally {
    sqlite.memory.remove(name);
  }
}

/** Runs `sql` on a copy of the database `bytes` and returns the changed file. */
export async function alterDatabase(bytes: Uint8Array, sql: string): Promise<Uint8Array> {
  const sqlite = await pageEngine();
  const name = `page-${++counter}.db`;
  sqlite.memory.put(name, bytes);
  try {
    const db = await sqlite.open(name, 'memory');
    try {
      await db.exec(sql);
    } finally {
      await db.close();
    }
    const out = sqlite.memory.read(name);
    if (!out) throw new Error('The altered database vanished.');
    return out;
  } finally {
    sqlite.memory.remove(name);
  }
}

/** Runs a query on a copy of the database `bytes` (read only) and returns its rows. */
export async function queryOf<T>(bytes: Uint8Array, sql: string): Promise<T[]> {
  const sqlite = await pageEngine();
  const name = `page-${++counter}.db`;
  sqlite.memory.put(name, bytes.slice());
  try {
    const db = await sqlite.open(name, 'memory');
    try {
      return await db.all<T>(sql);
    } finally {
      await db.close();
    }
  } finally {
    sqlite.memory.remove(name);
  }
}
