import { describe, expect, it } from 'vitest';
import { WriteBuffer } from '../../src/storage/sqlite/vfs/coalescing-vfs';
import { createRandom } from '../helpers/random';

describe('WriteBuffer (pending writes of one file)', () => {
  it('matches a plain byte array under random overlapping, adjacent and appending writes', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const random = createRandom(seed, 'xorshift32');
      const size = 1 << 16;
      const model = new Int16Array(size).fill(-1); // -1: never written
      const buffer = new WriteBuffer();
      for (let w = 0; w < 200; w++) {
        const r = random.next();
        // Journal-like appends, page-aligned pages, and arbitrary small writes.
        const offset = r < 0.3 ? buffer.end : r < 0.7 ? random.int(0, 15) * 4096 : random.int(0, size - 5000);
        const length = r < 0.7 ? [4, 4096, 4][w % 3]! : random.int(1, 5001);
        if (offset + length > size) continue;
        const data = random.bytes(length);
        buffer.write(offset, data);
        model.set(data, offset);
      }
      // Extents: sorted, disjoint, not adjacent, and exactly the written bytes.
      let previousEnd = -1;
      let bytes = 0;
      for (const extent of buffer.extents) {
        expect(extent.start).toBeGreaterThan(previousEnd);
        previousEnd = extent.start + extent.length;
        bytes += extent.length;
        let mismatches = 0;
        for (let i = 0; i < extent.length; i++) if (extent.bytes[i] !== model[extent.start + i]) mismatches++;
        expect(mismatches).toBe(0);
      }
      expect(buffer.bytes).toBe(bytes);
      expect(model.filter((b) => b !== -1).length).toBe(bytes);
      // Overlay onto "file bytes" (0xee) reads back the model; covers() only when one extent holds the range.
      for (let q = 0; q < 50; q++) {
        const offset = random.int(0, size - 9000);
        const target = new Uint8Array(random.int(1, 9001)).fill(0xee);
        const { covered } = buffer.overlay(offset, target);
        let mismatches = 0;
        let whole = true;
        for (let i = 0; i < target.length; i++) {
          const b = model[offset + i]!;
          if (target[i] !== (b === -1 ? 0xee : b)) mismatches++;
          if (b === -1) whole = false;
        }
        expect(mismatches).toBe(0);
        // Extents never touch, so a fully written range is always inside one extent.
        expect(buffer.covers(offset, target.length)).toBe(whole);
        expect(covered).toBe(whole);
      }
      const drained = buffer.drain();
      expect(drained.length).toBeGreaterThan(0);
      expect(buffer.isEmpty).toBe(true);
      expect(buffer.bytes).toBe(0);
    }
  });

  it('grows an appended run in place: a journal of 3 writes per page is one extent', () => {
    const buffer = new WriteBuffer();
    let offset = 512;
    buffer.write(0, new Uint8Array(512).fill(1));
    for (let page = 0; page < 1000; page++) {
      for (const length of [4, 4096, 4]) {
        buffer.write(offset, new Uint8Array(length).fill(page & 0xff));
        offset += length;
      }
    }
    expect(buffer.extents).toHaveLength(1);
    expect(buffer.bytes).toBe(offset);
    expect(buffer.end).toBe(offset);
  });

  it('truncate forgets what is buffered at and past the cut, and keeps what is before it', () => {
    const buffer = new WriteBuffer();
    buffer.write(0, new Uint8Array(100).fill(1));
    buffer.write(200, new Uint8Array(100).fill(2));
    buffer.write(400, new Uint8Array(100).fill(3));
    buffer.truncate(250);
    expect(buffer.extents.map((e) => [e.start, e.length])).toEqual([
      [0, 100],
      [200, 50],
    ]);
    expect(buffer.bytes).toBe(150);
    expect(buffer.end).toBe(250);
    buffer.truncate(200);
    expect(buffer.extents.map((e) => [e.start, e.length])).toEqual([[0, 100]]);
    buffer.truncate(0);
    expect(buffer.isEmpty).toBe(true);
    expect(buffer.bytes).toBe(0);
    // A write after a cut extent grows it from its new end, not its old capacity.
    buffer.write(0, new Uint8Array(100).fill(4));
    buffer.truncate(50);
    buffer.write(50, new Uint8Array(10).fill(5));
    const target = new Uint8Array(70).fill(0xee);
    buffer.overlay(0, target);
    expect([target[49], target[50], target[59], target[60]]).toEqual([4, 5, 5, 0xee]);
  });

  it('restore puts drained extents back as they were (a flush that could not write them)', () => {
    const buffer = new WriteBuffer();
    buffer.write(0, new Uint8Array(10).fill(1));
    buffer.write(100, new Uint8Array(10).fill(2));
    const drained = buffer.drain();
    buffer.restore(drained.slice(1));
    expect(buffer.extents.map((e) => [e.start, e.length])).toEqual([[100, 10]]);
    expect(buffer.bytes).toBe(10);
    expect(() => buffer.restore(drained.slice(0, 1))).toThrow(/not empty/);
  });
});
