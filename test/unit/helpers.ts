import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createMemorySqliteEngine } from '../../src/storage/sqlite/vfs/memory';
import type { SqliteEngine } from '../../src/storage/sqlite/vfs/open';

let engine: Promise<SqliteEngine> | undefined;
let counter = 0;

/** A real wa-sqlite (the same wasm as the browser build) on an in-memory VFS. */
export function memoryEngine(): Promise<SqliteEngine> {
  engine ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = require.resolve('@journeyapps/wa-sqlite/dist/wa-sqlite.wasm');
    return createMemorySqliteEngine(await readFile(wasmPath));
  })();
  return engine;
}

/** A fresh, empty database of its own. */
export async function freshDb() {
  return (await memoryEngine()).open(`test-${++counter}.db`);
}
