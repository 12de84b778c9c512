/**
 * SQLite on the test page itself (wa-sqlite's memory VFS, no OPFS): to craft databases the engine must refuse or
 * accept — planted triggers and views, missing tables, WAL headers, bad JSON — from a brain's own export.
 */
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { createSqliteEngine, type SqliteEngine } from '../../src/storage/sqlite/open';

let engine: Promise<SqliteEngine> | undefined;
let counter = 0;

/** Runs `sql` on a copy of the database `bytes` and returns the changed file. */
export async function alterDatabase(bytes: Uint8Array, sql: string): Promise<Uint8Array> {
  engine ??= SQLiteESMFactory({ locateFile: () => wasmUrl }).then((module) =>
    createSqliteEngine(module, null),
  );
  const sqlite = await engine;
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
