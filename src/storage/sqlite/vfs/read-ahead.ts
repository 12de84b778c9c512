/**
 * Read-ahead for a write-ahead log on OPFS (and, with small chunks, for the main database: a cold connection reads a
 * large body's overflow pages, side by side in the file, page by page): a read of the file is served from aligned chunks, each read whole in
 * one `read()` and kept (least recently used first out, a bounded number). Why: an OPFS call costs ~0.3 ms
 * whatever its size, and SQLite reads the WAL a frame (a page) at a time — a WAL checkpoint every frame of the log, a
 * recovery after a kill all of it in order — so a 32 MiB log read frame by frame is ~8,000 calls (~2.5 s here)
 * where 32 one-MiB chunks are 32. A WAL checkpoint walks the pages in page order, which within one commit is the
 * log's order (SQLite writes a commit's pages sorted), so it reads a few runs at once: a few chunks suffice.
 *
 * Only bytes already in the file are kept. The caller lays its own buffered (unwritten) bytes over what this
 * returns, and drops everything when those reach the file (a flush), at a truncation, a delete or a close (a log is
 * rewritten from its start after a WAL checkpoint). Pure apart from the read function it is given: unit-testable.
 */
export interface ReadAheadOptions {
  /** Bytes per chunk (default 1 MiB). */
  readonly chunkBytes?: number;
  /** Chunks kept at most (default 8: 8 MiB at the default size). */
  readonly maxChunks?: number;
}

/** Reads up to `into.byteLength` bytes of the file at `at`; returns how many there were (fewer at its end). */
export type ReadAt = (into: Uint8Array, at: number) => number;

export class ReadAhead {
  readonly chunkBytes: number;
  readonly maxChunks: number;
  /** Chunk index → the file's bytes there (shorter than a chunk at the file's end). Map order: least recent first. */
  private readonly chunks = new Map<number, Uint8Array>();
  /**
   * Whole-chunk arrays no longer in use (evicted or cleared), reused for the next chunks: a WAL checkpoint or a commit
   * rewriting its checksums reads a log of ~100 MB in order, which would else leave ~100 MiB of 1 MiB arrays for the
   * collector (the worker's memory peaked ~60 MiB higher on the 500 MB import bench).
   */
  private readonly spare: Uint8Array[] = [];
  /** Chunks read from the file (each one `read()` call). */
  reads = 0;

  constructor(options: ReadAheadOptions = {}) {
    this.chunkBytes = options.chunkBytes ?? 1024 * 1024;
    this.maxChunks = options.maxChunks ?? 8;
  }

  get size(): number {
    return this.chunks.size;
  }

  clear(): void {
    for (const chunk of this.chunks.values()) this.recycle(chunk);
    this.chunks.clear();
  }

  private recycle(chunk: Uint8Array): void {
    if (chunk.byteLength === this.chunkBytes && this.spare.length < this.maxChunks) this.spare.push(chunk);
  }

  /**
   * Fills `target` with the file's bytes from `offset`. Returns false when the file ends before `target` does
   * (the rest of `target` is then zeroed, as SQLite wants of a short read).
   */
  read(target: Uint8Array, offset: number, readAt: ReadAt): boolean {
    const end = offset + target.byteLength;
    for (let index = Math.floor(offset / this.chunkBytes); index * this.chunkBytes < end; index++) {
      const start = index * this.chunkBytes;
      const chunk = this.chunk(index, readAt);
      const from = Math.max(offset, start);
      const to = Math.min(end, start + chunk.byteLength);
      if (to > from) target.set(chunk.subarray(from - start, to - start), from - offset);
      if (chunk.byteLength < this.chunkBytes && start + chunk.byteLength < end) {
        target.fill(0, Math.max(to, from) - offset);
        return false;
      }
    }
    return true;
  }

  private chunk(index: number, readAt: ReadAt): Uint8Array {
    const kept = this.chunks.get(index);
    if (kept) {
      this.chunks.delete(index);
      this.chunks.set(index, kept);
      return kept;
    }
    if (this.chunks.size >= this.maxChunks) {
      const oldest = this.chunks.keys().next().value as number;
      this.recycle(this.chunks.get(oldest)!);
      this.chunks.delete(oldest);
    }
    const bytes = this.spare.pop() ?? new Uint8Array(this.chunkBytes);
    const length = readAt(bytes, index * this.chunkBytes);
    this.reads++;
    // A short chunk (the file's end) keeps a copy of its length only; the whole array goes back to the spares.
    let chunk = bytes;
    if (length !== bytes.byteLength) {
      chunk = bytes.slice(0, length);
      this.recycle(bytes);
    }
    this.chunks.set(index, chunk);
    return chunk;
  }
}
