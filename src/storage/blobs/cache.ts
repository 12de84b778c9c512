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
  readonly bytes: number;
}

export function createBodyCache(maxBytes = 64 * 1024 * 1024): BodyCache {
  const entries = new Map<string, Uint8Array>();
  let bytes = 0;
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
      for (const [oldest, value] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldest);
        bytes -= value.length;
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
