/**
 * Whole-file access to OPFS database files while no connection has them open: the sync access handles of the
 * database, its write-ahead log and its rollback journal under the VFS's own Web Lock (the files OPFSCoopSyncVFS
 * opens together), and the small helpers the install uses around them.
 */
import { BrainError } from '../../../core/errors';
import { writeAllSync } from './sync-write';

/**
 * What a whole-file access may touch: the database, its WAL and journal, and the install's candidate and commit
 * record. The WAL is empty after a clean close (SQLite checkpoints it and truncates it); frames in it are committed
 * transactions the database file does not hold yet.
 */
export interface FileHandles {
  readonly main: FileSystemSyncAccessHandle;
  readonly wal: FileSystemSyncAccessHandle;
  readonly journal: FileSystemSyncAccessHandle;
  readonly root: FileSystemDirectoryHandle;
}

/**
 * Runs `fn` with exclusive sync access to an OPFS database file, under the same Web Lock that
 * OPFSCoopSyncVFS takes for it — so only call it while no connection has the file open.
 */
export async function withFileAccess<T>(
  name: string,
  fn: (files: FileHandles) => T | Promise<T>,
): Promise<T> {
  const root = await navigator.storage.getDirectory();
  const [main, wal, journal] = await Promise.all(
    ['', '-wal', '-journal'].map((suffix) => root.getFileHandle(name + suffix, { create: true })),
  );
  return navigator.locks.request(`ahp:/${name}`, async () => {
    const handles: FileSystemSyncAccessHandle[] = [];
    try {
      for (const file of [main!, wal!, journal!]) handles.push(await file.createSyncAccessHandle());
      const [mainHandle, walHandle, journalHandle] = handles;
      return await fn({ main: mainHandle!, wal: walHandle!, journal: journalHandle!, root });
    } finally {
      for (const handle of handles) handle.close();
    }
  });
}

/**
 * Refuses to go on while the WAL holds frames: the database file alone would miss committed transactions (a
 * read), or have them replayed onto other bytes at the next open (an install). Never the case after a clean
 * close, which empties the log (database.ts `whileClosed` checkpoints first and says so if it cannot).
 */
export function assertWalEmpty(files: FileHandles, name: string, what: string): void {
  const size = files.wal.getSize();
  if (size > 0) {
    throw new BrainError(
      'Internal',
      `${name} cannot be ${what}: its write-ahead log (${name}-wal) still holds ${size} bytes of transactions not yet in the file. Reopen the brain (that copies them in) and try again.`,
    );
  }
}

export const quotaError = (what: string) =>
  new BrainError(
    'QuotaExceeded',
    `The browser storage quota is full: ${what}. The current brain is as it was. Free space (run a cleanup, delete old sessions or projects) or allow persistent storage, then try again.`,
  );

export function translateWriteError(error: unknown, what: string): unknown {
  if (error instanceof DOMException && error.name === 'QuotaExceededError') return quotaError(what);
  return error;
}

export async function removeEntry(
  root: FileSystemDirectoryHandle,
  name: string,
  recursive = false,
): Promise<void> {
  await root.removeEntry(name, { recursive }).catch((error: unknown) => {
    if (!(error instanceof DOMException && error.name === 'NotFoundError')) throw error;
  });
}

export async function writeWhole(
  root: FileSystemDirectoryHandle,
  name: string,
  bytes: Uint8Array,
): Promise<void> {
  const handle = await (await root.getFileHandle(name, { create: true })).createSyncAccessHandle();
  try {
    handle.truncate(0);
    writeAllSync(handle, bytes, 0);
    handle.flush();
  } finally {
    handle.close();
  }
}

export async function readWhole(root: FileSystemDirectoryHandle, name: string): Promise<Uint8Array | null> {
  let handle: FileSystemSyncAccessHandle;
  try {
    handle = await (await root.getFileHandle(name)).createSyncAccessHandle();
  } catch (error) {
    if (
      error instanceof DOMException &&
      (error.name === 'NotFoundError' || error.name === 'TypeMismatchError')
    )
      return null;
    throw error;
  }
  try {
    const bytes = new Uint8Array(handle.getSize());
    handle.read(bytes, { at: 0 });
    return bytes;
  } finally {
    handle.close();
  }
}
