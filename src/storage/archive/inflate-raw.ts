/**
 * Raw DEFLATE (RFC 1951) decoded straight into a buffer the caller sizes, stopping the moment the output would
 * pass what the caller allows. fflate's streaming inflater hands out every push's output as fresh buffers (and
 * grows its own by doubling): three to four times the output in garbage, which a busy worker does not collect
 * before it has inflated a large entry, so a bounded read of a legitimate 1 GiB entry would cost several GiB.
 * This decoder allocates nothing per block beyond its code tables and writes each byte once, where it stays.
 *
 * It is given the whole compressed entry (a zip in memory), so it needs no resumable state. Malformed or
 * truncated data throws `InflateError`: bits read past the data's end are zeros it then refuses as a truncation,
 * writes stay inside `out`, and no code can make it loop. Its speed is fflate's `inflateSync` or better.
 */

export class InflateError extends Error {}

/**
 * Called when the output does not fit `out`: `written` is what it holds so far, `required` the size the next write
 * needs. Returns a larger buffer holding `written`, or null to stop there (the caller's bound); it may also throw,
 * which stops inflating with the caller's error.
 */
export type Grow = (written: Uint8Array, required: number) => Uint8Array | null;

export interface Inflated {
  readonly out: Uint8Array;
  /** Bytes written into `out`. */
  readonly length: number;
  /** False when `grow` stopped it: the data holds more than `length` bytes. */
  readonly complete: boolean;
}

const LENGTH_BASE = new Uint16Array([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
  227, 258,
]);
const LENGTH_EXTRA = new Uint8Array([
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
]);
const DISTANCE_BASE = new Uint16Array([
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
  6145, 8193, 12289, 16385, 24577,
]);
const DISTANCE_EXTRA = new Uint8Array([
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
]);
/** The order code-length code lengths are sent in. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/**
 * A canonical Huffman code as a lookup table over its longest code's worth of upcoming bits (codes arrive most
 * significant bit first, so each is entered bit-reversed): entry = symbol << 4 | code length; 0 where no code
 * starts (an incomplete code), which the decoder refuses. An over-subscribed code is refused here.
 */
interface Code {
  readonly table: Uint16Array;
  readonly bits: number;
}

function buildCode(lengths: Uint8Array): Code {
  const counts = new Uint16Array(16);
  let bits = 0;
  for (const length of lengths) {
    counts[length]!++;
    if (length > bits) bits = length;
  }
  counts[0] = 0;
  const next = new Uint16Array(16);
  for (let length = 1, code = 0, left = 1; length <= 15; length++) {
    left = (left << 1) - counts[length]!;
    if (left < 0) throw new InflateError('a Huffman code is over-subscribed');
    next[length] = code;
    code = (code + counts[length]!) << 1;
  }
  const table = new Uint16Array(1 << bits);
  for (let symbol = 0; symbol < lengths.length; symbol++) {
    const length = lengths[symbol]!;
    if (!length) continue;
    const code = next[length]!++;
    let reversed = 0;
    for (let i = 0; i < length; i++) reversed |= ((code >> i) & 1) << (length - 1 - i);
    for (let at = reversed; at < table.length; at += 1 << length) table[at] = (symbol << 4) | length;
  }
  return { table, bits };
}

let fixed: { readonly literals: Code; readonly distances: Code } | null = null;
function fixedCodes() {
  if (!fixed) {
    const literals = new Uint8Array(288);
    literals.fill(8, 0, 144).fill(9, 144, 256).fill(7, 256, 280).fill(8, 280, 288);
    fixed = { literals: buildCode(literals), distances: buildCode(new Uint8Array(30).fill(5)) };
  }
  return fixed;
}

/** Reads `data` least-significant bit first at `state.pos`; reading past its end is refused as a truncation. */
function bitReader(data: Uint8Array, state: { pos: number }) {
  const end = data.byteLength * 8;
  const peek = () => {
    const o = state.pos >> 3;
    return (data[o]! | (data[o + 1]! << 8) | (data[o + 2]! << 16)) >>> (state.pos & 7);
  };
  const advance = (count: number) => {
    state.pos += count;
    if (state.pos > end) throw truncated();
  };
  return {
    bits(count: number): number {
      const value = peek() & ((1 << count) - 1);
      advance(count);
      return value;
    },
    symbol({ table, bits }: Code): number {
      const entry = table[peek() & ((1 << bits) - 1)]!;
      if (!(entry & 15)) throw new InflateError('the data holds a code its Huffman table does not have');
      advance(entry & 15);
      return entry >> 4;
    },
    /** Skips to the next byte; returns where it is. */
    align(): number {
      state.pos = (state.pos + 7) & ~7;
      return state.pos >> 3;
    },
    skipBytes(count: number) {
      advance(count * 8);
    },
  };
}

type Bits = ReturnType<typeof bitReader>;

/** A dynamic block's header: its literal/length and distance codes, sent as run-length coded code lengths. */
function dynamicCodes(bits: Bits): { literals: Code; distances: Code } {
  const literalCount = bits.bits(5) + 257;
  const distanceCount = bits.bits(5) + 1;
  const lengthCodeCount = bits.bits(4) + 4;
  if (literalCount > 286 || distanceCount > 30) throw new InflateError('a block declares too many codes');
  const lengthLengths = new Uint8Array(19);
  for (let i = 0; i < lengthCodeCount; i++) lengthLengths[CODE_LENGTH_ORDER[i]!] = bits.bits(3);
  const lengthCode = buildCode(lengthLengths);
  const lengths = new Uint8Array(literalCount + distanceCount);
  for (let i = 0; i < lengths.length;) {
    const symbol = bits.symbol(lengthCode);
    if (symbol < 16) {
      lengths[i++] = symbol;
      continue;
    }
    let repeat: number;
    let value = 0;
    if (symbol === 16) {
      if (i === 0) throw new InflateError('a code length repeats before the first');
      value = lengths[i - 1]!;
      repeat = 3 + bits.bits(2);
    } else repeat = symbol === 17 ? 3 + bits.bits(3) : 11 + bits.bits(7);
    if (i + repeat > lengths.length) throw new InflateError('code lengths run past the codes');
    lengths.fill(value, i, i + repeat);
    i += repeat;
  }
  if (!lengths[256]) throw new InflateError('a block has no end-of-block code');
  return {
    literals: buildCode(lengths.subarray(0, literalCount)),
    distances: buildCode(lengths.subarray(literalCount)),
  };
}

/** Where decoding is: the bit position in the data, and the output so far. */
interface State {
  pos: number;
  out: Uint8Array;
  length: number;
}

/** Makes room in `state.out` for `needed` more bytes; false when `grow` says stop. */
function room(state: State, needed: number, grow: Grow): boolean {
  while (state.length + needed > state.out.byteLength) {
    const larger = grow(state.out.subarray(0, state.length), state.length + needed);
    if (!larger) return false;
    // A buffer no larger would ask again for ever.
    if (larger.byteLength <= state.out.byteLength) throw new RangeError('grow must return a larger buffer');
    state.out = larger;
  }
  return true;
}

/**
 * Decodes one Huffman-coded block's symbols into `state` (the hot loop: bits read inline, locals only); false
 * when `grow` stopped it.
 */
function huffmanBlock(data: Uint8Array, state: State, literals: Code, distances: Code, grow: Grow): boolean {
  const end = data.byteLength * 8;
  const literalTable = literals.table;
  const literalMask = (1 << literals.bits) - 1;
  const distanceTable = distances.table;
  const distanceMask = (1 << distances.bits) - 1;
  // Locals, not the state's fields (nor a closure over them), so the loop keeps them in registers.
  let pos = state.pos;
  let out = state.out;
  let length = state.length;
  let capacity = out.byteLength;
  for (;;) {
    let o = pos >> 3;
    const entry =
      literalTable[((data[o]! | (data[o + 1]! << 8) | (data[o + 2]! << 16)) >>> (pos & 7)) & literalMask]!;
    pos += entry & 15;
    if (!(entry & 15)) throw new InflateError('the data holds a code its Huffman table does not have');
    if (pos > end) throw truncated();
    const symbol = entry >> 4;
    if (symbol < 256) {
      if (length === capacity) {
        state.pos = pos;
        state.length = length;
        if (!room(state, 1, grow)) return false;
        out = state.out;
        capacity = out.byteLength;
      }
      out[length++] = symbol;
      continue;
    }
    if (symbol === 256) break;
    const lengthCode = symbol - 257;
    if (lengthCode >= 29) throw new InflateError('the data holds an invalid length code');
    o = pos >> 3;
    let word = (data[o]! | (data[o + 1]! << 8) | (data[o + 2]! << 16)) >>> (pos & 7);
    const lengthExtra = LENGTH_EXTRA[lengthCode]!;
    const count = LENGTH_BASE[lengthCode]! + (word & ((1 << lengthExtra) - 1));
    pos += lengthExtra;
    o = pos >> 3;
    word = (data[o]! | (data[o + 1]! << 8) | (data[o + 2]! << 16)) >>> (pos & 7);
    const distanceEntry = distanceTable[word & distanceMask]!;
    if (!(distanceEntry & 15))
      throw new InflateError('the data holds a code its Huffman table does not have');
    pos += distanceEntry & 15;
    const distanceCode = distanceEntry >> 4;
    if (distanceCode >= 30) throw new InflateError('the data holds an invalid distance code');
    o = pos >> 3;
    word = (data[o]! | (data[o + 1]! << 8) | (data[o + 2]! << 16)) >>> (pos & 7);
    const distanceExtra = DISTANCE_EXTRA[distanceCode]!;
    const distance = DISTANCE_BASE[distanceCode]! + (word & ((1 << distanceExtra) - 1));
    pos += distanceExtra;
    if (pos > end) throw truncated();
    if (distance > length) throw new InflateError('the data refers back past its start');
    if (length + count > capacity) {
      state.pos = pos;
      state.length = length;
      if (!room(state, count, grow)) return false;
      out = state.out;
      capacity = out.byteLength;
    }
    // A copy may overlap what it writes (a run repeats): only a far enough one can move as a block.
    const from = length - distance;
    if (distance === 1) out.fill(out[from]!, length, length + count);
    else if (count <= distance && count > 32) out.copyWithin(length, from, from + count);
    else {
      // Four at a time (fflate's trick): a byte or three past the copy may be written, to be overwritten later.
      const stop = length + count;
      for (let i = length; i < stop; i += 4) {
        out[i] = out[i - distance]!;
        out[i + 1] = out[i + 1 - distance]!;
        out[i + 2] = out[i + 2 - distance]!;
        out[i + 3] = out[i + 3 - distance]!;
      }
    }
    length += count;
  }
  state.pos = pos;
  state.length = length;
  return true;
}

const truncated = () => new InflateError('the data ends in the middle of a block');

/** Inflates all of `data` into `out` (grown by `grow`). Throws InflateError when the data is not valid DEFLATE. */
export function inflateRaw(data: Uint8Array, out: Uint8Array, grow: Grow): Inflated {
  const state: State = { pos: 0, out, length: 0 };
  const bits = bitReader(data, state);
  for (let final = 0; !final;) {
    final = bits.bits(1);
    const type = bits.bits(2);
    if (type === 0) {
      const at = bits.align();
      bits.skipBytes(4);
      const size = data[at]! | (data[at + 1]! << 8);
      if (size !== (~(data[at + 2]! | (data[at + 3]! << 8)) & 0xffff))
        throw new InflateError('a stored block has a damaged length');
      bits.skipBytes(size);
      if (!room(state, size, grow)) return { out: state.out, length: state.length, complete: false };
      state.out.set(data.subarray(at + 4, at + 4 + size), state.length);
      state.length += size;
      continue;
    }
    if (type === 3) throw new InflateError('the data holds an invalid block type');
    const { literals, distances } = type === 1 ? fixedCodes() : dynamicCodes(bits);
    if (!huffmanBlock(data, state, literals, distances, grow))
      return { out: state.out, length: state.length, complete: false };
  }
  return { out: state.out, length: state.length, complete: true };
}
