/**
 * The archive's raw-DEFLATE decoder against zlib (node's) and fflate as encoders: every block type, level and
 * strategy, sizes around the stored-block and window limits; truncated and corrupted data refused, never read or
 * written out of bounds, never looping; the caller's bound stops it exactly there.
 */
import { deflateSync } from 'fflate';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InflateError, inflateRaw } from '../../src/storage/archive/inflate-raw';
import { deflatedZeros } from '../fixtures/zip-bombs';
import { createRandom } from '../helpers/random';

const random = createRandom(13);

function sample(kind: 'text' | 'random' | 'runs' | 'binary', size: number): Uint8Array {
  const out = new Uint8Array(size);
  const words = ['const ', 'return ', 'export ', '(a, b) => ', '{\n', '}\n', ' = ', ';\n', 'await ', '\t'];
  for (let at = 0; at < size;) {
    if (kind === 'text') {
      const word = random.pick(words);
      for (let i = 0; i < word.length && at < size; i++) out[at++] = word.charCodeAt(i);
    } else if (kind === 'runs') {
      const byte = random.int(0, 4);
      for (let n = random.int(0, 600); n > 0 && at < size; n--) out[at++] = byte;
    } else if (kind === 'binary') out[at++] = random.int(0, 256);
    else out[at++] = random.int(97, 117);
  }
  return out;
}

const inflate = (data: Uint8Array, size: number) => {
  const result = inflateRaw(data, new Uint8Array(size), () => null);
  expect(result.complete).toBe(true);
  return result.out.subarray(0, result.length);
};

describe('inflateRaw', () => {
  it('decodes what zlib and fflate encode, byte for byte', () => {
    const { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED } = zlib.constants;
    const sizes = [0, 1, 2, 3, 257, 258, 259, 32_767, 32_768, 32_769, 65_535, 65_536, 200_003];
    for (const kind of ['text', 'random', 'runs', 'binary'] as const) {
      for (const size of sizes) {
        const raw = sample(kind, size);
        const encodings: [string, Uint8Array][] = [
          ['fflate 6', deflateSync(raw, { level: 6 })],
          ['fflate 0', deflateSync(raw, { level: 0 })],
        ];
        for (const level of [0, 1, 6, 9])
          encodings.push([`zlib ${level}`, zlib.deflateRawSync(raw, { level })]);
        for (const strategy of [Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED])
          encodings.push([`zlib strategy ${strategy}`, zlib.deflateRawSync(raw, { strategy })]);
        for (const [how, data] of encodings) {
          expect(Buffer.from(inflate(data, size)).equals(Buffer.from(raw)), `${kind} ${size} ${how}`).toBe(
            true,
          );
        }
      }
    }
    // Several stored blocks in a row, and the hand-built bombs' dynamic blocks.
    const big = sample('binary', 3 * 65_536 + 5);
    expect(Buffer.from(inflate(zlib.deflateRawSync(big, { level: 0 }), big.length)).equals(big)).toBe(true);
    expect(inflate(deflatedZeros(1_000_000), 1_000_000).every((b) => b === 0)).toBe(true);
  });

  it('refuses every truncation and garbage, without looping or writing past its buffer', () => {
    const raw = sample('text', 20_000);
    const data = zlib.deflateRawSync(raw);
    for (let cut = 0; cut < data.length; cut += cut < 64 ? 1 : 97) {
      expect(
        () => inflateRaw(data.subarray(0, cut), new Uint8Array(raw.length), () => null),
        `${cut}`,
      ).toThrow(InflateError);
    }
    let refused = 0;
    for (let round = 0; round < 400; round++) {
      const damaged = data.slice();
      for (let flips = random.int(1, 4); flips > 0; flips--) {
        damaged[random.int(0, damaged.length)]! ^= 1 << random.int(0, 8);
      }
      try {
        const result = inflateRaw(damaged, new Uint8Array(raw.length), () => null);
        expect(result.length).toBeLessThanOrEqual(raw.length);
      } catch (error) {
        expect(error).toBeInstanceOf(InflateError);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(100);
    for (let round = 0; round < 200; round++) {
      const noise = random.bytes(random.int(1, 4000));
      try {
        inflateRaw(noise, new Uint8Array(10_000), () => null);
      } catch (error) {
        expect(error).toBeInstanceOf(InflateError);
      }
    }
  });

  it('stops where the caller says, having written nothing past it', () => {
    const raw = sample('runs', 100_000);
    for (const data of [
      zlib.deflateRawSync(raw),
      zlib.deflateRawSync(raw, { level: 0 }),
      deflatedZeros(100_000),
    ]) {
      const grows: number[] = [];
      let capacity = 1000;
      const result = inflateRaw(data, new Uint8Array(capacity), (written, required) => {
        grows.push(required);
        if (capacity === 50_000) return null;
        capacity = 50_000;
        const larger = new Uint8Array(capacity);
        larger.set(written);
        return larger;
      });
      expect(result.complete).toBe(false);
      expect(result.out.byteLength).toBe(50_000);
      expect(result.length).toBeLessThanOrEqual(50_000);
      expect(grows).toHaveLength(2);
      expect(grows[0]).toBeGreaterThan(1000);
      expect(grows[1]).toBeGreaterThan(50_000);
    }
    // A grow that throws stops it with the caller's error; one that does not grow is a mistake, not a loop.
    const stop = new Error('refused by its first bytes');
    expect(() =>
      inflateRaw(zlib.deflateRawSync(raw), new Uint8Array(100), () => {
        throw stop;
      }),
    ).toThrow(stop);
    expect(() =>
      inflateRaw(zlib.deflateRawSync(raw), new Uint8Array(100), (written) => written.slice()),
    ).toThrow(RangeError);
  });
});
