import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import { createSqliteEngine, type SqliteEngine } from './open';

/**
 * The same wasm build with only the in-memory VFS: for Node tests and scratch databases. The caller passes the
 * wasm bytes (Node reads them from node_modules).
 */
export async function createMemorySqliteEngine(wasmBinary: ArrayBuffer | Uint8Array): Promise<SqliteEngine> {
  const module = await SQLiteESMFactory({ wasmBinary });
  return createSqliteEngine(module, null);
}
