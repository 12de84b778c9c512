/**
 * Byte counts of the page I/O SQLite asks a wa-sqlite facade VFS for (OPFSCoopSyncVFS, MemoryVFS): the facade
 * calls its `log` hook with every xOpen, xRead and xWrite it forwards, so counting needs no wrapping of the
 * methods (and sits above any layer that wraps them, e.g. write coalescing: these are SQLite's requests).
 *
 * Why: a single long statement (VACUUM) runs synchronously in the worker — no timer, no other code runs until it
 * ends — yet the VFS is called for every page it reads and writes. A listener on these counts can therefore
 * report progress from inside the statement. One wasm module, one engine per worker: the meter is a module-level
 * instance that the engine attaches to its VFSs; callers read the difference of two snapshots around one
 * serialised engine call.
 */

export interface IoCounts {
  /** Bytes read from main database files. */
  readonly mainRead: number;
  /**
   * Bytes of database pages written: into main database files, or appended to their write-ahead log as frames
   * (a WAL database's pages reach its file only at a WAL checkpoint; frame headers and the log's header not counted).
   */
  readonly mainWritten: number;
  /** Bytes written to rollback journals of main databases. */
  readonly journalWritten: number;
}

export type IoListener = (counts: IoCounts) => void;

export interface IoMeter {
  counts(): IoCounts;
  /** Called after each counted read or write (synchronously, inside SQLite's call): keep it cheap. */
  watch(listener: IoListener): () => void;
  /** Starts counting the I/O of a facade VFS instance (keeps any `log` function it already had). */
  attach(vfs: object): void;
}

// sqlite3.h open flags, as the facade logs them ('0x…').
const SQLITE_OPEN_MAIN_DB = 0x100;
const SQLITE_OPEN_MAIN_JOURNAL = 0x800;
const SQLITE_OPEN_WAL = 0x80000;
/** A WAL frame is written as its 24-byte header, then its page (≥ 512 bytes); the log starts with a 32-byte header. */
const SMALLEST_PAGE = 512;

type FileKind = 'main' | 'journal' | 'wal';

export function createIoMeter(): IoMeter {
  let mainRead = 0;
  let mainWritten = 0;
  let journalWritten = 0;
  const listeners = new Set<IoListener>();
  const snapshot = (): IoCounts => ({ mainRead, mainWritten, journalWritten });

  function notify() {
    if (listeners.size === 0) return;
    const counts = snapshot();
    for (const listener of listeners) {
      // Inside SQLite's I/O call: a throwing listener must not fail the read or write. It is dropped.
      try {
        listener(counts);
      } catch {
        listeners.delete(listener);
      }
    }
  }

  return {
    counts: snapshot,
    watch(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    attach(vfs) {
      const target = vfs as { log?: ((...args: unknown[]) => void) | null };
      const previous = target.log ?? null;
      // File ids are per VFS instance.
      const kinds = new Map<number, FileKind>();
      target.log = function (this: unknown, ...args: unknown[]) {
        const [method, fileId, third] = args;
        if (method === 'jOpen' && typeof third === 'number' && typeof args[3] === 'string') {
          // ('jOpen', name, fileId, '0x…flags')
          const flags = Number.parseInt(args[3], 16);
          if (flags & SQLITE_OPEN_MAIN_DB) kinds.set(third, 'main');
          else if (flags & SQLITE_OPEN_MAIN_JOURNAL) kinds.set(third, 'journal');
          else if (flags & SQLITE_OPEN_WAL) kinds.set(third, 'wal');
          else kinds.delete(third);
        } else if (method === 'jRead' && typeof fileId === 'number' && typeof third === 'number') {
          if (kinds.get(fileId) === 'main') {
            mainRead += third;
            notify();
          }
        } else if (method === 'jWrite' && typeof fileId === 'number') {
          // The data is a Uint8Array or the facade's Uint8Array-like proxy: both have byteLength.
          const bytes = (third as { byteLength?: unknown } | null)?.byteLength;
          const kind = typeof bytes === 'number' ? kinds.get(fileId) : undefined;
          const page = kind === 'main' || (kind === 'wal' && (bytes as number) >= SMALLEST_PAGE);
          if (page) mainWritten += bytes as number;
          else if (kind === 'journal') journalWritten += bytes as number;
          if (page || kind === 'journal') notify();
        } else if (method === 'jClose' && typeof fileId === 'number') {
          kinds.delete(fileId);
        }
        previous?.apply(this, args);
      };
    },
  };
}

/** The worker's meter: attached to the engine's VFSs when the engine is made (open.ts). */
export const ioMeter: IoMeter = createIoMeter();
