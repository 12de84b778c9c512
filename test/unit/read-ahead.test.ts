import { describe, expect, it } from 'vitest';
import { ReadAhead } from '../../src/storage/sqlite/vfs/read-ahead';
import { createRandom } from '../helpers/random';

/** A file of `size` deterministic bytes, and a ReadAt over it that counts its calls. */
function fileOf(size: number) {
  const random = createRandom(size, 'xorshift32');
  const bytes = Uint8Array.from({ length: size }, () => random.uint32() & 0xff);
  const calls: number[] = [];
  const readAt = (into: Uint8Array, at: number) => {
    calls.push(at);
    const part = bytes.subarray(Math.min(at, size), Math.min(at + into.byteLength, size));
    into.set(part);
    return part.byteLength;
  };
  return { bytes, calls, readAt };
}

describe('ReadAhead', () => {
  it('serves any range, across chunk borders, byte for byte, reading each chunk once', () => {
    const file = fileOf(10_000);
    const ahead = new ReadAhead({ chunkBytes: 1024, maxChunks: 16 });
    const random = createRandom(7, 'xorshift32');
    for (let i = 0; i < 300; i++) {
      const offset = random.uint32() % 9_000;
      const target = new Uint8Array(1 + (random.uint32() % 1000));
      expect(ahead.read(target, offset, file.readAt)).toBe(true);
      expect(target).toEqual(file.bytes.subarray(offset, offset + target.byteLength));
    }
    // Ten chunks in all, each read once (16 kept: nothing evicted).
    expect(file.calls.sort((a, b) => a - b)).toEqual([...new Set(file.calls)]);
    expect(ahead.reads).toBe(file.calls.length);
    expect(ahead.reads).toBeLessThanOrEqual(10);
  });

  it('a read past the end is short: false, and the part past the end zeroed', () => {
    const file = fileOf(2_500);
    const ahead = new ReadAhead({ chunkBytes: 1024 });
    const target = new Uint8Array(1000).fill(0xee);
    expect(ahead.read(target, 2_000, file.readAt)).toBe(false);
    expect(target.subarray(0, 500)).toEqual(file.bytes.subarray(2_000));
    expect(target.subarray(500).every((b) => b === 0)).toBe(true);
    // Wholly past the end.
    const beyond = new Uint8Array(100).fill(0xee);
    expect(ahead.read(beyond, 5_000, file.readAt)).toBe(false);
    expect(beyond.every((b) => b === 0)).toBe(true);
    // Ending exactly at the end is whole.
    const last = new Uint8Array(500);
    expect(ahead.read(last, 2_000, file.readAt)).toBe(true);
    expect(last).toEqual(file.bytes.subarray(2_000));
  });

  it('keeps at most maxChunks, the least recently used going first, and forgets all on clear()', () => {
    const file = fileOf(8 * 1024);
    const ahead = new ReadAhead({ chunkBytes: 1024, maxChunks: 2 });
    const one = new Uint8Array(10);
    ahead.read(one, 0, file.readAt); // chunk 0
    ahead.read(one, 1024, file.readAt); // chunk 1
    ahead.read(one, 5, file.readAt); // chunk 0 again: kept, now the most recent
    ahead.read(one, 2048, file.readAt); // chunk 2: chunk 1 goes
    expect(ahead.size).toBe(2);
    expect(file.calls).toEqual([0, 1024, 2048]);
    ahead.read(one, 0, file.readAt); // still kept
    ahead.read(one, 1024, file.readAt); // read again
    expect(file.calls).toEqual([0, 1024, 2048, 1024]);
    ahead.clear();
    expect(ahead.size).toBe(0);
    ahead.read(one, 0, file.readAt);
    expect(file.calls.at(-1)).toBe(0);
  });
});
