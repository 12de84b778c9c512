/**
 * Main-thread helpers for following an agent's history folder (issue 30): the picker (read-only: the brain never
 * writes into an agent's own history folder), and the followed folders' handles remembered in IndexedDB by the
 * brain's follow id, so that after a reload the page hands each back (`followFolder({ handle, id })`) and following
 * goes on where it stopped. A handle whose permission is `prompt` needs a click: `requestFollowAccess(handle)`.
 */
import { BrainError } from '../core/errors';
import type { FollowId } from '../core/api/follow';
import { handleStore, permissionOf, requestAccess, type DirectoryPicker } from './handle-store';

const dbName = 'agent-brain-followed-folders';
const storeName = 'handles';

const idb = <T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest) =>
  handleStore<T>(dbName, storeName, mode, run);

/** Opens the folder picker for a folder to follow (call from a click). Null when the person cancels. */
export async function pickFollowFolder(): Promise<FileSystemDirectoryHandle | null> {
  const picker = (window as unknown as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  if (typeof picker !== 'function')
    throw new BrainError(
      'InvalidArgument',
      'This browser cannot follow a folder (it has no folder picker): open the history files instead.',
    );
  try {
    return await picker.call(window, { id: 'agent-brain-follow', mode: 'read' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    if (error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'SecurityError'))
      throw new BrainError(
        'PermissionDenied',
        'The browser refused to open the folder picker here (it needs a click, and a folder it allows).',
      );
    throw error;
  }
}

/** Remembers a followed folder's handle under its follow id. */
export async function rememberFollowFolder(id: FollowId, handle: FileSystemDirectoryHandle): Promise<void> {
  await idb('readwrite', (store) => store.put(handle, id));
}

export async function forgetFollowFolder(id: FollowId): Promise<void> {
  await idb('readwrite', (store) => store.delete(id));
}

/** The followed folders remembered in this browser, each with the permission the page has on it now. */
export async function rememberedFollowFolders(): Promise<
  { id: FollowId; handle: FileSystemDirectoryHandle; permission: PermissionState }[]
> {
  const keys = await idb<IDBValidKey[]>('readonly', (store) => store.getAllKeys());
  const out: { id: FollowId; handle: FileSystemDirectoryHandle; permission: PermissionState }[] = [];
  for (const key of keys) {
    if (typeof key !== 'number') continue;
    const handle = await idb<FileSystemDirectoryHandle | undefined>('readonly', (store) => store.get(key));
    if (handle) out.push({ id: key, handle, permission: await permissionOf(handle, 'read') });
  }
  return out;
}

/** Asks the person to allow reading the folder again (call from a click). True when granted. */
export const requestFollowAccess = (handle: FileSystemDirectoryHandle) => requestAccess(handle, 'read');

/**
 * The followed folder that is `handle` or holds it, by name, or null: the app never writes into an agent's own
 * history folder (a handoff goes into the project the agent worked in, never into `~/.claude` or `~/.codex`).
 */
export async function followedFolderHolding(handle: FileSystemDirectoryHandle): Promise<string | null> {
  for (const { handle: followed } of await rememberedFollowFolders()) {
    const path = await followed.resolve(handle).catch(() => null);
    if (path !== null) return followed.name;
  }
  return null;
}
