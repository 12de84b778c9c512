import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { OPFSCoopSyncVFS } from '@journeyapps/wa-sqlite/src/examples/OPFSCoopSyncVFS.js';
import { BrainError } from '../../core/errors';
import { coalesceWrites, type CoalescingOptions, type CoalescingStats } from './coalescing-vfs';
import { createSqliteEngine, type SqliteEngine } from './open';

const OPFS_VFS = 'opfs-coop-sync';

export interface OpfsEngineOptions {
  /** Write coalescing (default on): false writes every page straight through, as OPFSCoopSyncVFS alone does. */
  coalesce?: boolean | CoalescingOptions;
}

/**
 * The worker's engine: agent.db is a real file at the root of the origin's OPFS. Writes to it and its journal
 * are coalesced until SQLite syncs (see coalescing-vfs.ts): each OPFS call is costly, SQLite's writes are many.
 */
export async function createOpfsSqliteEngine(
  options: OpfsEngineOptions = {},
): Promise<SqliteEngine & { readonly io: CoalescingStats | null }> {
  const module = await SQLiteESMFactory({ locateFile: () => wasmUrl });
  const vfs = await OPFSCoopSyncVFS.create(OPFS_VFS, module);
  const coalesce = options.coalesce ?? true;
  const io = coalesce === false ? null : coalesceWrites(vfs, coalesce === true ? {} : coalesce);
  const explainIo = () => {
    // The VFS keeps the exception behind its last failed call; OPFS reports a full quota as QuotaExceededError.
    const cause = (vfs as unknown as { lastError: unknown }).lastError;
    if (cause instanceof DOMException && cause.name === 'QuotaExceededError') {
      (vfs as unknown as { lastError: unknown }).lastError = null;
      return new BrainError(
        'QuotaExceeded',
        'The browser storage quota is full, so this change was not saved (nothing was half-written). Free space — ' +
          'run a cleanup, delete old sessions — or allow persistent storage, then try again.',
      );
    }
    return undefined;
  };
  return Object.assign(await createSqliteEngine(module, { vfs, storage: 'opfs', explainIo }), { io });
}

/**
 * Runs `fn` with exclusive sync access to an OPFS database file, under the same Web Lock that
 * OPFSCoopSyncVFS takes for it — so only call it while no connection has the file open.
 */
async function withFileAccess<T>(
  name: string,
  fn: (main: FileSystemSyncAccessHandle, journal: FileSystemSyncAccessHandle) => T,
): Promise<T> {
  const root = await navigator.storage.getDirectory();
  const main = await root.getFileHandle(name, { create: true });
  const journal = await root.getFileHandle(`${name}-journal`, { create: true });
  return navigator.locks.request(`ahp:/${name}`, async () => {
    const mainHandle = await main.createSyncAccessHandle();
    try {
      const journalHandle = await journal.createSyncAccessHandle();
      try {
        return fn(mainHandle, journalHandle);
      } finally {
        journalHandle.close();
      }
    } finally {
      mainHandle.close();
    }
  });
}

export function readOpfsDatabase(name: string): Promise<Uint8Array> {
  return withFileAccess(name, (main) => {
    const bytes = new Uint8Array(main.getSize());
    main.read(bytes, { at: 0 });
    return bytes;
  });
}

/** Overwrites in place (the VFS caches the file handle, so never delete) and empties any hot journal. */
export function writeOpfsDatabase(name: string, bytes: Uint8Array): Promise<void> {
  return withFileAccess(name, (main, journal) => {
    try {
      main.truncate(0);
      const written = main.write(bytes, { at: 0 });
      if (written !== bytes.byteLength)
        throw new Error(`short write: ${written} of ${bytes.byteLength} bytes`);
      main.flush();
      journal.truncate(0);
      journal.flush();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'QuotaExceededError') {
        throw new BrainError(
          'QuotaExceeded',
          'The browser storage quota is full: the database could not be written.',
        );
      }
      throw error;
    }
  });
}
