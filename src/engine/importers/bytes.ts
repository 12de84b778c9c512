/**
 * Reading a transcript's bytes without holding them whole: a Uint8Array is viewed in chunks, a Blob/File read in
 * slices of 1 MiB, the next one already being read while the caller decodes the current one. UTF-8 is decoded with
 * replacement (bytes that are not UTF-8 become U+FFFD, never an error), carrying a character split across two
 * chunks over.
 */
import { BrainError } from '../../core/errors';

export type Bytes = Uint8Array | Blob;

/**
 * A slice costs ~1 ms in a Chromium 156 worker whatever its size (`Blob.slice` and `arrayBuffer`, each a round
 * trip to the browser's blob store): 256 KiB slices took 11 % of the 500 MB import bench's worker time, 1 MiB ones 4 %.
 */
export const CHUNK_BYTES = 1024 * 1024;
/** Slices being read while the caller decodes one (2 MiB in flight). */
const READ_AHEAD = 2;

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

/**
 * The chunks of `data` in order, each a fresh array of `chunkBytes` (the last one shorter). A Blob is read slice by
 * slice, READ_AHEAD slices (1 MiB) in flight while the caller decodes one; each is garbage once decoded. Not its
 * stream: in Chromium 156 a byte stream read into the caller's buffer (BYOB), consumed as fast as an import decodes
 * it, stops delivering after a few hundred MB and the read never settles (reproduced in
 * test/browser/import-bytes.test.ts); its default reader holds more than slices do (measured: 70–128 MiB of
 * buffers against 37 for 1 MiB slices, reading 1.2 GB). Slices in flight rather than one at a time: the page
 * would wait on each round trip (with 256 KiB slices, one at a time ran at 12–25 MB/s against 29 with four). A
 * BYOB read of each slice's own stream into reused buffers stalled as well (the bench hung at its first import).
 */
export async function* chunksOf(data: Bytes, chunkBytes = CHUNK_BYTES): AsyncGenerator<Uint8Array> {
  const size = sizeOf(data);
  if (data instanceof Uint8Array) {
    for (let at = 0; at < size; at += chunkBytes) yield data.subarray(at, Math.min(size, at + chunkBytes));
    return;
  }
  const read = (at: number) => {
    const promise = slice(data, at, Math.min(size, at + chunkBytes));
    // A read ahead that the caller never awaits (it stopped early) must not surface as an unhandled rejection.
    promise.catch(() => undefined);
    return promise;
  };
  const queue: Promise<Uint8Array>[] = [];
  let next = 0;
  const fill = () => {
    for (; queue.length < READ_AHEAD && next < size; next += chunkBytes) queue.push(read(next));
  };
  fill();
  while (queue.length > 0) {
    const chunk = await (queue.shift() as Promise<Uint8Array>);
    fill();
    yield chunk;
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
