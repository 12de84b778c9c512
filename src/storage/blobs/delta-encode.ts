import { deltaChecksum } from './delta';

/**
 * Fossil-format delta encoder on typed arrays: the algorithm of Fossil's `delta_create` (a rolling hash over
 * 16-byte blocks of the base, greedy longest match with a 250-candidate limit), writing into one growing byte
 * buffer instead of a JS array of numbers. Output is a valid Fossil delta that `applyDelta` (and the
 * `fossil-delta` package) decode.
 */
const NHASH = 16;
const DIGITS = new TextEncoder().encode('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~');

class Output {
  bytes: Uint8Array;
  length = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(64, capacity));
  }
  private ensure(extra: number) {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
  byte(value: number) {
    this.ensure(1);
    this.bytes[this.length++] = value;
  }
  int(value: number) {
    this.ensure(8);
    if (value === 0) {
      this.bytes[this.length++] = 48;
      return;
    }
    let digits = 0;
    for (let v = value; v > 0; v = Math.floor(v / 64)) digits++;
    for (let i = digits - 1, v = value; i >= 0; i--, v = Math.floor(v / 64))
      this.bytes[this.length + i] = DIGITS[v % 64] as number;
    this.length += digits;
  }
  copy(source: Uint8Array, start: number, end: number) {
    this.ensure(end - start);
    this.bytes.set(source.subarray(start, end), this.length);
    this.length += end - start;
  }
}

function digitCount(value: number): number {
  let count = 1;
  for (let limit = 64; value >= limit; count++, limit *= 64);
  return count;
}

/** A delta that turns `base` into `target`. */
export function createDelta(base: Uint8Array, target: Uint8Array): Uint8Array {
  const out = new Output(Math.min(target.length + 64, 1 << 16));
  const lenOut = target.length;
  const lenSrc = base.length;
  out.int(lenOut);
  out.byte(10);
  if (lenSrc <= NHASH) {
    if (lenOut > 0) {
      out.int(lenOut);
      out.byte(58);
      out.copy(target, 0, lenOut);
    }
    out.int(deltaChecksum(target));
    out.byte(59);
    return out.bytes.slice(0, out.length);
  }
  // Hash table over the base's 16-byte blocks: landmark[h] = newest block with hash h, collide = chain.
  const nHash = Math.ceil(lenSrc / NHASH);
  const collide = new Int32Array(nHash).fill(-1);
  const landmark = new Int32Array(nHash).fill(-1);
  for (let i = 0; i + NHASH < lenSrc; i += NHASH) {
    const h = hashAt(base, i) % nHash;
    collide[i / NHASH] = landmark[h] as number;
    landmark[h] = i / NHASH;
  }
  let start = 0;
  // Rolling hash state over target[start + i .. start + i + 16).
  const window = new Uint8Array(NHASH);
  while (start + NHASH < lenOut) {
    let a = 0;
    let b = 0;
    for (let k = 0; k < NHASH; k++) {
      const x = target[start + k] as number;
      a = (a + x) & 0xffff;
      b = (b + (NHASH - k) * x) & 0xffff;
      window[k] = x;
    }
    let wi = 0;
    let i = 0;
    let bestCount = 0;
    let bestOffset = 0;
    let bestLiteral = 0;
    for (;;) {
      let limit = 250;
      let block = landmark[((a | (b << 16)) >>> 0) % nHash] as number;
      while (block >= 0 && limit-- > 0) {
        const srcStart = block * NHASH;
        let j = 0;
        for (let x = srcStart, y = start + i; x < lenSrc && y < lenOut && base[x] === target[y]; x++, y++)
          j++;
        j--;
        let k = 1;
        for (; k < srcStart && k <= i; k++) if (base[srcStart - k] !== target[start + i - k]) break;
        k--;
        const offset = srcStart - k;
        const count = j + k + 1;
        const literal = i - k;
        const cost = digitCount(i - k) + digitCount(count) + digitCount(offset) + 3;
        if (count >= cost && count > bestCount) {
          bestCount = count;
          bestOffset = offset;
          bestLiteral = literal;
        }
        block = collide[block] as number;
      }
      if (bestCount > 0) {
        if (bestLiteral > 0) {
          out.int(bestLiteral);
          out.byte(58);
          out.copy(target, start, start + bestLiteral);
          start += bestLiteral;
        }
        start += bestCount;
        out.int(bestCount);
        out.byte(64);
        out.int(bestOffset);
        out.byte(44);
        break;
      }
      if (start + i + NHASH >= lenOut) {
        out.int(lenOut - start);
        out.byte(58);
        out.copy(target, start, lenOut);
        start = lenOut;
        break;
      }
      // Roll the hash one byte forward.
      const old = window[wi] as number;
      const next = target[start + i + NHASH] as number;
      window[wi] = next;
      wi = (wi + 1) & (NHASH - 1);
      a = (a - old + next) & 0xffff;
      b = (b - NHASH * old + a) & 0xffff;
      i++;
    }
  }
  if (start < lenOut) {
    out.int(lenOut - start);
    out.byte(58);
    out.copy(target, start, lenOut);
  }
  out.int(deltaChecksum(target));
  out.byte(59);
  return out.bytes.slice(0, out.length);
}

function hashAt(bytes: Uint8Array, at: number): number {
  let a = 0;
  let b = 0;
  for (let k = 0; k < NHASH; k++) {
    const x = bytes[at + k] as number;
    a = (a + x) & 0xffff;
    b = (b + (NHASH - k) * x) & 0xffff;
  }
  return (a | (b << 16)) >>> 0;
}
