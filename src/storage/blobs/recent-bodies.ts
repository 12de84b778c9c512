/**
 * The last bodies stored, remembered by their text and by their bytes. An edit's before body is almost always the
 * after body of the previous edit of the same file (an imported session's `originalFile`s, a live agent's
 * captured files), so with this it is encoded to UTF-8 and hashed once, not once per side: the text finds the
 * bytes encoded before (the same array), and the array finds its SHA-256. Bounded by count and by bytes; a body
 * larger than a tenth of the bound is not kept. The arrays are never changed once made (the body cache holds
 * them too).
 */
export const RECENT_BODIES = { count: 16, bytes: 8 * 1024 * 1024 };

export interface RecentBodies {
  /** The bytes of `text`: those made for the same text lately, else `encode()`'s (then remembered). */
  bytesOf(text: string, encode: () => Uint8Array): Uint8Array;
  /** The SHA-256 of `raw` when it is an array hashed lately (the same array, not equal bytes), else null. */
  hashOf(raw: Uint8Array): Uint8Array | null;
  /** Remembers `raw`'s hash. */
  hashed(raw: Uint8Array, hash: Uint8Array): void;
}

export function createRecentBodies(bound = RECENT_BODIES): RecentBodies {
  const texts = new Map<string, Uint8Array>();
  const hashes = new Map<Uint8Array, Uint8Array>();
  let bytes = 0;
  const small = (n: number) => n <= bound.bytes / 10;

  function trim() {
    while (texts.size > bound.count || bytes > bound.bytes) {
      const [oldest, raw] = texts.entries().next().value as [string, Uint8Array];
      texts.delete(oldest);
      bytes -= raw.length;
    }
    while (hashes.size > bound.count) hashes.delete(hashes.keys().next().value as Uint8Array);
  }

  return {
    bytesOf(text, encode) {
      const known = texts.get(text);
      if (known) {
        // Most recently used last: a Map iterates in insertion order, so the oldest goes first.
        texts.delete(text);
        texts.set(text, known);
        return known;
      }
      const raw = encode();
      if (small(raw.length)) {
        texts.set(text, raw);
        bytes += raw.length;
        trim();
      }
      return raw;
    },
    hashOf: (raw) => hashes.get(raw) ?? null,
    hashed(raw, hash) {
      if (!small(raw.length)) return;
      hashes.delete(raw);
      hashes.set(raw, hash);
      trim();
    },
  };
}
