/**
 * Binary deltas in Fossil's delta format (https://fossil-scm.org/home/doc/tip/www/delta_format.wiki).
 *
 * The `fossil-delta` package implements the format, but its decoder pushes bytes one by one into a JS array
 * (~30 MiB/s: too slow for reads) and tolerates malformed input (it masks digit bytes and reads past the end of an
 * insert as zeros). So both halves are our own, on typed arrays: the encoder (delta-encode.ts) emits exactly the
 * bytes `fossil-delta` emits (a unit test holds it to that); this decoder copies with `TypedArray.set` (~1 GiB/s),
 * refuses anything malformed, never writes past the size the caller expects and checks the format's checksum.
 * It throws `DeltaError`; callers turn that into a typed error naming the entry.
 */
export class DeltaError extends Error {}

// "0-9A-Z_a-z~" are the 64 digits; every other byte ends a number.
const digitValue = (() => {
  const values = new Int8Array(256).fill(-1);
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~';
  for (let i = 0; i < digits.length; i++) values[digits.charCodeAt(i)] = i;
  return values;
})();

const NEWLINE = 0x0a;
const AT = 0x40;
const COMMA = 0x2c;
const COLON = 0x3a;
const SEMICOLON = 0x3b;

/** Fossil's checksum: the sum of the big-endian 32-bit words (the last one zero-padded), modulo 2^32. */
export function deltaChecksum(bytes: Uint8Array): number {
  let sum = 0;
  let i = 0;
  const n4 = bytes.length & ~3;
  for (; i < n4; i += 4) {
    sum =
      (sum +
        (((bytes[i] as number) << 24) |
          ((bytes[i + 1] as number) << 16) |
          ((bytes[i + 2] as number) << 8) |
          (bytes[i + 3] as number))) |
      0;
  }
  let tail = 0;
  for (let shift = 24; i < bytes.length; i++, shift -= 8) tail |= (bytes[i] as number) << shift;
  return ((sum + tail) | 0) >>> 0;
}

/** The target size a delta declares (its first number). */
export function deltaTargetSize(delta: Uint8Array): number {
  const reader = { pos: 0 };
  const size = readNumber(delta, reader);
  if (delta[reader.pos] !== NEWLINE) throw new DeltaError('the delta header is malformed');
  return size;
}

function readNumber(delta: Uint8Array, reader: { pos: number }): number {
  let value = 0;
  const start = reader.pos;
  while (reader.pos < delta.length) {
    const digit = digitValue[delta[reader.pos] as number] as number;
    if (digit < 0) break;
    value = value * 64 + digit;
    // Nothing we store comes near 2^40 bytes; a longer number is damage, not data.
    if (value > 2 ** 40) throw new DeltaError('a number in the delta is out of range');
    reader.pos++;
  }
  if (reader.pos === start) throw new DeltaError(`a number is missing at byte ${start} of the delta`);
  return value;
}

/**
 * Applies `delta` to `base`. `expectedSize` is the size the caller knows the target has (from its metadata): a
 * delta declaring any other size is refused before anything is allocated.
 */
export function applyDelta(base: Uint8Array, delta: Uint8Array, expectedSize: number): Uint8Array {
  const reader = { pos: 0 };
  const size = readNumber(delta, reader);
  if (delta[reader.pos++] !== NEWLINE) throw new DeltaError('the delta header is malformed');
  if (size !== expectedSize)
    throw new DeltaError(`the delta declares ${size} bytes, the body ${expectedSize}`);
  const out = new Uint8Array(size);
  let written = 0;
  while (reader.pos < delta.length) {
    const count = readNumber(delta, reader);
    const op = delta[reader.pos++];
    if (op === AT) {
      const offset = readNumber(delta, reader);
      if (delta[reader.pos++] !== COMMA) throw new DeltaError('a copy command is not terminated');
      if (written + count > size) throw new DeltaError('a copy runs past the declared size');
      if (offset + count > base.length) throw new DeltaError('a copy reads past the end of its base');
      out.set(base.subarray(offset, offset + count), written);
      written += count;
    } else if (op === COLON) {
      if (written + count > size) throw new DeltaError('an insert runs past the declared size');
      if (reader.pos + count > delta.length) throw new DeltaError('an insert runs past the end of the delta');
      out.set(delta.subarray(reader.pos, reader.pos + count), written);
      reader.pos += count;
      written += count;
    } else if (op === SEMICOLON) {
      if (written !== size) throw new DeltaError(`the delta produced ${written} of ${size} bytes`);
      if (reader.pos !== delta.length) throw new DeltaError('bytes follow the end of the delta');
      if (deltaChecksum(out) !== count) throw new DeltaError('the delta checksum does not match');
      return out;
    } else {
      throw new DeltaError(`unknown delta command at byte ${reader.pos - 1}`);
    }
  }
  throw new DeltaError('the delta is truncated');
}
