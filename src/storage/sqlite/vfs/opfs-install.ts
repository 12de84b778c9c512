/**
 * Replacing an OPFS database file so that a kill at any instant leaves the old file or the new one, whole — with
 * any files that belong to the same import staged in the same commit. See `installOpfsDatabase`.
 */
import { BrainError } from '../../../core/errors';
import { sha256, toHex } from '../../blobs/sha256';
import type { StagedFiles } from '../database';
import {
  assertWalEmpty,
  quotaError,
  readWhole,
  removeEntry,
  translateWriteError,
  withFileAccess,
  writeWhole,
  type FileHandles,
} from './opfs-files';
import { writeAllSync } from './sync-write';

const candidateName = (name: string) => `${name}-install`;
const commitName = (name: string) => `${name}-install.commit`;
const stagingName = (name: string) => `${name}-install.files`;

interface InstallCommit {
  readonly kind: 'agent-brain-install';
  readonly bytes: number;
  readonly sha256: string;
  /** Staged files to write into the project once the database is in place (absent: none). */
  readonly files?: {
    readonly project: StagedFiles['project'];
    readonly entries: readonly { readonly path: string; readonly bytes: number; readonly sha256: string }[];
  };
}

/**
 * Copies the committed candidate over the database in place (the VFS caches the handle: never delete it). The WAL
 * and the journal are emptied first, and flushed before the first new byte: frames or a journal of the old
 * database replayed onto the new file at the next open would corrupt it. (Both are empty here anyway — the install
 * refuses to start otherwise — but a repeat after a kill, `recoverOpfsInstall`, must not depend on it.)
 */
function overwrite(files: FileHandles, bytes: Uint8Array): void {
  for (const log of [files.wal, files.journal]) {
    log.truncate(0);
    log.flush();
  }
  writeAllSync(files.main, bytes, 0);
  files.main.truncate(bytes.byteLength);
  files.main.flush();
}

/** The database's own size from its header (pages × page size), when the header says it reliably. */
function headerSize(main: FileSystemSyncAccessHandle): number | null {
  const header = new Uint8Array(100);
  if (main.read(header, { at: 0 }) < 100) return null;
  const view = new DataView(header.buffer);
  const raw = view.getUint16(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = view.getUint32(28);
  // Valid only when the "version-valid-for" number equals the change counter (SQLite's own rule).
  if (pages === 0 || view.getUint32(92) !== view.getUint32(24)) return null;
  return pages * pageSize;
}

async function readCommit(root: FileSystemDirectoryHandle, name: string): Promise<InstallCommit | null> {
  const raw = await readWhole(root, commitName(name));
  if (!raw) return null;
  try {
    const commit = JSON.parse(new TextDecoder().decode(raw)) as InstallCommit;
    return commit?.kind === 'agent-brain-install' && typeof commit.bytes === 'number' ? commit : null;
  } catch {
    return null; // torn while being written: the install never committed
  }
}

async function stageFiles(root: FileSystemDirectoryHandle, name: string, staged: StagedFiles) {
  await removeEntry(root, stagingName(name), true);
  const dir = await root.getDirectoryHandle(stagingName(name), { create: true });
  const entries = [];
  for (const [index, file] of staged.files.entries()) {
    await writeWhole(dir, String(index), file.bytes);
    entries.push({ path: file.path, bytes: file.bytes.byteLength, sha256: toHex(await sha256(file.bytes)) });
  }
  return { project: staged.project, entries };
}

/**
 * Replaces an OPFS database file in one step that survives a kill at any instant — a redo log of one record:
 * 1. the new bytes are written beside the database (`<name>-install`), with any files that belong to the same
 *    install (`<name>-install.files/`), and flushed; the database grows first to the new size if it must (so the
 *    copy later cannot run out of room);
 * 2. a small commit record (`<name>-install.commit`: sizes and SHA-256s) is written: the commit point;
 * 3. the candidate is copied over the database in place and removed. The record stays while staged files are
 *    pending: the caller writes them into their project and then calls `finishOpfsInstall`.
 * Killed before 2, the old database is whole and the candidate is discarded at the next open; killed after, the
 * next open (`recoverOpfsInstall`) repeats 3 and reports the files still pending. Room is checked first (`free`,
 * from the storage estimate): the candidate, the files and any growth must fit while the current database still
 * exists. Only call while no connection has the file open.
 * The WAL must be empty when it starts (`assertWalEmpty`; a clean close leaves it so): the old database is then the
 * file alone, which a discard keeps whole, and 3 truncates the WAL (and journal) before it writes the new bytes, so
 * no frame of the old database can ever be replayed onto the new one. Nothing writes the WAL between the commit
 * point and the next open: recovery runs before any connection.
 */
export function installOpfsDatabase(
  name: string,
  bytes: Uint8Array,
  options: { readonly free?: () => Promise<number | null>; readonly files?: StagedFiles } = {},
): Promise<void> {
  return withFileAccess(name, async (files) => {
    const { root, main } = files;
    assertWalEmpty(files, name, 'replaced');
    const oldSize = main.getSize();
    const growth = Math.max(0, bytes.byteLength - oldSize);
    const staged = options.files?.files.reduce((sum, f) => sum + f.bytes.byteLength, 0) ?? 0;
    const need = bytes.byteLength + growth + staged + 1024 * 1024;
    const free = (await options.free?.()) ?? null;
    if (free !== null && need > free) {
      throw quotaError(
        `importing needs ${need} bytes free beside the current brain (${bytes.byteLength} for the database), and ${Math.max(0, free)} are`,
      );
    }
    const undo = async () => {
      await removeEntry(root, commitName(name));
      if (growth > 0) main.truncate(oldSize);
      await removeEntry(root, candidateName(name));
      await removeEntry(root, stagingName(name), true);
    };
    let commit: InstallCommit;
    try {
      const hash = toHex(await sha256(bytes));
      await writeWhole(root, candidateName(name), bytes);
      const filesRecord = options.files ? await stageFiles(root, name, options.files) : undefined;
      if (growth > 0) {
        main.truncate(bytes.byteLength);
        main.flush();
      }
      commit = {
        kind: 'agent-brain-install',
        bytes: bytes.byteLength,
        sha256: hash,
        ...(filesRecord ? { files: filesRecord } : {}),
      };
      await writeWhole(root, commitName(name), new TextEncoder().encode(JSON.stringify(commit)));
    } catch (error) {
      await undo().catch(() => undefined);
      throw translateWriteError(error, 'the new brain could not be written beside the current one');
    }
    overwrite(files, bytes);
    await removeEntry(root, candidateName(name));
    if (!commit.files) await removeEntry(root, commitName(name));
  });
}

/** The staged files of a committed install still to be written into their project (null when none are). */
export async function pendingOpfsFiles(name: string): Promise<StagedFiles | null> {
  const root = await navigator.storage.getDirectory();
  const commit = await readCommit(root, name);
  if (!commit?.files) return null;
  const dir = await root.getDirectoryHandle(stagingName(name)).catch(() => null);
  if (!dir) return null;
  const files = [];
  for (const [index, entry] of commit.files.entries.entries()) {
    const bytes = await readWhole(dir, String(index));
    if (!bytes || bytes.byteLength !== entry.bytes || toHex(await sha256(bytes)) !== entry.sha256) {
      throw new BrainError(
        'CorruptDatabase',
        `The import's staged copy of ${entry.path} is damaged; the database was imported, its .agent files were not.`,
      );
    }
    files.push({ path: entry.path, bytes });
  }
  return { project: commit.files.project, files };
}

/** Ends an install whose staged files have been written: the commit record and the staging go. */
export async function finishOpfsInstall(name: string): Promise<void> {
  const root = await navigator.storage.getDirectory();
  await removeEntry(root, commitName(name));
  await removeEntry(root, stagingName(name), true);
}

/**
 * Before a database opens: finishes an install a kill interrupted after its commit point, or discards one that
 * never committed (restoring the old file's exact size if it had grown). Returns what it did; staged files still
 * pending are then `pendingOpfsFiles`. Nothing to do is the common case and costs three lookups.
 */
export async function recoverOpfsInstall(name: string): Promise<'none' | 'completed' | 'discarded'> {
  const root = await navigator.storage.getDirectory();
  const present = (file: string, dir = false) =>
    (dir ? root.getDirectoryHandle(file) : root.getFileHandle(file)).then(
      () => true,
      () => false,
    );
  const [committed, candidate, staging] = await Promise.all([
    present(commitName(name)),
    present(candidateName(name)),
    present(stagingName(name), true),
  ]);
  if (!committed && !candidate && !staging) return 'none';
  return withFileAccess(name, async (files) => {
    const commit = await readCommit(root, name);
    if (commit) {
      const bytes = await readWhole(root, candidateName(name));
      // No candidate: it was removed after its copy was in place.
      if (bytes && bytes.byteLength === commit.bytes && toHex(await sha256(bytes)) === commit.sha256)
        overwrite(files, bytes);
      await removeEntry(root, candidateName(name));
      if (!commit.files) await removeEntry(root, commitName(name));
      return 'completed';
    }
    const size = headerSize(files.main);
    if (size !== null && files.main.getSize() > size) files.main.truncate(size);
    await removeEntry(root, commitName(name));
    await removeEntry(root, candidateName(name));
    await removeEntry(root, stagingName(name), true);
    return 'discarded';
  });
}
