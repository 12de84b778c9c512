import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { OPFSCoopSyncVFS } from '@journeyapps/wa-sqlite/src/examples/OPFSCoopSyncVFS.js';
import { BrainError } from '../../../core/errors';
import { coalesceWrites, type CoalescingOptions, type CoalescingStats } from './coalescing-vfs';
import { assertWalEmpty, translateWriteError, withFileAccess } from './opfs-files';
import { createSqliteEngine, type SqliteEngine } from './open';

export { finishOpfsInstall, installOpfsDatabase, pendingOpfsFiles, recoverOpfsInstall } from './opfs-install';

const OPFS_VFS = 'opfs-coop-sync';

export interface OpfsEngineOptions {
  /** Write coalescing (default on): false writes every page straight through, as OPFSCoopSyncVFS alone does. */
  coalesce?: boolean | CoalescingOptions;
}

/**
 * The worker's engine: agent.db is a real file at the root of the origin's OPFS, in WAL mode (open.ts). Writes to
 * it and its WAL are coalesced until SQLite syncs (see coalescing-vfs.ts): each OPFS call is costly, SQLite's
 * writes are many.
 */
export async function createOpfsSqliteEngine(
  options: OpfsEngineOptions = {},
): Promise<SqliteEngine & { readonly io: CoalescingStats | null }> {
  const module = await SQLiteESMFactory({ locateFile: () => wasmUrl });
  const vfs = await OPFSCoopSyncVFS.create(OPFS_VFS, module);
  const coalesce = options.coalesce ?? true;
  const io = coalesce === false ? null : coalesceWrites(vfs, coalesce === true ? {} : coalesce);
  const explainIo = () => {
    // The VFS keeps the exception behind its last failed call (a field the package's types leave out); OPFS
    // reports a full quota as QuotaExceededError.
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

/** The database file's bytes, while no connection has it open; refused while its WAL holds frames. */
export function readOpfsDatabase(name: string): Promise<Uint8Array> {
  return withFileAccess(name, (files) => {
    assertWalEmpty(files, name, 'read as one file');
    const bytes = new Uint8Array(files.main.getSize());
    files.main.read(bytes, { at: 0 });
    return bytes;
  });
}

/**
 * The byte size of an OPFS database file, or null when there is none (opening would create an empty one). The
 * WAL beside it is not counted: a database this engine opened is never empty with its pages only in the log (the
 * open checkpoints after migrating, database.ts).
 */
export async function opfsDatabaseSize(name: string): Promise<number | null> {
  const root = await navigator.storage.getDirectory();
  try {
    const file = await (await root.getFileHandle(name)).getFile();
    return file.size;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return null;
    throw error;
  }
}

const markerName = (name: string) => `${name}.brain`;

/** The record that a brain is kept in `name`: written at its first open, so a later empty file is not a new brain. */
export interface BrainMarker {
  readonly kind: 'agent-brain';
  readonly createdAt: number;
}

export async function readBrainMarker(name: string): Promise<BrainMarker | null> {
  const root = await navigator.storage.getDirectory();
  let file: File;
  try {
    file = await (await root.getFileHandle(markerName(name))).getFile();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return null;
    throw error;
  }
  try {
    const marker = JSON.parse(await file.text()) as BrainMarker;
    return marker?.kind === 'agent-brain' && typeof marker.createdAt === 'number' ? marker : null;
  } catch {
    return null;
  }
}

export async function writeBrainMarker(name: string, marker: BrainMarker): Promise<void> {
  const root = await navigator.storage.getDirectory();
  const handle = await root.getFileHandle(markerName(name), { create: true });
  const writable = await handle.createWritable();
  try {
    await writable.write(JSON.stringify(marker));
    await writable.close();
  } catch (error) {
    await writable.abort().catch(() => undefined);
    throw translateWriteError(error, 'the brain could not be recorded');
  }
}
