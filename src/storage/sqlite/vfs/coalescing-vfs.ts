import * as SQLite from '@journeyapps/wa-sqlite';
import { ReadAhead, type ReadAheadOptions } from './read-ahead';
import { writeAllSync } from './sync-write';

/**
 * Write coalescing for a wa-sqlite facade VFS (OPFSCoopSyncVFS): every call on an OPFS sync access handle costs
 * ~0.4–1.4 ms whatever its size, and SQLite writes a WAL frame as two calls (frame header, page), a rollback
 * journal as three per page (page number, page, checksum) and the database a page at a time. Here the main
 * database's, its write-ahead log's and its rollback journal's writes are kept in memory, per open file, and reach
 * the file as one `write()` per contiguous run when SQLite syncs that file (or closes, truncates, unlocks it,
 * deletes any file, or the buffer passes its bound). A WAL commit's frames are one run: one write at its sync.
 *
 * Why this keeps SQLite's guarantees: SQLite never relies on a write being durable, or ordered against another
 * file's writes, before it syncs the file; every ordering it needs is "sync A, then write B". With synchronous=FULL:
 * - WAL mode (agent.db on OPFS): a commit's frames, the last one marked as the commit, are synced before the commit
 *   counts (the call returns); a frame past the last synced commit frame is ignored at recovery (frame checksums
 *   and salts), so frames torn or lost by a crash before the sync are the uncommitted transaction, no more. A WAL
 *   checkpoint syncs the WAL before it writes pages into the database, and syncs the database before the WAL is
 *   restarted (its header rewritten) or truncated — so a crash during one leaves the WAL whole to copy again.
 *   Truncating flushes every file first, so it never lands before a write issued earlier.
 * - DELETE mode (memory databases, older files being converted): the journal is synced before the database is
 *   written, the database is synced before the journal is deleted (its buffer is then dropped unwritten).
 * A crash loses exactly what a power cut may lose: writes issued since the file's last sync. Reads and the file
 * size see buffered writes (a WAL frame read back before its commit is synced, a spilled page), so the connection
 * itself never notices. A write that fails when the buffer is flushed (a full quota) is reported by the call that
 * flushed (the sync, usually the commit) as SQLITE_IOERR_WRITE with the VFS's `lastError` set, exactly as a direct
 * write would be, and what was not written **stays buffered** (a rollback journal's aside, see `flush`), to go out
 * at the next flush: SQLite was told those writes succeeded, and not all of them belong to the transaction that
 * failed. A WAL commit that does not end on a sector boundary is padded with copies of its commit frame, and the
 * part of the copy past the boundary is written after the commit's sync — it waits here, and the next transaction's
 * sync flushes it. Dropped with the failed transaction's frames, it left a frame the wal-index names but the file
 * lacks: every read of that page failed ("disk I/O error") until a reload, and the next write over it made it zeros,
 * a wrong page in agent.db at the next WAL checkpoint. Kept, a failed transaction's own frames are harmless: past
 * the last commit frame they never count (SQLite overwrites them, and at recovery their checksums do not chain).
 */

/** The facade methods this layer wraps (OPFSCoopSyncVFS implements them; the package ships no types). */
interface FacadeMethods {
  jOpen(name: string | null, fileId: number, flags: number, pOutFlags: DataView): number;
  jDelete(name: string, syncDir: number): number;
  jClose(fileId: number): number;
  jRead(fileId: number, pData: Uint8Array, offset: number): number;
  jWrite(fileId: number, pData: Uint8Array, offset: number): number;
  jTruncate(fileId: number, size: number): number;
  jSync(fileId: number, flags: number): number;
  jFileSize(fileId: number, pSize64: DataView): number;
  jUnlock(fileId: number, lockType: number): number;
}

export interface CoalescingStats {
  /** xWrite calls SQLite made on buffered files. */
  writes: number;
  /** `write()` calls that reached the underlying VFS (runs of contiguous bytes). */
  flushedWrites: number;
  /** xRead calls answered from the buffer alone. */
  bufferedReads: number;
  /** Flushes forced by the bound rather than by a sync or another file operation. */
  boundFlushes: number;
  /** Chunks of a WAL read whole (read-ahead.ts): what a WAL checkpoint or a recovery reads, one call a chunk. */
  walChunkReads: number;
  /** Chunks of the main database read whole (its read-ahead): what a cold connection reads, one call a chunk. */
  mainChunkReads: number;
}

export interface CoalescingOptions {
  /** Bytes buffered per file before they are written out without waiting for a sync (default 16 MiB). */
  maxBufferedBytes?: number;
  /** The WAL's read-ahead (read-ahead.ts; default 1 MiB chunks, 8 kept); false reads it frame by frame. */
  walReadAhead?: ReadAheadOptions | false;
  /**
   * The main database's read-ahead (default MAIN_READ_AHEAD: 64 KiB chunks, 64 kept); false reads it page by page.
   * Why: a connection's page cache starts empty, and a cold read of a large checkpoint body walks its overflow
   * pages one xRead (one OPFS call, ~0.3–1 ms) each — pages that sit side by side in the file, as SQLite allocates
   * them in order when the body is written. A chunk read serves 16 of them at 4 KiB pages.
   */
  mainReadAhead?: ReadAheadOptions | false;
}

/** The main database's read-ahead by default: 64 KiB chunks, 64 kept (4 MiB, beside the 32 MiB page cache). */
export const MAIN_READ_AHEAD: Required<ReadAheadOptions> = { chunkBytes: 64 * 1024, maxChunks: 64 };

interface Extent {
  start: number;
  /** Capacity may exceed `length`, so appends (the journal) grow it in place. */
  bytes: Uint8Array;
  length: number;
}

/**
 * Pending writes of one file as sorted, non-overlapping, non-adjacent extents (adjacent writes merge, later
 * bytes win). Pure: no I/O, unit-testable.
 */
export class WriteBuffer {
  readonly extents: Extent[] = [];
  bytes = 0;

  get isEmpty(): boolean {
    return this.extents.length === 0;
  }

  /** One past the last buffered byte (0 when empty). */
  get end(): number {
    const last = this.extents.at(-1);
    return last ? last.start + last.length : 0;
  }

  /** Index of the first extent whose end is at or after `offset` (it touches or follows `offset`). */
  private firstReaching(offset: number): number {
    let lo = 0;
    let hi = this.extents.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = this.extents[mid]!;
      if (e.start + e.length < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Copies `data` (it may be a view of wasm memory that SQLite reuses). */
  write(offset: number, data: Uint8Array): void {
    const end = offset + data.byteLength;
    const i = this.firstReaching(offset);
    let j = i;
    while (j < this.extents.length && this.extents[j]!.start <= end) j++;
    if (j === i) {
      this.extents.splice(i, 0, { start: offset, bytes: data.slice(), length: data.byteLength });
      this.bytes += data.byteLength;
      return;
    }
    const first = this.extents[i]!;
    const last = this.extents[j - 1]!;
    const start = Math.min(first.start, offset);
    const newEnd = Math.max(last.start + last.length, end);
    if (j === i + 1 && first.start <= offset) {
      // Within or appending to one extent: grow in place (capacity doubles, so a journal's appends stay linear).
      const needed = newEnd - first.start;
      if (needed > first.bytes.byteLength) {
        const grown = new Uint8Array(Math.max(needed, first.bytes.byteLength * 2));
        grown.set(first.bytes.subarray(0, first.length));
        first.bytes = grown;
      }
      first.bytes.set(data, offset - first.start);
      this.bytes += needed - first.length;
      first.length = needed;
      return;
    }
    // Bridging extents: they become one. Its bytes grow like an append's (the first extent's array when it starts
    // the run and has room, else one of double the capacity), so a transaction writing pages into the gaps between
    // runs copies each byte a bounded number of times instead of allocating the whole run again at every merge.
    const needed = newEnd - start;
    const reuse = first.start === start && first.bytes.byteLength >= needed;
    const merged = reuse
      ? first.bytes
      : new Uint8Array(first.start === start ? Math.max(needed, first.bytes.byteLength * 2) : needed);
    let replaced = 0;
    for (let k = i; k < j; k++) {
      const e = this.extents[k]!;
      if (!(reuse && k === i)) merged.set(e.bytes.subarray(0, e.length), e.start - start);
      replaced += e.length;
    }
    merged.set(data, offset - start);
    this.extents.splice(i, j - i, { start, bytes: merged, length: needed });
    this.bytes += needed - replaced;
  }

  /**
   * Copies buffered bytes over `target` (which holds the file's bytes from `offset`). Returns true when the
   * buffer alone covers the whole range (the file need not be read).
   */
  overlay(offset: number, target: Uint8Array): { covered: boolean; touched: boolean } {
    const end = offset + target.byteLength;
    let touched = false;
    for (let k = this.firstReaching(offset); k < this.extents.length; k++) {
      const e = this.extents[k]!;
      if (e.start >= end) break;
      const from = Math.max(e.start, offset);
      const to = Math.min(e.start + e.length, end);
      if (from >= to) continue;
      if (from === offset && to === end) {
        target.set(e.bytes.subarray(from - e.start, to - e.start));
        return { covered: true, touched: true };
      }
      target.set(e.bytes.subarray(from - e.start, to - e.start), from - offset);
      touched = true;
    }
    return { covered: false, touched };
  }

  /** True when one extent holds all of [offset, offset + length). */
  covers(offset: number, length: number): boolean {
    const e = this.extents[this.firstReaching(offset)];
    return e !== undefined && e.start <= offset && offset + length <= e.start + e.length;
  }

  /** Takes every extent out, in file order. */
  drain(): Extent[] {
    const out = this.extents.splice(0, this.extents.length);
    this.bytes = 0;
    return out;
  }

  /**
   * Puts back extents `drain()` took that could not be written (a failed flush), in file order, into the empty
   * buffer they were drained from: they are still the file's bytes as SQLite wrote them.
   */
  restore(extents: readonly Extent[]): void {
    if (!this.isEmpty) throw new Error('WriteBuffer.restore: the buffer is not empty');
    for (const e of extents) {
      this.extents.push(e);
      this.bytes += e.length;
    }
  }

  /** Forgets every buffered byte at or past `size` (the file is cut there). */
  truncate(size: number): void {
    const i = this.firstReaching(size);
    const e = this.extents[i];
    if (e && e.start < size) {
      this.bytes -= e.start + e.length - size;
      e.length = size - e.start;
    }
    const cut = e && e.start < size ? i + 1 : i;
    for (const removed of this.extents.splice(cut)) this.bytes -= removed.length;
  }
}

interface BufferedFile {
  path: string;
  buffer: WriteBuffer;
  /** Reads from the file in chunks: a WAL's, and the main database's (null for a journal, or when turned off). */
  readAhead: ReadAhead | null;
  /** A write-ahead log (its flushes join close extents: `joinWalRuns`). */
  wal: boolean;
  /** A rollback journal: what a failed flush could not write is dropped, not kept (see `flush`). */
  journal: boolean;
  /** The WAL's array joined runs are built in (WAL_RUN_BYTES, made at the first join). */
  scratch?: Uint8Array;
}

/** WAL extents at most this far apart are written as one run (coalesceWrites: `joinWalRuns`). */
const WAL_GAP_BYTES = 64 * 1024;
/** The most bytes one joined run spans (and allocates). */
const WAL_RUN_BYTES = 4 * 1024 * 1024;

/**
 * Installs write coalescing on `vfs` (before it is registered with SQLite). Only the main database, its WAL and
 * its rollback journal are buffered; temporary files go straight through. Returns live counters.
 */
export function coalesceWrites(vfs: object, options: CoalescingOptions = {}): CoalescingStats {
  const maxBuffered = options.maxBufferedBytes ?? 16 * 1024 * 1024;
  const target = vfs as FacadeMethods & {
    lastError: unknown;
    mapIdToFile?: Map<
      number,
      {
        accessHandle?: FileSystemSyncAccessHandle | null;
        persistentFile?: { accessHandle: FileSystemSyncAccessHandle | null } | null;
      }
    >;
  };
  const base: FacadeMethods = {
    jOpen: target.jOpen.bind(target),
    jDelete: target.jDelete.bind(target),
    jClose: target.jClose.bind(target),
    jRead: target.jRead.bind(target),
    jWrite: target.jWrite.bind(target),
    jTruncate: target.jTruncate.bind(target),
    jSync: target.jSync.bind(target),
    jFileSize: target.jFileSize.bind(target),
    jUnlock: target.jUnlock.bind(target),
  };
  const stats: CoalescingStats = {
    writes: 0,
    flushedWrites: 0,
    bufferedReads: 0,
    boundFlushes: 0,
    walChunkReads: 0,
    mainChunkReads: 0,
  };
  const walReadAhead = options.walReadAhead ?? {};
  const mainReadAhead = options.mainReadAhead ?? MAIN_READ_AHEAD;
  const files = new Map<number, BufferedFile>();
  const BUFFERED = SQLite.SQLITE_OPEN_MAIN_DB | SQLite.SQLITE_OPEN_MAIN_JOURNAL | SQLite.SQLITE_OPEN_WAL;

  /**
   * Writes one run. Through the access handle when the VFS exposes it (OPFSCoopSyncVFS does): Chromium reports a
   * full quota there as a byte count, which `writeAllSync` turns into QuotaExceededError and the VFS's own jWrite
   * only knows as a "short write".
   */
  function writeRun(fileId: number, bytes: Uint8Array, offset: number): number {
    const handle = accessHandle(fileId);
    if (!handle) return base.jWrite(fileId, bytes, offset);
    try {
      writeAllSync(handle, bytes, offset);
      return SQLite.SQLITE_OK;
    } catch (error) {
      target.lastError = error;
      return SQLite.SQLITE_IOERR_WRITE;
    }
  }

  function accessHandle(fileId: number): FileSystemSyncAccessHandle | null {
    const file = target.mapIdToFile?.get(fileId);
    return file?.accessHandle ?? file?.persistentFile?.accessHandle ?? null;
  }

  function flush(fileId: number): number {
    const file = files.get(fileId);
    if (!file || file.buffer.isEmpty) return SQLite.SQLITE_OK;
    // Chunks read ahead hold the file as it was: what goes out now was laid over them while buffered, not after.
    file.readAhead?.clear();
    const extents = file.buffer.drain();
    const runs: Iterator<Extent> = file.wal ? joinWalRuns(fileId, file, extents) : extents.values();
    // Runs are consecutive groups of extents in file order: every extent starting at or past the end of the last
    // run written is still unwritten. It stays buffered (see the top of this file) — except a rollback journal's:
    // SQLite never needs a journal's unsynced records (they cover pages not yet written to the database), and after
    // a failure with exclusive locking it syncs the journal before anything else (to play it back), which bytes
    // kept here would make fail for as long as the quota is full: every read of the brain with it.
    let written = 0;
    const keepUnwritten = (rc: number) => {
      if (!file.journal) file.buffer.restore(extents.filter((e) => e.start >= written));
      return rc;
    };
    for (;;) {
      let extent: Extent | undefined;
      try {
        // A joined run is read from the file here, before it is written.
        extent = runs.next().value;
      } catch (error) {
        target.lastError = error;
        return keepUnwritten(SQLite.SQLITE_IOERR_WRITE);
      }
      if (!extent) break;
      stats.flushedWrites++;
      const rc = writeRun(fileId, extent.bytes.subarray(0, extent.length), extent.start);
      // lastError is set (e.g. QuotaExceededError). What is left stays buffered (see the top of this file).
      if (rc !== SQLite.SQLITE_OK) return keepUnwritten(rc);
      written = extent.start + extent.length;
    }
    return SQLite.SQLITE_OK;
  }

  /** The file's own bytes (buffered ones are laid over them by the caller): a WAL's through its read-ahead. */
  function readFile(
    fileId: number,
    file: BufferedFile,
    pData: Uint8Array,
    view: Uint8Array,
    offset: number,
  ): number {
    const handle = file.readAhead && accessHandle(fileId);
    if (!file.readAhead || !handle) return base.jRead(fileId, pData, offset);
    try {
      const whole = file.readAhead.read(view, offset, (into, at) => {
        if (file.wal) stats.walChunkReads++;
        else stats.mainChunkReads++;
        return handle.read(into, { at });
      });
      return whole ? SQLite.SQLITE_OK : SQLite.SQLITE_IOERR_SHORT_READ;
    } catch (error) {
      target.lastError = error;
      return SQLite.SQLITE_IOERR_READ;
    }
  }

  /**
   * A WAL's buffered extents close together written as one run each (up to WAL_RUN_BYTES), the bytes between them
   * read from the file first, in one read a run. Why: a transaction that overwrote a frame in place (a page spilled
   * twice) has SQLite rewrite the checksum of every frame after it at commit — a 24-byte write every frame, ~25,000
   * of them for a 100 MB import, each else an OPFS write of its own. Safe only for the WAL: the bytes between are
   * frames of the transaction being committed (SQLite writes the log nowhere else), which count only once its
   * commit frame is synced, so rewriting them as they are can cost nothing already committed, even torn.
   * Yields each run as it is built, in the file's one scratch array (written before the next is built): a flush
   * allocates nothing per run.
   */
  function* joinWalRuns(fileId: number, file: BufferedFile, extents: Extent[]): Generator<Extent> {
    const handle = accessHandle(fileId);
    if (!handle || extents.length < 2) return yield* extents;
    for (let i = 0; i < extents.length;) {
      const first = extents[i]!;
      let end = first.start + first.length;
      let j = i + 1;
      for (; j < extents.length; j++) {
        const next = extents[j]!;
        if (next.start - end > WAL_GAP_BYTES || next.start + next.length - first.start > WAL_RUN_BYTES) break;
        end = next.start + next.length;
      }
      if (j === i + 1) yield first;
      else {
        // The file's bytes under the run (zeros past its end), then every extent over them.
        file.scratch ??= new Uint8Array(WAL_RUN_BYTES);
        const bytes = file.scratch.subarray(0, end - first.start);
        bytes.fill(0, handle.read(bytes, { at: first.start }));
        for (let k = i; k < j; k++) {
          const e = extents[k]!;
          bytes.set(e.bytes.subarray(0, e.length), e.start - first.start);
        }
        yield { start: first.start, bytes, length: bytes.byteLength };
      }
      i = j;
    }
  }

  function flushAll(): number {
    let result: number = SQLite.SQLITE_OK;
    for (const fileId of files.keys()) {
      const rc = flush(fileId);
      if (result === SQLite.SQLITE_OK) result = rc;
    }
    return result;
  }

  const overrides: FacadeMethods = {
    jOpen(name, fileId, flags, pOutFlags) {
      const rc = base.jOpen(name, fileId, flags, pOutFlags);
      if (rc === SQLite.SQLITE_OK && flags & BUFFERED && name) {
        files.set(fileId, {
          path: new URL(name, 'file://').pathname,
          buffer: new WriteBuffer(),
          readAhead:
            flags & SQLite.SQLITE_OPEN_WAL && walReadAhead
              ? new ReadAhead(walReadAhead)
              : flags & SQLite.SQLITE_OPEN_MAIN_DB && mainReadAhead
                ? new ReadAhead(mainReadAhead)
                : null,
          wal: (flags & SQLite.SQLITE_OPEN_WAL) !== 0,
          journal: (flags & SQLite.SQLITE_OPEN_MAIN_JOURNAL) !== 0,
        });
      }
      return rc;
    },

    jDelete(name, syncDir) {
      // Keeps order: whatever was written before a file is deleted (the commit point of a DELETE journal; the WAL
      // at a clean close, after its last checkpoint) is out first, and the deleted file's own bytes are dropped.
      // With synchronous=FULL the database was synced already, so this is normally a no-op.
      const path = new URL(name, 'file://').pathname;
      for (const [fileId, file] of files) {
        if (file.path === path) {
          file.buffer.drain();
          file.readAhead?.clear();
        } else {
          const rc = flush(fileId);
          if (rc !== SQLite.SQLITE_OK) return rc;
        }
      }
      return base.jDelete(name, syncDir);
    },

    jClose(fileId) {
      const rc = flush(fileId);
      files.delete(fileId);
      const closed = base.jClose(fileId);
      return rc === SQLite.SQLITE_OK ? closed : rc;
    },

    jRead(fileId, pData, offset) {
      const file = files.get(fileId);
      if (!file || (file.buffer.isEmpty && !file.readAhead)) return base.jRead(fileId, pData, offset);
      // pData is a Proxy over wasm memory; subarray() gives a real Uint8Array view of it.
      const view = pData.subarray();
      if (!file.buffer.isEmpty && file.buffer.covers(offset, view.byteLength)) {
        file.buffer.overlay(offset, view);
        stats.bufferedReads++;
        return SQLite.SQLITE_OK;
      }
      const rc = readFile(fileId, file, pData, view, offset);
      if (rc !== SQLite.SQLITE_OK && rc !== SQLite.SQLITE_IOERR_SHORT_READ) return rc;
      const { touched } = file.buffer.overlay(offset, view);
      if (rc === SQLite.SQLITE_IOERR_SHORT_READ && touched) {
        // The file alone was short; the buffer may extend it past this range.
        const size = new DataView(new ArrayBuffer(8));
        const sizeRc = base.jFileSize(fileId, size);
        if (sizeRc !== SQLite.SQLITE_OK) return sizeRc;
        const logical = Math.max(Number(size.getBigInt64(0, true)), file.buffer.end);
        return offset + view.byteLength <= logical ? SQLite.SQLITE_OK : SQLite.SQLITE_IOERR_SHORT_READ;
      }
      return rc;
    },

    jWrite(fileId, pData, offset) {
      const file = files.get(fileId);
      if (!file) return base.jWrite(fileId, pData, offset);
      stats.writes++;
      // Chunks read ahead stay valid: this write is buffered and laid over them at every read until it is
      // flushed, which drops them (a transaction that rewrites its frames' checksums reads and writes in turn).
      try {
        file.buffer.write(offset, pData.subarray());
      } catch (error) {
        // Out of memory: never throw across the wasm boundary.
        target.lastError = error;
        return SQLite.SQLITE_IOERR_WRITE;
      }
      if (file.buffer.bytes > maxBuffered) {
        stats.boundFlushes++;
        return flush(fileId);
      }
      return SQLite.SQLITE_OK;
    },

    jTruncate(fileId, size) {
      // What is buffered past the cut is cut with it. Then every file is flushed, so a truncate never lands before
      // a write issued earlier.
      files.get(fileId)?.buffer.truncate(size);
      const rc = flushAll();
      if (rc !== SQLite.SQLITE_OK) return rc;
      files.get(fileId)?.readAhead?.clear();
      return base.jTruncate(fileId, size);
    },

    jSync(fileId, flags) {
      const rc = flush(fileId);
      if (rc !== SQLite.SQLITE_OK) return rc;
      return base.jSync(fileId, flags);
    },

    jFileSize(fileId, pSize64) {
      const rc = base.jFileSize(fileId, pSize64);
      const file = files.get(fileId);
      if (rc !== SQLite.SQLITE_OK || !file || file.buffer.isEmpty) return rc;
      const size = Number(pSize64.getBigInt64(0, true));
      if (file.buffer.end > size) pSize64.setBigInt64(0, BigInt(file.buffer.end), true);
      return rc;
    },

    jUnlock(fileId, lockType) {
      // The VFS may hand its access handles to another connection once unlocked: nothing may stay buffered, and
      // nothing read ahead may be trusted (another connection may write the file before this one locks it again;
      // with locking_mode = EXCLUSIVE, as agent.db is opened, this happens only at close).
      const rc = flushAll();
      for (const file of files.values()) file.readAhead?.clear();
      const unlocked = base.jUnlock(fileId, lockType);
      return rc === SQLite.SQLITE_OK ? unlocked : rc;
    },
  };
  Object.assign(target, overrides);
  return stats;
}
