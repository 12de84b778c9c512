/**
 * The bounded entry reader's head check: the caller sees exactly an entry's first bytes before the buffer of its
 * declared size is allocated, whatever writes carry the output past them.
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { listZipEntries } from '../../src/storage/archive/zip-directory';
import { readEntryBytes } from '../../src/storage/archive/zip-entry';
import { zipOf } from '../fixtures/zip-bombs';

describe('an entry read with a head check', () => {
  it('sees exactly its first bytes, even when a copy carries the output past them, then the whole entry', () => {
    // zlib writes 1,000 zeros as one literal and copies of 258: the first copy crosses byte 100.
    const zip = zipOf([{ name: 'zeros', data: zlib.deflateRawSync(new Uint8Array(1000)), size: 1000 }]);
    const [entry] = listZipEntries(zip);
    const heads: number[] = [];
    const bytes = readEntryBytes(zip, entry!, { bytes: 100, check: (head) => heads.push(head.byteLength) });
    expect(heads).toEqual([100]);
    expect(bytes.byteLength).toBe(1000);
    expect(bytes.every((byte) => byte === 0)).toBe(true);
    // Shorter than the head: checked once, on all of it.
    const short = zipOf([{ name: 'short', data: zlib.deflateRawSync(new Uint8Array(40)), size: 40 }]);
    heads.length = 0;
    readEntryBytes(short, listZipEntries(short)[0]!, {
      bytes: 100,
      check: (head) => heads.push(head.byteLength),
    });
    expect(heads).toEqual([40]);
  });
});
