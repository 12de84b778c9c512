/**
 * Databases on real OPFS, each opened by a coalescing-VFS worker of its own (coalescing-vfs.worker.ts): unique
 * names, and after each test the workers stopped and the files (with their journal and log) removed once released.
 */
import * as Comlink from 'comlink';
import { afterEach } from 'vitest';
import type { CoalescingWorkerApi } from './coalescing-vfs.worker';
import { untilReleased } from './settle';

/** Rows of blobs, and a counter the worker's `insertBlobs` keeps. */
export const BLOB_SCHEMA =
  'CREATE TABLE IF NOT EXISTS blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL);' +
  'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);' +
  "INSERT OR IGNORE INTO meta VALUES ('inserted', 0);";

type OpenOptions = Omit<Parameters<CoalescingWorkerApi['open']>[1], 'coalesce'>;

export function coalescingFiles(prefix: string) {
  let counter = 0;
  const names: string[] = [];
  const workers: Worker[] = [];
  afterEach(async () => {
    for (const worker of workers.splice(0)) worker.terminate();
    const root = await navigator.storage.getDirectory();
    for (const name of names.splice(0)) {
      await untilReleased(name);
      for (const suffix of ['', '-journal', '-wal'])
        await root.removeEntry(name + suffix).catch(() => undefined);
    }
  });
  return {
    uniqueName(): string {
      const name = `${prefix}-${Date.now().toString(36)}-${++counter}.db`;
      names.push(name);
      return name;
    },
    /** A worker with `name` open, coalescing on (`options`: what to turn off). */
    async opened(name: string, options: OpenOptions = {}) {
      const worker = new Worker(new URL('./coalescing-vfs.worker.ts', import.meta.url), { type: 'module' });
      workers.push(worker);
      const api = Comlink.wrap<CoalescingWorkerApi>(worker);
      await api.open(name, { coalesce: true, ...options });
      return { worker, api };
    },
  };
}
