import * as SQLite from '@journeyapps/wa-sqlite';
import { MemoryVFS } from '@journeyapps/wa-sqlite/src/examples/MemoryVFS.js';
import type { SqlDriver } from '../driver';
import { ioMeter } from './io-meter';
import { setJournalMode } from '../journal-mode';
import { createWaSqliteDriver, translateSqliteError, type IoErrorExplainer } from './wa-sqlite-driver';

type SQLiteAPI = ReturnType<typeof SQLite.Factory>;

interface MemoryFile {
  pathname: string;
  flags: number;
  size: number;
  data: ArrayBuffer;
}

/** Files of the scratch in-memory VFS: where imported databases are validated before they touch agent.db. */
export interface MemoryFiles {
  put(name: string, bytes: Uint8Array): void;
  read(name: string): Uint8Array | undefined;
  remove(name: string): void;
}

/** One wasm module with its VFSs registered; opens connections on the main VFS or the scratch memory one. */
export interface SqliteEngine {
  readonly storage: 'opfs' | 'memory';
  open(filename: string, where?: 'main' | 'memory'): Promise<SqlDriver>;
  readonly memory: MemoryFiles;
}

const MEMORY_VFS = 'agent-brain-memory';
/** Page cache of every connection, in KiB. */
export const PAGE_CACHE_KIB = 32 * 1024;
/**
 * The WAL is checkpointed at idle (the engine asks, `checkpointWal`); this bounds it while the engine never is:
 * past this many pages (32 MiB at 4 KiB pages) the commit that crosses it checkpoints (SQLite's default is 1,000).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 8192;

export async function createSqliteEngine(
  module: unknown,
  main: {
    readonly vfs: { readonly name: string };
    readonly storage: 'opfs' | 'memory';
    readonly explainIo?: IoErrorExplainer;
  } | null,
): Promise<SqliteEngine> {
  const api: SQLiteAPI = SQLite.Factory(module);
  // The package types MemoryVFS without its static `create` or file map.
  const createMemoryVfs = (
    MemoryVFS as unknown as { create(name: string, module: unknown): Promise<unknown> }
  ).create;
  const memoryVfs = (await createMemoryVfs.call(MemoryVFS, MEMORY_VFS, module)) as {
    mapNameToFile: Map<string, MemoryFile>;
  };
  // Page I/O counts for progress of long statements (io-meter.ts).
  for (const vfs of [memoryVfs, main?.vfs]) if (vfs) ioMeter.attach(vfs);
  // Both VFSs are typed here only as far as this file reads them; vfs_register takes the package's whole VFS type.
  api.vfs_register(memoryVfs as never, false);
  if (main) api.vfs_register(main.vfs as never, false);
  const mainVfs = main?.vfs.name ?? MEMORY_VFS;
  const path = (name: string) => new URL(name, 'file://').pathname;

  return {
    storage: main?.storage ?? 'memory',
    async open(filename, where = 'main') {
      let db: number;
      try {
        db = await api.open_v2(
          filename,
          SQLite.SQLITE_OPEN_READWRITE | SQLite.SQLITE_OPEN_CREATE,
          where === 'main' ? mainVfs : MEMORY_VFS,
        );
      } catch (error) {
        throw translateSqliteError(error);
      }
      const driver = createWaSqliteDriver(api, db, where === 'main' ? main?.explainIo : undefined, module);
      try {
        // temp_store = MEMORY: statement journals (triggers, multi-row changes) need no durability; on OPFS they
        // cost thousands of calls a transaction. cache_size: 32 MiB (SQLite's default is 2 MiB) keeps a search
        // index's and the checkpoint store's hot pages resident, as every page fetched again is an OPFS read;
        // set here because export/import replaces the connection. It is a ceiling, allocated as pages are used.
        // locking_mode = EXCLUSIVE: one connection per database (the worker's owner Web Lock), so the file lock
        // is taken once and kept until close — no revalidation (header read, size) before every transaction.
        // It comes first: WAL needs it set before SQLite first reads the file (the journal_mode below does).
        await driver.exec(
          'PRAGMA locking_mode = EXCLUSIVE; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY; ' +
            `PRAGMA cache_size = -${PAGE_CACHE_KIB};`,
        );
        // Journal. On OPFS: WAL, so a commit is one sequential append to `<name>-wal` (one OPFS write with the
        // coalescing VFS) instead of a rollback journal and every changed page written in place; the pages reach
        // the database at a WAL checkpoint — at idle (`checkpointWal`) or past WAL_AUTOCHECKPOINT_PAGES.
        // OPFSCoopSyncVFS has no shared-memory methods: WAL works only because locking_mode = EXCLUSIVE came first
        // (SQLite then keeps the wal-index in heap memory), and only for one connection — which the owner lock
        // guarantees.
        // Memory-VFS databases (import candidates, Node tests) stay in DELETE mode: nothing to gain there, and
        // an import candidate's bytes are read as one whole file (`MemoryFiles.read`), which WAL would split.
        // synchronous = FULL: the WAL (or the journal) is synced at every commit, so a commit is durable at once.
        const wal = where === 'main' && main?.storage === 'opfs';
        if (wal && (await driver.get<{ page_count: number }>('PRAGMA page_count'))?.page_count === 0) {
          // A new file: switching it to WAL writes its first page, which fixes auto_vacuum for good — so the
          // setting migrate.ts gives every new database (INCREMENTAL) is given here first.
          await driver.exec('PRAGMA auto_vacuum = INCREMENTAL');
        }
        await setJournalMode(driver, wal ? 'WAL' : 'DELETE', filename);
        await driver.exec(
          `PRAGMA synchronous = FULL;${wal ? ` PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES};` : ''}`,
        );
      } catch (error) {
        await driver.close().catch(() => undefined);
        throw error;
      }
      return driver;
    },
    memory: {
      put(name, bytes) {
        const data = new ArrayBuffer(bytes.byteLength);
        new Uint8Array(data).set(bytes);
        const flags = SQLite.SQLITE_OPEN_MAIN_DB | SQLite.SQLITE_OPEN_READWRITE | SQLite.SQLITE_OPEN_CREATE;
        memoryVfs.mapNameToFile.set(path(name), {
          pathname: path(name),
          flags,
          size: bytes.byteLength,
          data,
        });
      },
      read(name) {
        const file = memoryVfs.mapNameToFile.get(path(name));
        return file ? new Uint8Array(file.data, 0, file.size).slice() : undefined;
      },
      remove(name) {
        memoryVfs.mapNameToFile.delete(path(name));
        memoryVfs.mapNameToFile.delete(path(`${name}-journal`));
      },
    },
  };
}
