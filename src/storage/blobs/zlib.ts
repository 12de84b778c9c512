/**
 * zlib streams (RFC 1950) through fflate, decoded with the checks fflate leaves out: a bounded output (the size
 * the caller declares), a complete stream, the Adler-32 trailer, and no preset dictionary.
 */
import { Inflate, inflateSync, zlibSync } from 'fflate';
import { adler32 } from './checksums';

export class InflateError extends Error {
  constructor(
    message: string,
    /** `bomb` when the stream inflates past its declared size. */
    readonly kind: 'bomb' | 'truncated' | 'malformed',
  ) {
    super(message);
  }
}

export type DeflateLevel = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

/**
 * Below this size a body (in practice: the delta of a small edit) is framed as stored blocks. Compressing it saves
 * at most a few hundred bytes, and fflate allocates ~170 KiB of state per call to do it (a 64 KiB window, a
 * 100 KB symbol buffer, a hash head): an import's thousands of small deltas left hundreds of MB of it to the
 * garbage collector. Level 0 allocates only the output; the stream is the same valid zlib.
 */
export const STORED_BELOW = 512;

export function deflate(raw: Uint8Array, level: DeflateLevel = 6): Uint8Array {
  return zlibSync(raw, { level: raw.length < STORED_BELOW ? 0 : level });
}

/**
 * Native zlib (CompressionStream, in browsers and Node) is about twice as fast as fflate on large bodies but
 * costs a few milliseconds per call; below these sizes fflate wins. Both write and read the same format.
 */
const NATIVE_DEFLATE_MIN = 256 * 1024;
const NATIVE_INFLATE_MIN = 64 * 1024;
const hasNative = () => typeof CompressionStream === 'function' && typeof DecompressionStream === 'function';

/**
 * `deflate`, on native zlib for large bodies at the default level (its only level). `nativeFrom`: the size from
 * which native zlib is used — an import's line reader packs every step natively (STORED_BELOW): there the time per
 * call matters less than fflate's ~170 KiB of fresh state per call, garbage its own heap would hold.
 */
export async function deflateFast(
  raw: Uint8Array,
  level: DeflateLevel = 6,
  nativeFrom = NATIVE_DEFLATE_MIN,
): Promise<Uint8Array> {
  if (level !== 6 || raw.length < Math.max(nativeFrom, STORED_BELOW) || !hasNative())
    return deflate(raw, level);
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  const written = writer.write(raw as Uint8Array<ArrayBuffer>).then(() => writer.close());
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  await written;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** `inflateBounded`, on native zlib for large streams (which also checks the Adler-32 trailer itself). */
export async function inflateBoundedFast(
  stream: Uint8Array,
  rawSize: number,
  atMost = false,
): Promise<Uint8Array> {
  if (stream.length < NATIVE_INFLATE_MIN || !hasNative()) return inflateBounded(stream, rawSize, atMost);
  checkHeader(stream);
  const out = await inflateNative(stream, rawSize, atMost);
  const trailer = new DataView(stream.buffer, stream.byteOffset + stream.length - 4, 4).getUint32(0);
  if (adler32(out) !== trailer) throw new InflateError('the Adler-32 trailer does not match', 'malformed');
  return out;
}

async function inflateNative(stream: Uint8Array, rawSize: number, atMost: boolean): Promise<Uint8Array> {
  const inflater = new DecompressionStream('deflate');
  const writer = inflater.writable.getWriter();
  const reader = inflater.readable.getReader();
  // Input goes in 16 KiB pieces, each only once the reader has pulled: a lying stream can get at most about one
  // piece's worth of output (≤ 1032 × 16 KiB) ahead of the size check below.
  const feeding = (async () => {
    for (let i = 0; i < stream.length; i += 16 * 1024) {
      await writer.ready;
      await writer.write(
        stream.subarray(i, Math.min(stream.length, i + 16 * 1024)) as Uint8Array<ArrayBuffer>,
      );
    }
    await writer.close();
  })();
  feeding.catch(() => undefined);
  let out = new Uint8Array(atMost ? Math.min(rawSize, 1024 * 1024) : rawSize);
  let written = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (written + value.length > rawSize)
        throw new InflateError(`the stream inflates past its declared ${rawSize} bytes`, 'bomb');
      if (written + value.length > out.length) {
        const grown = new Uint8Array(Math.min(rawSize, Math.max(out.length * 2, written + value.length)));
        grown.set(out.subarray(0, written));
        out = grown;
      }
      out.set(value, written);
      written += value.length;
    }
    await feeding;
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    if (error instanceof InflateError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new InflateError(
      `inflate failed: ${message}`,
      /incomplete|unexpected end|premature/i.test(message) ? 'truncated' : 'malformed',
    );
  }
  if (written < rawSize && !atMost)
    throw new InflateError(`the stream yields ${written} of ${rawSize} bytes`, 'truncated');
  return out.subarray(0, written);
}

function checkHeader(stream: Uint8Array): void {
  if (stream.length < 7) throw new InflateError(`the stream has only ${stream.length} bytes`, 'truncated');
  const cmf = stream[0] as number;
  const flg = stream[1] as number;
  if (cmf !== 0x78 || ((cmf << 8) | flg) % 31 !== 0)
    throw new InflateError('the zlib header is not one we write', 'malformed');
  if (flg & 0x20) throw new InflateError('the stream asks for a preset dictionary', 'malformed');
  // One final stored block (what `deflate` writes for a small body): inflaters copy its bytes without looking at
  // the padding bits or NLEN, so they are checked here — every byte of the stream then counts.
  const first = stream[2] as number;
  if ((first & 0x07) !== 0x01) return;
  if (first !== 0x01) throw new InflateError('a stored block has padding bits set', 'malformed');
  if (stream.length < 11) throw new InflateError(`the stream has only ${stream.length} bytes`, 'truncated');
  const len = (stream[3] as number) | ((stream[4] as number) << 8);
  const nlen = (stream[5] as number) | ((stream[6] as number) << 8);
  if ((len ^ 0xffff) !== nlen) throw new InflateError('a stored block length fails its check', 'malformed');
  if (len !== stream.length - 11)
    throw new InflateError(
      `a stored block of ${len} bytes in a stream of ${stream.length}`,
      len > stream.length - 11 ? 'truncated' : 'malformed',
    );
}

// Deflate cannot expand input more than 1032:1 (a 258-byte match per 2 bits, roughly).
const MAX_RATIO = 1032;
// Below this much worst-case output, inflating into one fixed buffer is safe: it never grows, and the most a
// lying stream can cost is this many byte writes. Above it, inflate in chunks and stop at the first excess.
const FIXED_WORK_LIMIT = 64 * 1024 * 1024;

/**
 * Inflates a zlib stream that must yield exactly `rawSize` bytes (or, with `atMost`, no more than that). Never
 * allocates more than `rawSize + 1` bytes of output plus one chunk's worth (≤ 1032 × 16 KiB) and stops at the
 * first byte past `rawSize`.
 */
export function inflateBounded(stream: Uint8Array, rawSize: number, atMost = false): Uint8Array {
  checkHeader(stream);
  const data = stream.subarray(2, stream.length - 4);
  const worstCase = data.length * MAX_RATIO;
  const out =
    worstCase <= Math.max(FIXED_WORK_LIMIT, 2 * rawSize)
      ? inflateFixed(data, rawSize, atMost)
      : inflateChunked(data, rawSize, atMost);
  const trailer = new DataView(stream.buffer, stream.byteOffset + stream.length - 4, 4).getUint32(0);
  if (adler32(out) !== trailer) throw new InflateError('the Adler-32 trailer does not match', 'malformed');
  return out;
}

function inflateFixed(data: Uint8Array, rawSize: number, atMost: boolean): Uint8Array {
  // One spare byte: fflate silently drops writes past the end of a fixed buffer, so a full spare byte is how
  // a stream that runs long shows itself.
  const buffer = new Uint8Array(rawSize + 1);
  let out: Uint8Array;
  try {
    out = inflateSync(data, { out: buffer });
  } catch (error) {
    throw fromFflate(error);
  }
  if (out.length > rawSize)
    throw new InflateError(`the stream inflates past its declared ${rawSize} bytes`, 'bomb');
  if (out.length < rawSize && !atMost)
    throw new InflateError(`the stream yields ${out.length} of ${rawSize} bytes`, 'truncated');
  return buffer.subarray(0, out.length);
}

function inflateChunked(data: Uint8Array, rawSize: number, atMost: boolean): Uint8Array {
  let out = new Uint8Array(atMost ? Math.min(rawSize, 1024 * 1024) : rawSize);
  let written = 0;
  const inflater = new Inflate((chunk: Uint8Array) => {
    if (written + chunk.length > rawSize)
      throw new InflateError(`the stream inflates past its declared ${rawSize} bytes`, 'bomb');
    if (written + chunk.length > out.length) {
      const grown = new Uint8Array(Math.min(rawSize, Math.max(out.length * 2, written + chunk.length)));
      grown.set(out.subarray(0, written));
      out = grown;
    }
    out.set(chunk, written);
    written += chunk.length;
  });
  const step = Math.max(16 * 1024, Math.ceil(rawSize / MAX_RATIO));
  try {
    for (let i = 0; i < data.length; i += step) {
      const end = Math.min(data.length, i + step);
      inflater.push(data.subarray(i, end), end === data.length);
    }
    if (data.length === 0) inflater.push(data, true);
  } catch (error) {
    throw fromFflate(error);
  }
  if (written < rawSize && !atMost)
    throw new InflateError(`the stream yields ${written} of ${rawSize} bytes`, 'truncated');
  return out.subarray(0, written);
}

function fromFflate(error: unknown): InflateError {
  if (error instanceof InflateError) return error;
  const message = error instanceof Error ? error.message : String(error);
  // A stored block copied past the end of the fixed buffer surfaces as a RangeError: the stream runs long.
  if (error instanceof RangeError)
    return new InflateError(`the stream inflates past its declared size (${message})`, 'bomb');
  return new InflateError(`inflate failed: ${message}`, /EOF/i.test(message) ? 'truncated' : 'malformed');
}
