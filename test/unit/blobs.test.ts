import { deflateSync, inflateSync } from 'node:zlib';
import { zlibSync } from 'fflate';
import { applyDelta as fossilApply, createDelta as fossilCreate } from 'fossil-delta';
import { describe, expect, it } from 'vitest';
import { createBodyCache } from '../../src/storage/blobs/cache';
import { adler32, crc32 } from '../../src/storage/blobs/checksums';
import { BodyDefect, decodeBody, encodeBody, type EncodedBody } from '../../src/storage/blobs/codec';
import { applyDelta, DeltaError } from '../../src/storage/blobs/delta';
import { createDelta } from '../../src/storage/blobs/delta-encode';
import { createHash } from 'node:crypto';
import { sha256, toHex } from '../../src/storage/blobs/sha256';
import { bytesToText, looksBinary, textToBytes } from '../../src/storage/blobs/text';
import {
  deflate,
  inflateBounded,
  inflateBoundedFast,
  InflateError,
  STORED_BELOW,
} from '../../src/storage/blobs/zlib';
import { createRandom } from '../helpers/random';

/** The same seed, the same bytes. */
const randomBytes = (length: number, seed: number): Uint8Array => createRandom(seed, 'lcg').bytes(length);

/** Source-like text: repetitive enough to compress and to delta well. */
function sourceText(lines: number, seed: number): string {
  const random = createRandom(seed, 'lcg');
  return Array.from(
    { length: lines },
    (_, i) => `  const value${i} = compute(${random.int(0, 1000)}, 'item-${i % 37}');`,
  ).join('\n');
}

/** A new version of `bytes`: a few random replacements, insertions and deletions. */
function edit(bytes: Uint8Array, seed: number, edits = 5): Uint8Array {
  const random = createRandom(seed, 'lcg');
  const out = Array.from(bytes);
  for (let e = 0; e < edits; e++) {
    const at = random.int(0, out.length + 1);
    const kind = random.int(0, 3);
    const insert = Array.from(randomBytes(random.int(1, 41), seed + e));
    if (kind === 0) out.splice(at, random.int(0, 30), ...insert);
    else if (kind === 1) out.splice(at, 0, ...insert);
    else out.splice(at, random.int(0, 60));
  }
  return Uint8Array.from(out);
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function expectDefect(fn: () => Promise<unknown>, kinds?: BodyDefect['kind'][]) {
  return expect(
    fn().then(
      () => 'decoded',
      (error: unknown) =>
        error instanceof BodyDefect
          ? kinds === undefined || kinds.includes(error.kind)
            ? 'refused'
            : error.kind
          : String(error),
    ),
  ).resolves.toBe('refused');
}

describe('checksums', () => {
  it('computes CRC-32 and Adler-32 as zip and zlib do', () => {
    expect(crc32(utf8('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
    expect(adler32(utf8('Wikipedia'))).toBe(0x11e60398);
    // zlib's own trailer is the Adler-32 of the input, big-endian.
    const data = randomBytes(100_003, 1);
    const stream = deflateSync(data);
    expect(adler32(data)).toBe(stream.readUInt32BE(stream.length - 4));
  });

  it('CRC-32 changes for every single-byte change', () => {
    const data = randomBytes(257, 2);
    const base = crc32(data);
    for (let i = 0; i < data.length; i++) {
      for (const mask of [0x01, 0x80, 0xff]) {
        const flipped = data.slice();
        flipped[i] = (flipped[i] as number) ^ mask;
        expect(crc32(flipped)).not.toBe(base);
      }
    }
  });
});

describe('Fossil deltas', () => {
  const pairs = (): [string, Uint8Array, Uint8Array][] => {
    const text = utf8(sourceText(400, 3));
    const binary = randomBytes(20_000, 4);
    return [
      ['text, small edits', text, edit(text, 5)],
      ['text, many edits', text, edit(text, 6, 200)],
      ['binary, small edits', binary, edit(binary, 7)],
      ['unrelated bodies', binary, randomBytes(5_000, 8)],
      ['base shorter than a hash window', utf8('tiny'), text],
      ['empty base', new Uint8Array(), text],
      ['empty target', text, new Uint8Array()],
      ['identical', text, text.slice()],
      ['repetitive', new Uint8Array(50_000).fill(7), new Uint8Array(60_000).fill(7)],
    ];
  };

  it('emits exactly the bytes fossil-delta emits, and either decoder reads the other', () => {
    for (const [name, base, target] of pairs()) {
      const ours = createDelta(base, target);
      expect(Array.from(ours), name).toEqual(Array.from(fossilCreate(base, target)));
      expect(Array.from(applyDelta(base, ours, target.length)), name).toEqual(Array.from(target));
      expect(Array.from(fossilApply(base, ours)), name).toEqual(Array.from(target));
    }
  });

  it('refuses every malformed or truncated delta instead of returning bytes', () => {
    const base = utf8(sourceText(100, 9));
    const target = edit(base, 10, 20);
    const delta = createDelta(base, target);
    expect(() => applyDelta(base, delta, target.length + 1)).toThrow(DeltaError);
    for (let cut = 0; cut < delta.length; cut++) {
      expect(() => applyDelta(base, delta.subarray(0, cut), target.length), `cut at ${cut}`).toThrow(
        DeltaError,
      );
    }
    expect(() => applyDelta(base, Uint8Array.from([...delta, 0x41]), target.length)).toThrow(DeltaError);
    // A copy past the end of the base, an insert past the end of the delta, a wrong checksum, an unknown op.
    const size = target.length.toString(36); // not fossil digits; only used to build bad inputs below
    expect(size).toBeTruthy();
    expect(() => applyDelta(utf8('abc'), utf8('3\n3@1,0;'), 3)).toThrow(/past the end of its base/);
    expect(() => applyDelta(utf8(''), utf8('5\n5:ab'), 5)).toThrow(/past the end of the delta/);
    expect(() => applyDelta(utf8(''), utf8('2\n2:ab0;'), 2)).toThrow(/checksum/);
    expect(() => applyDelta(utf8(''), utf8('2\n2!ab'), 2)).toThrow(/unknown delta command/);
    expect(() => applyDelta(utf8(''), utf8('\n'), 0)).toThrow(/number is missing/);
  });

  it('flipping any byte of a delta is refused or caught by its checksum', () => {
    const base = utf8(sourceText(60, 11));
    const target = edit(base, 12, 10);
    const delta = createDelta(base, target);
    for (let i = 0; i < delta.length; i++) {
      const flipped = delta.slice();
      flipped[i] = (flipped[i] as number) ^ 0xff;
      let result: Uint8Array | null = null;
      try {
        result = applyDelta(base, flipped, target.length);
      } catch (error) {
        expect(error).toBeInstanceOf(DeltaError);
      }
      if (result !== null) expect(Array.from(result), `flip at ${i}`).toEqual(Array.from(target));
    }
  });
});

describe('bounded inflate', () => {
  const raw = utf8(sourceText(2000, 13));
  const stream = zlibSync(raw, { level: 6 });

  for (const [name, inflate] of [
    ['fflate', async (s: Uint8Array, n: number, atMost?: boolean) => inflateBounded(s, n, atMost)],
    ['native for large streams', inflateBoundedFast],
  ] as const) {
    describe(name, () => {
      it('round-trips a stream of the declared size', async () => {
        expect(Array.from(await inflate(stream, raw.length))).toEqual(Array.from(raw));
        const big = randomBytes(300_000, 14);
        const bigStream = deflateSync(big);
        expect(bigStream.length).toBeGreaterThan(64 * 1024);
        expect(Array.from(await inflate(bigStream, big.length))).toEqual(Array.from(big));
      });

      it('refuses a stream that yields more or fewer bytes than declared', async () => {
        await expect(inflate(stream, raw.length - 1)).rejects.toMatchObject({ kind: 'bomb' });
        await expect(inflate(stream, raw.length + 1)).rejects.toMatchObject({ kind: 'truncated' });
        expect((await inflate(stream, raw.length + 100, true)).length).toBe(raw.length);
      });

      it('refuses every truncation of a stream', async () => {
        const cuts = new Set([0, 1, 2, 3, 6, 7, stream.length - 5, stream.length - 4, stream.length - 1]);
        for (let cut = 8; cut < stream.length - 4; cut += 97) cuts.add(cut);
        for (const cut of cuts) {
          await expect(inflate(stream.subarray(0, cut), raw.length), `cut at ${cut}`).rejects.toBeInstanceOf(
            InflateError,
          );
        }
      });

      it('refuses preset dictionaries, foreign headers and a wrong Adler-32', async () => {
        const withDictionary = zlibSync(raw, { level: 6, dictionary: raw.subarray(0, 100) });
        await expect(inflate(withDictionary, raw.length)).rejects.toThrow(/dictionary/);
        const badHeader = stream.slice();
        badHeader[0] = 0x58;
        await expect(inflate(badHeader, raw.length)).rejects.toThrow(/header/);
        const badTrailer = stream.slice();
        badTrailer[badTrailer.length - 1] = (badTrailer[badTrailer.length - 1] as number) ^ 1;
        await expect(inflate(badTrailer, raw.length)).rejects.toThrow(/Adler-32/);
      });
    });
  }

  it('refuses a zlib bomb early, without allocating what it would inflate to', async () => {
    // 8 KiB that inflate to 8 MiB: small enough for the fixed-buffer path (at most rawSize + 1 bytes, ever).
    const small = deflateSync(new Uint8Array(8 << 20), { level: 9 });
    expect(small.length).toBeLessThan(64 * 1024);
    await expect(Promise.resolve().then(() => inflateBounded(small, 1000))).rejects.toMatchObject({
      kind: 'bomb',
    });
    // ~256 KiB that inflate to 256 MiB: chunked (fflate) or native; both stop at the first excess chunk.
    const huge = deflateSync(new Uint8Array(256 << 20), { level: 9 });
    expect(huge.length).toBeGreaterThan(64 * 1024);
    for (const inflate of [inflateBounded, inflateBoundedFast]) {
      let peak = 0;
      const before = process.memoryUsage().arrayBuffers;
      const timer = setInterval(
        () => (peak = Math.max(peak, process.memoryUsage().arrayBuffers - before)),
        1,
      );
      await expect(Promise.resolve().then(() => inflate(huge, 1 << 20))).rejects.toMatchObject({
        kind: 'bomb',
      });
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
      expect(peak).toBeLessThan(96 << 20);
    }
  }, 60_000);
});

describe('deflate of a small body', () => {
  const small = utf8('@@ -3,1 +3,2 @@ a small delta of one edited line\n'.repeat(6));

  it('is one stored block below STORED_BELOW, a valid zlib stream any inflater reads', async () => {
    expect(small.length).toBeLessThan(STORED_BELOW);
    const stream = deflate(small);
    expect(stream.length).toBe(small.length + 11);
    expect(stream[2]).toBe(0x01);
    expect(Buffer.compare(inflateSync(stream), small)).toBe(0);
    expect(Buffer.compare(inflateBounded(stream, small.length), small)).toBe(0);
    const larger = utf8(sourceText(40, 3));
    expect(larger.length).toBeGreaterThanOrEqual(STORED_BELOW);
    expect(deflate(larger).length).toBeLessThan(larger.length / 2);
  });

  it('refuses a stored block whose padding, LEN or NLEN was changed, though the bytes would come out right', async () => {
    const stream = deflate(small);
    for (const [at, what] of [
      [2, 'padding'],
      [3, 'LEN'],
      [4, 'LEN'],
      [5, 'NLEN'],
      [6, 'NLEN'],
    ] as const) {
      for (const mask of [0x80, 0x10, 0x02]) {
        if (at === 2 && mask === 0x02) continue; // that bit is BTYPE: no longer a stored block (fflate refuses it)
        const damaged = stream.slice();
        damaged[at] = (damaged[at] as number) ^ mask;
        expect(() => inflateBounded(damaged, small.length), `${what} ^ ${mask}`).toThrow(InflateError);
      }
    }
  });
});

describe('body codec', () => {
  const text = utf8(sourceText(3000, 15));
  const next = edit(text, 16);

  it('chooses the smallest form: plain when tiny, zlib when alone, delta against a similar base', async () => {
    expect((await encodeBody(utf8('hi'), null)).codec).toBe('plain');
    expect((await encodeBody(randomBytes(5000, 17), null)).codec).toBe('plain');
    const alone = await encodeBody(text, null);
    expect(alone.codec).toBe('zlib');
    const delta = await encodeBody(next, text);
    expect(delta.codec).toBe('delta');
    expect(delta.stored.length).toBeLessThan(alone.stored.length / 10);
    // An unrelated base does not win against zlib.
    expect((await encodeBody(text, randomBytes(20_000, 18))).codec).toBe('zlib');
  });

  it('round-trips each codec, with and without bases', async () => {
    const cases: [Uint8Array, Uint8Array | null][] = [
      [new Uint8Array(), null],
      [utf8('x'), null],
      [text, null],
      [next, text],
      [randomBytes(70_000, 19), null],
      [edit(randomBytes(200_000, 20), 21), randomBytes(200_000, 20)],
    ];
    for (const [raw, base] of cases) {
      const encoded = await encodeBody(raw, base);
      const decoded = await decodeBody(
        { ...encoded, rawSize: raw.length, storedSize: encoded.stored.length },
        encoded.codec === 'delta' ? base : null,
      );
      expect(Array.from(decoded)).toEqual(Array.from(raw));
    }
  });

  it('detects a flip of every byte of a stored stream, for every codec', async () => {
    const bodies: [string, EncodedBody, Uint8Array, Uint8Array | null][] = [
      ['plain', await encodeBody(utf8('short plain body'), null), utf8('short plain body'), null],
      ['zlib', await encodeBody(utf8(sourceText(40, 22)), null), utf8(sourceText(40, 22)), null],
      ['delta', await encodeBody(next, text), next, text],
    ];
    for (const [codec, encoded, raw, base] of bodies) {
      expect(encoded.codec).toBe(codec);
      for (let i = 0; i < encoded.stored.length; i++) {
        for (const mask of [0x01, 0xff]) {
          const stored = encoded.stored.slice();
          stored[i] = (stored[i] as number) ^ mask;
          await expectDefect(
            () => decodeBody({ ...encoded, stored, rawSize: raw.length, storedSize: stored.length }, base),
            ['checksum'],
          );
        }
      }
    }
  });

  it('refuses absurd sizes, a missing base and a stored length that differs from the record', async () => {
    const encoded = await encodeBody(text, null);
    const body = { ...encoded, rawSize: text.length, storedSize: encoded.stored.length };
    await expectDefect(() => decodeBody({ ...body, rawSize: 2 ** 40 }, null), ['too-large']);
    await expectDefect(() => decodeBody({ ...body, storedSize: body.storedSize + 1 }, null), ['truncated']);
    const delta = await encodeBody(next, text);
    await expectDefect(
      () => decodeBody({ ...delta, rawSize: next.length, storedSize: delta.stored.length }, null),
      ['chain'],
    );
  });
});

describe('text and hashing', () => {
  it('keeps text exact, BOM included, and refuses what UTF-8 cannot carry', () => {
    for (const sample of [
      '\uFEFFwith BOM',
      'crlf\r\nlines\r\n',
      'emoji 😀 and 中文 and e\u0301',
      '',
      'nul\u0000inside',
    ]) {
      expect(bytesToText(textToBytes(sample, 'sample'))).toBe(sample);
    }
    expect(() => textToBytes('lone \uD800 surrogate', 'The body')).toThrow(/lone UTF-16 surrogate/);
    expect(() => textToBytes('\uDC00 first', 'The body')).toThrow(/surrogate/);
    expect(looksBinary(utf8('plain text'))).toBe(false);
    expect(looksBinary(Uint8Array.from([0x50, 0x4e, 0x47, 0x00]))).toBe(true);
    expect(looksBinary(Uint8Array.from([0xc3, 0x28]))).toBe(true);
  });

  it('hashes with SHA-256', async () => {
    expect(toHex(await sha256(utf8('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('hashes small bodies in JavaScript and large ones with WebCrypto to the same digest', async () => {
    // Sizes around the point where hashing moves to WebCrypto, checked against Node's own OpenSSL digest.
    for (const size of [0, 63, 64, 65, 4096, 256 * 1024, 256 * 1024 + 1, 3 * 1024 * 1024 + 7]) {
      const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
      const expected = createHash('sha256').update(bytes).digest('hex');
      expect(toHex(await sha256(bytes)), `${size} bytes`).toBe(expected);
    }
  });

  it('keeps the most recently used bodies within its byte budget', () => {
    const cache = createBodyCache(1000);
    cache.put('a', new Uint8Array(200));
    cache.put('b', new Uint8Array(200));
    cache.put('c', new Uint8Array(200));
    cache.get('a');
    cache.put('d', new Uint8Array(200));
    cache.put('e', new Uint8Array(200));
    expect(cache.bytes).toBe(1000);
    cache.put('f', new Uint8Array(200));
    expect(cache.bytes).toBe(1000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    cache.put('big', new Uint8Array(600));
    expect(cache.get('big')).toBeUndefined();
  });
});
