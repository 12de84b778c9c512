/**
 * Folder handles kept across reloads: IndexedDB stores a `FileSystemDirectoryHandle` as it is (structured clone),
 * and the browser asks again for permission when it must. One helper for the project folder and the followed ones.
 */
import { BrainError } from '../core/errors';

/** Chromium's permission methods on handles and the picker (not yet in TypeScript's DOM types). */
export interface PermissionedHandle extends FileSystemDirectoryHandle {
  queryPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
  requestPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
}

export type DirectoryPicker = (options?: {
  id?: string;
  mode?: 'read' | 'readwrite';
  startIn?: string;
}) => Promise<FileSystemDirectoryHandle>;

/** Runs `run` on `storeName` of the IndexedDB database `dbName` (created on first use) and gives its result. */
export function handleStore<T>(
  dbName: string,
  storeName: string,
  mode: IDBTransactionMode,
  run: (store: IDBObjectStore) => IDBRequest,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(storeName);
    open.onerror = () =>
      reject(
        new BrainError(
          'Internal',
          `IndexedDB could not be opened: ${open.error?.message ?? 'unknown error'}`,
        ),
      );
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction(storeName, mode);
      const request = run(tx.objectStore(storeName));
      tx.oncomplete = () => {
        db.close();
        resolve(request.result as T);
      };
      tx.onerror = tx.onabort = () => {
        db.close();
        reject(new BrainError('Internal', `IndexedDB failed: ${tx.error?.message ?? 'aborted'}`));
      };
    };
  });
}

/** The permission the page has on `handle` now ('prompt': ask on a click). */
export async function permissionOf(
  handle: FileSystemDirectoryHandle,
  mode: 'read' | 'readwrite',
): Promise<PermissionState> {
  const query = (handle as PermissionedHandle).queryPermission;
  return typeof query === 'function' ? query.call(handle, { mode }) : 'granted';
}

/** Asks for access to `handle` again (call from a click). True when granted. */
export async function requestAccess(
  handle: FileSystemDirectoryHandle,
  mode: 'read' | 'readwrite',
): Promise<boolean> {
  const request = (handle as PermissionedHandle).requestPermission;
  if (typeof request !== 'function') return true;
  try {
    return (await request.call(handle, { mode })) === 'granted';
  } catch {
    return false;
  }
}
