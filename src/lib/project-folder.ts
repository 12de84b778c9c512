/**
 * Main-thread helpers for choosing a project folder. The picker and permission prompts need a user gesture and a
 * window, so they cannot run in the worker: the UI calls these from a click and passes the handle (or the files)
 * to the brain (`openProject({ kind: 'handle', handle })`, `importFolderFiles(files, { name })`).
 *
 * - Chromium: `pickProjectFolder()` opens the picker (read-write) and remembers the handle in IndexedDB. After a
 *   reload, `rememberedProjectFolder()` returns it with its permission state; when that is `prompt`, show an
 *   "Allow access to <name>" button whose click calls `requestProjectFolderAccess(handle)`.
 * - Other browsers: an `<input type="file" webkitdirectory>` or a drop gives files; `filesFromFileList` /
 *   `filesFromDataTransfer` turn them into project-relative `{ path, data }` for `importFolderFiles`.
 */
import { BrainError } from '../core/errors';
import type { ProjectFileInput } from '../core/api/project';
import { skippedDirectoryNames, splitSkipped, type SkippedFolder } from '../core/formats/skipped-folders';
import { handleStore } from './handle-store';

export { describeSkipped } from '../core/formats/skipped-folders';

/**
 * Files chosen or dropped, as project-relative inputs, and (`skipped`, not enumerable: it does not travel with the
 * array) the folders left out of them — `.git` and `node_modules`, the one list every import uses. Pass both:
 * `importFolderFiles(files, { name, skipped: files.skipped })`, and the result says what was left out.
 */
export type FolderFiles = ProjectFileInput[] & { readonly skipped: readonly SkippedFolder[] };

function withSkipped(files: ProjectFileInput[], skipped: readonly SkippedFolder[]): FolderFiles {
  Object.defineProperty(files, 'skipped', { value: skipped, enumerable: false });
  return files as FolderFiles;
}

import type { DirectoryPicker, PermissionedHandle } from './handle-store';

const dbName = 'agent-brain-project-folders';
const storeName = 'handles';
const key = 'current';

export function supportsFolderPicker(): boolean {
  return (
    typeof window !== 'undefined' &&
    'showDirectoryPicker' in window &&
    typeof window.showDirectoryPicker === 'function'
  );
}

const idb = <T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest) =>
  handleStore<T>(dbName, storeName, mode, run);

/** Remembers `handle` as the current project folder (handles survive reloads in IndexedDB). */
export async function rememberProjectFolder(handle: FileSystemDirectoryHandle): Promise<void> {
  await idb('readwrite', (store) => store.put(handle, key));
}

export async function forgetProjectFolder(): Promise<void> {
  await idb('readwrite', (store) => store.delete(key));
}

/**
 * Opens the folder picker (call from a click). Returns null when the user cancels; the chosen handle is
 * remembered for the next visit.
 */
export async function pickProjectFolder(): Promise<FileSystemDirectoryHandle | null> {
  // Chromium only: not in TypeScript's DOM lib.
  const picker = (window as unknown as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  if (typeof picker !== 'function') {
    throw new BrainError(
      'InvalidArgument',
      'This browser cannot open a folder directly; import the folder (or a zip) instead.',
    );
  }
  let handle: FileSystemDirectoryHandle;
  try {
    handle = await picker.call(window, { id: 'agent-brain-project', mode: 'readwrite' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    if (
      error instanceof DOMException &&
      (error.name === 'NotAllowedError' || error.name === 'SecurityError')
    ) {
      throw new BrainError(
        'PermissionDenied',
        'The browser refused to open the folder picker here (it needs a click, and a folder it allows).',
      );
    }
    throw error;
  }
  await rememberProjectFolder(handle);
  return handle;
}

/** The folder remembered from an earlier visit and whether it may be used now ('prompt': ask on a click). */
export async function rememberedProjectFolder(): Promise<{
  handle: FileSystemDirectoryHandle;
  permission: PermissionState;
} | null> {
  const handle = await idb<FileSystemDirectoryHandle | undefined>('readonly', (store) => store.get(key));
  if (!handle) return null;
  const query = (handle as PermissionedHandle).queryPermission;
  const permission =
    typeof query === 'function' ? await query.call(handle, { mode: 'readwrite' }) : 'granted';
  return { handle, permission };
}

/** Asks the user to allow reading and writing the folder again (call from a click). True when granted. */
export async function requestProjectFolderAccess(handle: FileSystemDirectoryHandle): Promise<boolean> {
  const request = (handle as PermissionedHandle).requestPermission;
  if (typeof request !== 'function') return true;
  try {
    return (await request.call(handle, { mode: 'readwrite' })) === 'granted';
  } catch (error) {
    if (
      error instanceof DOMException &&
      (error.name === 'NotAllowedError' || error.name === 'SecurityError')
    ) {
      throw new BrainError(
        'PermissionDenied',
        'The browser only asks for folder access from a click: press the button again.',
      );
    }
    throw error;
  }
}

/** The path below the chosen folder: `myproj/src/a.ts` → `src/a.ts` when every file shares `myproj/`. */
function stripCommonRoot(paths: readonly string[]): string[] {
  const first = paths[0]?.split('/')[0];
  const shared = first !== undefined && paths.every((p) => p.includes('/') && p.split('/')[0] === first);
  return shared ? paths.map((p) => p.slice((first as string).length + 1)) : [...paths];
}

/** Files from `<input type="file" webkitdirectory>` as project-relative inputs (`.git`, `node_modules` left out). */
export function filesFromFileList(list: FileList | readonly File[]): FolderFiles {
  const files = [...list];
  const paths = stripCommonRoot(files.map((f) => f.webkitRelativePath || f.name));
  const { kept, skipped } = splitSkipped(
    files.map((data, i) => ({ path: paths[i] as string, data })),
    (f) => f.path,
  );
  return withSkipped(kept, skipped);
}

async function entriesOf(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const out: FileSystemEntry[] = [];
  // readEntries returns at most ~100 entries per call; keep reading until it returns none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

async function walk(
  entry: FileSystemEntry,
  prefix: string,
  out: ProjectFileInput[],
  skipped: SkippedFolder[],
): Promise<void> {
  const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ path, data: file });
  } else if (entry.isDirectory && skippedDirectoryNames.has(entry.name)) {
    // Not walked (a node_modules can hold 100,000 files): left out uncounted.
    skipped.push({ path, files: null });
  } else if (entry.isDirectory) {
    for (const child of await entriesOf(entry as FileSystemDirectoryEntry))
      await walk(child, path, out, skipped);
  }
}

/**
 * Files from a drag and drop (a folder, or several files) as project-relative inputs (`.git`, `node_modules` left
 * out). Call it in the drop handler itself: it takes what it needs synchronously, before the browser clears the
 * drop's data store; the walk of a dropped folder runs after that.
 */
export async function filesFromDataTransfer(transfer: DataTransfer): Promise<FolderFiles> {
  const entries = [...transfer.items]
    .map((item) => (item.kind === 'file' ? item.webkitGetAsEntry() : null))
    .filter((e): e is FileSystemEntry => e !== null);
  // Without entries (a browser or a source that gives none) the dropped files themselves, flat.
  const loose = [...transfer.files];
  if (entries.length === 0) {
    const { kept, skipped } = splitSkipped(
      loose.map((f) => ({ path: f.name, data: f })),
      (f) => f.path,
    );
    return withSkipped(kept, skipped);
  }
  const out: ProjectFileInput[] = [];
  const skipped: SkippedFolder[] = [];
  const single = entries.length === 1 && entries[0]?.isDirectory ? entries[0] : null;
  if (single) {
    for (const child of await entriesOf(single as FileSystemDirectoryEntry))
      await walk(child, '', out, skipped);
  } else {
    for (const entry of entries) await walk(entry, '', out, skipped);
  }
  return withSkipped(out, skipped);
}
