/**
 * The stored form of one body, chosen per body by what is smallest:
 * - `plain`: the raw bytes (tiny or incompressible bodies);
 * - `zlib`:  a zlib stream of the raw bytes;
 * - `delta`: a zlib stream of a Fossil delta against a base body (an earlier version of the same path).
 * Decoding checks everything it can without the hash (stream CRC, sizes, zlib and delta structure); the body
 * store then checks the SHA-256 of the result.
 */
import { crc32 } from './checksums';
import { applyDelta, DeltaError } from './delta';
import { createDelta } from './delta-encode';
import { deflateFast, inflateBoundedFast, InflateError, type DeflateLevel } from './zlib';

export const bodyCodecs = ['plain', 'zlib', 'delta'] as const;
export type BodyCodec = (typeof bodyCodecs)[number];

/** No body is ever this large; a declared size beyond it is damage (or an attack), refused before allocating. */
export const BODY_SIZE_CEILING = 1024 * 1024 * 1024;

/** Below this size compression cannot pay for the zlib framing. */
const MIN_COMPRESSIBLE = 64;

export interface EncodedBody {
  readonly codec: BodyCodec;
  readonly stored: Uint8Array;
  /** CRC-32 of `stored`. */
  readonly storedCrc: number;
}

export interface EncodeOptions {
  readonly level?: DeflateLevel;
  /**
   * A delta this much smaller than the raw body is taken without also trying full zlib (source code rarely
   * deflates below 1/6 of its size, so full zlib could not win and would cost the most CPU of the whole write).
   */
  readonly skipZlibBelowRatio?: number;
}

/** Why a stored body cannot be decoded; the store turns it into a `CorruptBody` naming the entry. */
export class BodyDefect extends Error {
  constructor(
    message: string,
    readonly kind: 'checksum' | 'size' | 'bomb' | 'truncated' | 'malformed' | 'hash' | 'chain' | 'too-large',
  ) {
    super(message);
  }
}

export async function encodeBody(
  raw: Uint8Array,
  base: Uint8Array | null,
  options: EncodeOptions = {},
): Promise<EncodedBody> {
  const level = options.level ?? 6;
  let best: { codec: BodyCodec; stored: Uint8Array } = { codec: 'plain', stored: raw };
  if (raw.length >= MIN_COMPRESSIBLE) {
    if (base !== null) {
      const delta = await deflateFast(createDelta(base, raw), level);
      if (delta.length < best.stored.length) best = { codec: 'delta', stored: delta };
    }
    const skipZlib =
      best.codec === 'delta' && best.stored.length * (options.skipZlibBelowRatio ?? 8) < raw.length;
    if (!skipZlib) {
      const zlib = await deflateFast(raw, level);
      // Ties go to the cheaper read: zlib needs no base.
      if (zlib.length <= best.stored.length && zlib.length < raw.length)
        best = { codec: 'zlib', stored: zlib };
    }
  }
  return { ...best, storedCrc: crc32(best.stored) };
}

export interface StoredBody {
  readonly codec: BodyCodec;
  readonly rawSize: number;
  readonly storedSize: number;
  readonly storedCrc: number;
  readonly stored: Uint8Array;
}

/**
 * Decodes one stored body given its base's raw bytes (for `delta`). Returns exactly `rawSize` bytes or throws
 * `BodyDefect`; never allocates more than `rawSize` plus a bounded chunk, whatever the stored bytes claim.
 */
export async function decodeBody(body: StoredBody, base: Uint8Array | null): Promise<Uint8Array> {
  const { codec, rawSize, stored } = body;
  if (!Number.isSafeInteger(rawSize) || rawSize < 0)
    throw new BodyDefect(`its declared size ${rawSize} is not a size`, 'size');
  if (rawSize > BODY_SIZE_CEILING) {
    throw new BodyDefect(
      `its declared size of ${rawSize} bytes is over the ${BODY_SIZE_CEILING}-byte ceiling`,
      'too-large',
    );
  }
  if (stored.length !== body.storedSize) {
    throw new BodyDefect(
      `${stored.length} bytes are stored where ${body.storedSize} were written`,
      stored.length < body.storedSize ? 'truncated' : 'size',
    );
  }
  if (crc32(stored) !== body.storedCrc)
    throw new BodyDefect('its stored bytes fail their CRC-32', 'checksum');
  try {
    switch (codec) {
      case 'plain':
        if (stored.length !== rawSize)
          throw new BodyDefect(`${stored.length} plain bytes for a ${rawSize}-byte body`, 'size');
        return stored;
      case 'zlib':
        return await inflateBoundedFast(stored, rawSize);
      case 'delta': {
        if (base === null) throw new BodyDefect('its delta base is missing', 'chain');
        const delta = await inflateBoundedFast(stored, maxDeltaSize(rawSize), true);
        return applyDelta(base, delta, rawSize);
      }
      default:
        throw new BodyDefect(`unknown codec ${JSON.stringify(codec)}`, 'malformed');
    }
  } catch (error) {
    if (error instanceof BodyDefect) throw error;
    if (error instanceof InflateError)
      throw new BodyDefect(`its zlib stream is damaged: ${error.message}`, error.kind);
    if (error instanceof DeltaError)
      throw new BodyDefect(`its delta is damaged: ${error.message}`, 'malformed');
    throw error;
  }
}

/**
 * The largest delta that can describe `rawSize` bytes: Fossil's encoder only emits a copy when it is shorter than
 * the bytes it copies, so a delta is at most the target plus its framing. Generous, and still a hard bound.
 */
function maxDeltaSize(rawSize: number): number {
  return rawSize + Math.ceil(rawSize / 8) + 64;
}
