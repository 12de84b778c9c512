/**
 * Reading a transcript's bytes without holding them whole: a Uint8Array is viewed in chunks, a Blob/File read
 * into one reused buffer (or slice by slice where its stream cannot fill a given buffer). UTF-8 is decoded with replacement (bytes that
 * are not UTF-8 become U+FFFD, never an error), carrying a character split across two chunks over.
 */
import { BrainError } from '../../core/errors';

export type Bytes = Uint8Array | Blob;

export const CHUNK_BYTES = 4 * 1024 * 1024;

export const sizeOf = (data: Bytes): number => (data instanceof Uint8Array ? data.byteLength : data.size);

export function isBytes(value: unknown): value is Bytes {
  return (
    value instanceof Uint8Array ||
    (typeof Blob !== 'undefined' && value instanceof Blob) ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as Blob).size === 'number' &&
      typeof (value as Blob).slice === 'function')
  );
}

async function slice(data: Bytes, start: number, end: number): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data.subarray(start, end);
  return new Uint8Array(await data.slice(start, end).arrayBuffer());
}

/** A reader of `blob` into buffers the caller gives (a byte stream), or null where the platform has none. */
function byobReader(blob: Blob): ReadableStreamBYOBReader | null {
  try {
    return blob.stream().getReader({ mode: 'byob' });
  } catch {
    return null;
  }
}

/**
 * The chunks of `data` in order. A Blob is read through one reused buffer where its stream is a byte stream (as
 * in Chromium), so a 500 MB transcript allocates 4 MiB, not a fresh 4 MiB ArrayBuffer a slice left to the garbage
 * collector: each chunk is valid only until the next one is asked for (readers decode it at once). Elsewhere,
 * slice by slice.
 */
export async function* chunksOf(data: Bytes, chunkBytes = CHUNK_BYTES): AsyncGenerator<Uint8Array> {
  const size = sizeOf(data);
  const reader = data instanceof Uint8Array || size === 0 ? null : byobReader(data);
  if (!reader) {
    for (let at = 0; at < size; at += chunkBytes)
      yield await slice(data, at, Math.min(size, at + chunkBytes));
    return;
  }
  let buffer = new ArrayBuffer(chunkBytes);
  try {
    for (;;) {
      // As much as the stream delivers at once (~256 KiB in Chromium); the buffer comes back (transferred) with the
      // bytes.
      const { value, done } = await reader.read(new Uint8Array(buffer, 0, chunkBytes));
      if (done || value === undefined) break;
      if (value.byteLength > 0) yield value;
      buffer = value.buffer as ArrayBuffer;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** The first `bytes` bytes as text (for a sniff: the last character may be cut, the last line incomplete). */
export async function headText(data: Bytes, bytes = 64 * 1024): Promise<string> {
  return new TextDecoder('utf-8').decode(await slice(data, 0, Math.min(bytes, sizeOf(data))));
}

/** The whole file as text, refused past `maxBytes` (document formats are parsed whole). */
export async function wholeText(data: Bytes, name: string, maxBytes: number): Promise<string> {
  const size = sizeOf(data);
  if (size > maxBytes)
    throw new BrainError(
      'TooLarge',
      `${name} is ${size} bytes; a transcript read whole (one JSON document) may have at most ${maxBytes}.`,
      { name, size, limit: maxBytes },
    );
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for await (const chunk of chunksOf(data)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
