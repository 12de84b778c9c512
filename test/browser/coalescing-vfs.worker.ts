/// <reference lib="webworker" />
/**
 * Test worker for coalescing-vfs.test.ts: the production OPFS engine (createOpfsSqliteEngine) with or without
 * write coalescing, driven over Comlink so a test can run SQL, read the layer's counters and terminate the worker
 * in the middle of a transaction.
 */
import * as Comlink from 'comlink';
import type { SqlDriver, SqlParams } from '../../src/storage/sqlite/driver';
import {
  createOpfsSqliteEngine,
  installOpfsDatabase,
  readOpfsDatabase,
} from '../../src/storage/sqlite/vfs/opfs';
import { createRandom } from '../helpers/random';

let engine: Awaited<ReturnType<typeof createOpfsSqliteEngine>> | undefined;

// Every OPFS read() in this worker, counted (what read-ahead saves is calls, not bytes).
let opfsReads = 0;
const nativeRead = FileSystemSyncAccessHandle.prototype.read;
FileSystemSyncAccessHandle.prototype.read = function (...args: Parameters<typeof nativeRead>) {
  opfsReads++;
  return nativeRead.apply(this, args);
};
let db: SqlDriver | undefined;

const connection = (): SqlDriver => {
  if (!db) throw new Error('open() first');
  return db;
};

/** Deterministic bytes (the low byte of each xorshift32 output) so two workers can produce the same database. */
export function bytes(seed: number, length: number): Uint8Array {
  const random = createRandom(seed, 'xorshift32');
  return Uint8Array.from({ length }, () => random.uint32() & 0xff);
}

function plain(error: unknown) {
  const e = error as { code?: unknown; message?: unknown; name?: unknown };
  return { code: String(e.code ?? e.name ?? 'Error'), message: String(e.message ?? error) };
}

const api = {
  async open(
    name: string,
    options: { coalesce: boolean; maxBufferedBytes?: number; walReadAhead?: false; mainReadAhead?: false },
  ): Promise<void> {
    engine ??= await createOpfsSqliteEngine({
      coalesce:
        options.coalesce &&
        (options.maxBufferedBytes === undefined &&
        options.walReadAhead === undefined &&
        options.mainReadAhead === undefined
          ? true
          : {
              ...(options.maxBufferedBytes === undefined
                ? {}
                : { maxBufferedBytes: options.maxBufferedBytes }),
              ...(options.walReadAhead === undefined ? {} : { walReadAhead: options.walReadAhead }),
              ...(options.mainReadAhead === undefined ? {} : { mainReadAhead: options.mainReadAhead }),
            }),
    });
    db = await engine.open(name);
  },
  async close(): Promise<void> {
    await db?.close();
    db = undefined;
  },
  stats() {
    return engine?.io ? { ...engine.io } : null;
  },
  /** OPFS `read()` calls made in this worker so far. */
  opfsReads: () => opfsReads,
  /** The whole-file port of the brain (while no connection is open): its error as plain data, or null. */
  async install(name: string, bytes: Uint8Array): Promise<{ code: string; message: string } | null> {
    return installOpfsDatabase(name, bytes).then(() => null, plain);
  },
  async read(name: string): Promise<Uint8Array | { code: string; message: string }> {
    return readOpfsDatabase(name).catch(plain);
  },
  exec: (sql: string) => connection().exec(sql),
  all: (sql: string, params?: SqlParams) => connection().all(sql, params),
  run: (sql: string, params?: SqlParams) => connection().run(sql, params),

  /** Runs `sql` and returns the error it raised as plain data (code from BrainError), or null. */
  async tryExec(sql: string): Promise<{ code: string; message: string } | null> {
    try {
      await connection().exec(sql);
      return null;
    } catch (error) {
      return plain(error);
    }
  },

  /**
   * Inserts rows `from`..`from + count - 1` of deterministic bytes (`size` each, or 1–21 KB by id) into
   * blobs(id, data) and counts them in meta, in one transaction. Returns the error it raised as plain data
   * (the BrainError's code), or null.
   */
  async insertBlobs(
    from: number,
    count: number,
    size?: number,
  ): Promise<{ code: string; message: string } | null> {
    const d = connection();
    try {
      await d.transaction(async () => {
        await api.insertRows(from, count, size);
        await d.run('UPDATE meta SET value = value + ? WHERE key = ?', [count, 'inserted']);
      });
      return null;
    } catch (error) {
      return plain(error);
    }
  },

  /** The rows of insertBlobs alone, in whatever transaction is open. */
  async insertRows(from: number, count: number, size?: number): Promise<void> {
    for (let i = from; i < from + count; i++) {
      await connection().run('INSERT INTO blobs (id, data) VALUES (?, ?)', [
        i,
        bytes(i, size ?? 1000 + ((i * 7919) % 20000)),
      ]);
    }
  },

  /**
   * Opens a transaction and inserts rows without end, posting `progress` (rows so far) after each `signalEvery`
   * rows: the test terminates the worker at some point of it. Never commits.
   */
  async endlessTransaction(from: number, rowBytes: number, signalEvery: number): Promise<void> {
    const d = connection();
    await d.exec('BEGIN IMMEDIATE');
    for (let i = from; ; i++) {
      await d.run('INSERT INTO blobs (id, data) VALUES (?, ?)', [i, bytes(i, rowBytes)]);
      await d.run('UPDATE meta SET value = value + 1 WHERE key = ?', ['inserted']);
      if ((i - from + 1) % signalEvery === 0) postMessage({ progress: i - from + 1 });
    }
  },

  /** Inserts `count` rows in one transaction, posting `committing` right before COMMIT (the test then terminates). */
  async bigCommit(from: number, count: number, rowBytes: number): Promise<void> {
    const d = connection();
    await d.exec('BEGIN IMMEDIATE');
    for (let i = from; i < from + count; i++) {
      await d.run('INSERT INTO blobs (id, data) VALUES (?, ?)', [i, bytes(i, rowBytes)]);
    }
    await d.run('UPDATE meta SET value = value + ? WHERE key = ?', [count, 'inserted']);
    postMessage({ committing: true });
    await d.exec('COMMIT');
    postMessage({ committed: true });
  },

  /** Checks every row of blobs against the deterministic bytes it was written with. */
  async verifyBlobs(): Promise<{ rows: number; wrong: number[] }> {
    const rows = await connection().all<{ id: number; data: Uint8Array }>(
      'SELECT id, data FROM blobs ORDER BY id',
    );
    const wrong = rows
      .filter((row) => !same(row.data, bytes(row.id, row.data.byteLength)))
      .map((row) => row.id);
    return { rows: rows.length, wrong };
  },
};

function same(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

export type CoalescingWorkerApi = typeof api;
Comlink.expose(api);
