/**
 * The import section's engine anchor: the same parse and the same inserts as `importTranscript` in the page — the
 * engine's own code (createBrainApi: the importers, the tool-call recorder, the repositories, agent.db's schema
 * as migrated) — on a native SQLite (better-sqlite3 through the driver port) in Node, with no worker, wasm or
 * OPFS. The transcript is a file-backed Blob (`fs.openAsBlob`), read in the same slices; its file-history
 * backups are Blobs, as the page gives them. What the browser stack costs on top of the engine's work is the
 * page's MB/s against this one's. Loaded with Vite's `runnerImport`.
 */
import { openAsBlob, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { createBrainApi } from '../../../src/engine/create-engine';
import { readAheadWith, type ReaderPort, type ReaderThread } from '../../../src/engine/importers/read-ahead';
import type { Database } from '../../../src/storage/sqlite/database';
import { migrate } from '../../../src/storage/sqlite/migrate';
import { PAGE_CACHE_KIB } from '../../../src/storage/sqlite/vfs/open';
import { createBetterSqlite3Driver, type NativeDatabase } from './better-sqlite3-driver';

export interface EngineAnchorResult {
  readonly seconds: number;
  readonly mbPerSecond: number;
  readonly toolCalls: number;
  readonly instructions: number;
  readonly sqliteVersion: string;
}

const unused = (what: string) => () => Promise.reject(new Error(`The import anchor does not ${what}.`));

/** A file of the import: a transcript on disk (read as a file-backed Blob), or a small one in memory (a backup). */
export type AnchorFile = { readonly name: string } & ({ readonly path: string } | { readonly text: string });

/** The line reader on a worker_thread, started and ready (its module loaded) before the import is timed. */
async function startReaderThread(): Promise<ReaderThread> {
  const worker = new Worker(new URL('./read-ahead-thread.mjs', import.meta.url));
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const port: ReaderPort = {
    postMessage: (message, transfer) => worker.postMessage(message, transfer as never),
    onmessage: null,
  };
  worker.on('message', (data: unknown) => port.onmessage?.({ data } as MessageEvent));
  return {
    port,
    onFailure: (listener) => worker.on('error', (e) => listener(e.message)),
    terminate: () => void worker.terminate(),
  };
}

/**
 * Imports `files` (named as the page names them) into a new agent.db on `db`; closes it. `twoThreads`: the
 * transcript read by the engine's line reader on a worker_thread, as the page reads it on a second worker (the
 * transcript then in memory: Node does not clone a file-backed Blob to another thread).
 */
export async function engineImportAnchor(
  db: NativeDatabase,
  files: readonly AnchorFile[],
  { twoThreads = false }: { readonly twoThreads?: boolean } = {},
): Promise<EngineAnchorResult> {
  const driver = createBetterSqlite3Driver(db);
  let reader: ReaderThread | null = null;
  try {
    // The connection settings open.ts gives the engine's connection (journal and sync as on OPFS).
    await driver.exec(
      'PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; ' +
        `PRAGMA temp_store = MEMORY; PRAGMA cache_size = -${PAGE_CACHE_KIB}; PRAGMA locking_mode = EXCLUSIVE;`,
    );
    const { version } = await migrate(driver);
    const database: Database = {
      name: 'agent.db',
      driver,
      schemaVersion: version,
      exportBytes: unused('export'),
      importBytes: unused('import databases'),
      pendingFiles: async () => null,
      finishInstall: async () => undefined,
      validateImport: unused('validate databases'),
      close: () => driver.close(),
    };
    reader = twoThreads ? await startReaderThread() : null;
    let toStart = reader;
    const api = createBrainApi({
      database,
      storage: 'memory',
      lifecycle: { enabled: false },
      // One transcript, one reader (the backups are not read line by line).
      ...(reader
        ? {
            readAhead: readAheadWith(() => {
              const started = toStart;
              toStart = null;
              return started;
            }),
          }
        : {}),
    });
    const input = await Promise.all(
      files.map(async (f) => ({
        name: f.name,
        data:
          'path' in f
            ? twoThreads
              ? new Blob([readFileSync(f.path)])
              : await openAsBlob(f.path)
            : new Blob([f.text]),
      })),
    );
    // MB/s of the transcript (the first file), as the page counts it; the backups ride along.
    const bytes = input[0]?.data.size ?? 0;
    const started = performance.now();
    const result = await api.importTranscript({ files: input });
    // As the page: timed until the steps indexed just behind the import are (a search catches up first).
    await api.searchHistory('bench');
    const seconds = (performance.now() - started) / 1000;
    const session = result.sessions[0];
    if (!session) throw new Error(`The anchor imported no session from ${files[0]?.name}.`);
    const row = await driver.get<{ v: string }>('SELECT sqlite_version() AS v');
    return {
      seconds,
      mbPerSecond: bytes / 1e6 / seconds,
      toolCalls: session.added.toolCalls,
      instructions: session.added.instructions,
      sqliteVersion: row?.v ?? '?',
    };
  } finally {
    reader?.terminate();
    await driver.close();
  }
}
