/**
 * A step's params and result at rest (migration 15): their JSON text as it is when short, else a BLOB holding a
 * zlib stream of its UTF-8 bytes — the checkpoint bodies' codec (storage/blobs/zlib.ts: fflate, bounded and
 * verified decoding), not a second one. The column's type says which: TEXT is the JSON itself (every step of an
 * older build), BLOB is `[1][raw size, u32 big-endian][zlib stream]`. A BLOB that cannot be decoded to exactly its
 * declared bytes of valid UTF-8 is refused with `CorruptDatabase` naming the step, never read as empty.
 */
import { BrainError } from '../../../core/errors';
import { deflate, deflateFast, inflateBounded, InflateError, STORED_BELOW } from '../../blobs/zlib';

/** The first byte of a packed column: zlib of the JSON text's UTF-8 bytes. */
const ZLIB_JSON = 1;
const HEADER = 5;
/** No step's JSON reaches this (the engine bounds each part far below it): a larger declared size is damage. */
const MAX_RAW = 256 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type StoredJson = string | Uint8Array;

/**
 * The stored form of one JSON text: packed when zlib makes it smaller (a text shorter than STORED_BELOW bytes
 * would only be framed as a stored block, so it stays text — a short step is never bigger than before).
 */
export function packJson(text: string): StoredJson {
  if (text.length < STORED_BELOW) return text;
  const raw = encoder.encode(text);
  return framed(raw, deflate(raw)) ?? text;
}

/**
 * `packJson` on native zlib (deflateFast from STORED_BELOW): another valid stream of the same bytes, with no fflate
 * state left to the garbage collector — for a thread that packs every step of an import (read-ahead.ts).
 */
export async function packJsonNative(text: string): Promise<StoredJson> {
  if (text.length < STORED_BELOW) return text;
  const raw = encoder.encode(text);
  return framed(raw, await deflateFast(raw, 6, STORED_BELOW)) ?? text;
}

/** `[1][raw size][stream]`, or null when that is not smaller than the text itself. */
function framed(raw: Uint8Array, stream: Uint8Array): Uint8Array | null {
  if (stream.length + HEADER >= raw.length) return null;
  const packed = new Uint8Array(HEADER + stream.length);
  packed[0] = ZLIB_JSON;
  new DataView(packed.buffer).setUint32(1, raw.length);
  packed.set(stream, HEADER);
  return packed;
}

/** A stored column's JSON text; `CorruptDatabase` when a packed one cannot be decoded exactly. */
export function unpackJson(stored: StoredJson, stepId: number, part: 'params' | 'result'): string {
  if (typeof stored === 'string') return stored;
  const refuse = (why: string) =>
    new BrainError('CorruptDatabase', `The ${part} of step ${stepId} cannot be read: ${why}.`, {
      stepId,
      part,
    });
  if (stored.length < HEADER + 7 || stored[0] !== ZLIB_JSON)
    throw refuse(`its ${stored.length} stored bytes are not a packed JSON text`);
  const rawSize = new DataView(stored.buffer, stored.byteOffset, stored.length).getUint32(1);
  if (rawSize > MAX_RAW) throw refuse(`its declared size of ${rawSize} bytes is over ${MAX_RAW}`);
  let raw: Uint8Array;
  try {
    raw = inflateBounded(stored.subarray(HEADER), rawSize);
  } catch (error) {
    if (error instanceof InflateError) throw refuse(`its zlib stream is damaged (${error.message})`);
    throw error;
  }
  try {
    return decoder.decode(raw);
  } catch {
    throw refuse('its bytes are not valid UTF-8');
  }
}
