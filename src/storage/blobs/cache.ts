/**
 * Verified raw bodies kept in memory, keyed by their SHA-256 (hex). Content addressing makes an entry valid
 * forever: whatever row ids are reused or rebased, the bytes of a hash never change. Reading a delta chain then
 * costs one delta when its base was read or written recently (git keeps a delta base cache for the same reason).
 * Holders must treat the bytes as read-only.
 */
export interface BodyCache {
  get(hashHex: string): Uint8Array | undefined;
  put(hashHex: string, raw: Uint8Array): void;
  clear(): void;
  /**
   * Runs `work` with the cache holding at most `maxBytes` (trimmed at once), then puts the bound back, whether
   * `work` resolves or throws. A bound already that low is left as it is.
   */
  atMost<T>(maxBytes: number, work: () => Promise<T>): Promise<T>;
  readonly bytes: number;
}

/**
 * The bound while an import runs. An import writes thousands of bodies and reads almost none back, so a full
 * 64 MiB of them stays alive for nothing — in the 500 MB import bench the worker's ArrayBuffers peaked ~30 MiB
 * lower with 16 MiB (test/bench/README.md, "Importing agent transcripts"). The base of the next delta, the
 * previous version of the same file, was written moments before: still inside 16 MiB.
 */
export const IMPORT_BODY_CACHE_BYTES = 16 * 1024 * 1024;

export function createBodyCache(initialMaxBytes = 64 * 1024 * 1024): BodyCache {
  const entries = new Map<string, Uint8Array>();
  let bytes = 0;
  let maxBytes = initialMaxBytes;
  function trim() {
    for (const [oldest, value] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(oldest);
      bytes -= value.length;
    }
  }
  return {
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        // Most recently used last.
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    put(key, raw) {
      if (raw.length > maxBytes / 4) return;
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        bytes -= old.length;
      }
      entries.set(key, raw);
      bytes += raw.length;
      trim();
    },
    async atMost(bound, work) {
      if (bound >= maxBytes) return work();
      const previous = maxBytes;
      maxBytes = bound;
      trim();
      try {
        return await work();
      } finally {
        maxBytes = previous;
      }
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
    get bytes() {
      return bytes;
    },
  };
}
