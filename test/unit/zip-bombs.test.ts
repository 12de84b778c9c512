/**
 * Zip bombs against the whole-brain archive and project zips: refused from the zip's directory or the first
 * inflated bytes, each entry inflated alone and stopped where it would pass its declared size. The bound is
 * proved two ways: by counting what the inflaters put out (hooks on their modules) and by sampling the process's
 * memory while the bomb is refused (in the inflaters' hooks, on a timer, and right after the refusal).
 */
import { inflateSync, strToU8, zipSync, type FlateStreamHandler } from 'fflate';
import zlib from 'node:zlib';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { filesFromZip } from '../../src/storage/agent-folder/zip';
import { packBrainArchive, unpackBrainArchive } from '../../src/storage/archive/brain-archive';
import {
  GiB,
  MiB,
  bombManifest,
  deflatedZeros,
  sqliteHeader,
  twoEntriesBomb,
  zerosDatabaseBomb,
  zipOf,
} from '../fixtures/zip-bombs';

// Every way an entry can be inflated, counted: the archive's own decoder (bytes written into entries, and the
// memory sampled each time it asks for a buffer), fflate's streaming Inflate (the manifest reader's) and the
// one-shot unzipSync a whole-zip reader would call (it inflates each entry it keeps into its declared size).
const inflated = vi.hoisted(() => ({ bytes: 0, unzipCalls: 0, onChunk: () => {} }));
vi.mock('../../src/storage/archive/inflate-raw', async (importOriginal) => {
  const decoder = await importOriginal<typeof import('../../src/storage/archive/inflate-raw')>();
  return {
    ...decoder,
    inflateRaw(...[data, out, grow]: Parameters<typeof decoder.inflateRaw>) {
      let written = 0;
      try {
        const result = decoder.inflateRaw(data, out, (soFar, required) => {
          written = soFar.byteLength;
          inflated.onChunk();
          return grow(soFar, required);
        });
        written = result.length;
        return result;
      } finally {
        inflated.bytes += written;
        inflated.onChunk();
      }
    },
  };
});
vi.mock('fflate', async (importOriginal) => {
  const fflate = await importOriginal<typeof import('fflate')>();
  class CountingInflate extends fflate.Inflate {
    constructor(cb?: FlateStreamHandler) {
      super((chunk, final) => {
        inflated.bytes += chunk.byteLength;
        inflated.onChunk();
        cb?.(chunk, final);
      });
    }
  }
  return {
    ...fflate,
    Inflate: CountingInflate,
    unzipSync: (...args: Parameters<typeof fflate.unzipSync>) => {
      inflated.unzipCalls++;
      const entries = fflate.unzipSync(...args);
      for (const bytes of Object.values(entries)) inflated.bytes += bytes.byteLength;
      return entries;
    },
  };
});

beforeEach(() => {
  inflated.bytes = 0;
  inflated.unzipCalls = 0;
});

const known = { knownSchemaVersion: 3 };

/**
 * Runs `refuse` and returns its error with the most memory (ArrayBuffers and RSS, above what was in use when it
 * started) seen while it ran: sampled whenever an inflater hands out output or asks for a buffer, every
 * millisecond the event loop is free, and
 * right after it settles (before a collection could return what it held).
 */
async function refusedWithPeak(refuse: () => unknown) {
  const start = process.memoryUsage();
  const peak = { arrayBuffers: 0, rss: 0 };
  const sample = () => {
    const now = process.memoryUsage();
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers - start.arrayBuffers);
    peak.rss = Math.max(peak.rss, now.rss - start.rss);
  };
  inflated.onChunk = sample;
  const timer = setInterval(sample, 1);
  let error: unknown = null;
  try {
    await refuse();
  } catch (caught) {
    error = caught;
  } finally {
    sample();
    clearInterval(timer);
    inflated.onChunk = () => {};
  }
  if (!error) throw new Error('the bomb was not refused');
  return { error, peak };
}

describe('the hand-built bombs', () => {
  it('inflate to exactly the zeros (and prefix) they say, by zlib and fflate alike', () => {
    for (const n of [1, 2, 257, 258, 259, 516, 517, 100_000, 5 * MiB + 3]) {
      const data = deflatedZeros(n);
      for (const out of [zlib.inflateRawSync(data), inflateSync(data)]) {
        expect(out.byteLength, `${n}`).toBe(n);
        expect(out.every((byte) => byte === 0)).toBe(true);
      }
    }
    const head = sqliteHeader(4096, 3);
    const withHead = zlib.inflateRawSync(deflatedZeros(3 * 4096 - 100, head));
    expect(withHead.byteLength).toBe(3 * 4096);
    expect([...withHead.subarray(0, 100)]).toEqual([...head]);
    // ~1 MiB of deflate data for 1 GiB of zeros, as the bomb.
    expect(deflatedZeros(GiB).byteLength).toBeLessThan(1.1 * MiB);
  });
});

/** A page-aligned stand-in for agent.db: an SQLite header, then bytes that are not zeros. */
function fakeDatabase(pages: number): Uint8Array {
  const bytes = new Uint8Array(pages * 4096).map((_, i) => (i * 7) % 251);
  bytes.set(sqliteHeader(4096, pages));
  return bytes;
}

describe('zip bombs against the whole-brain archive', () => {
  it('refuses a 1 MiB zip whose agent.db is 1 GiB of zeros after its first 100 bytes, holding a few MiB', async () => {
    const bomb = zerosDatabaseBomb();
    expect(bomb.byteLength).toBeLessThan(1.1 * MiB);
    const { error, peak } = await refusedWithPeak(() => unpackBrainArchive(bomb, known));
    expect(error).toMatchObject({
      code: 'CorruptArchive',
      message: expect.stringMatching(/its agent\.db is not an SQLite database \(it does not start with/),
    });
    expect(inflated.unzipCalls).toBe(0);
    // Its header's 100 bytes and the copy that carried the output past them, nowhere near the GiB it declares.
    expect(inflated.bytes).toBeGreaterThanOrEqual(100);
    expect(inflated.bytes).toBeLessThan(100 + 258);
    expect(peak.arrayBuffers).toBeLessThan(16 * MiB);
    expect(peak.rss).toBeLessThan(64 * MiB);
  });

  it('refuses two 1,023 MiB .agent files from the directory, inflating nothing', async () => {
    const bomb = twoEntriesBomb();
    expect(bomb.byteLength).toBeLessThan(2.2 * MiB);
    const { error, peak } = await refusedWithPeak(() =>
      unpackBrainArchive(bomb, { ...known, maxFileBytes: 64 * MiB }),
    );
    expect(error).toMatchObject({
      code: 'TooLarge',
      message:
        'The archive entry project/.agent/HISTORY.jsonl declares 1072693248 bytes; an .agent file may hold at most 64 MiB.',
    });
    expect(inflated.bytes).toBe(0);
    expect(peak.arrayBuffers).toBeLessThan(16 * MiB);
    expect(peak.rss).toBeLessThan(64 * MiB);
  });

  it('stops an entry whose header lies about its size where it would pass it', async () => {
    const manifest = bombManifest({ bytes: 4096 });
    const bomb = zipOf([
      { name: 'manifest.json', data: manifest, method: 0, size: manifest.byteLength },
      // A real-looking header for a 4 KiB database, then 1 GiB of zeros.
      { name: 'agent.db', data: deflatedZeros(GiB, sqliteHeader(4096, 1)), size: 4096 },
    ]);
    const { error, peak } = await refusedWithPeak(() => unpackBrainArchive(bomb, known));
    expect(error).toMatchObject({
      code: 'CorruptArchive',
      message: expect.stringMatching(/agent\.db holds more than 4096 bytes, its header says 4096\)/),
    });
    // Up to the declared size (less the copy that would not fit), and not a byte past it.
    expect(inflated.bytes).toBeGreaterThan(4096 - 258);
    expect(inflated.bytes).toBeLessThanOrEqual(4096);
    expect(peak.arrayBuffers).toBeLessThan(16 * MiB);
  });

  it("refuses an agent.db whose header's page count does not give its size, or whose page size is odd", async () => {
    const cases: [Uint8Array, number, RegExp][] = [
      [
        sqliteHeader(4096, 1),
        8192,
        /its header says 1 pages of 4096 bytes \(4096 bytes\), the zip says 8192/,
      ],
      [sqliteHeader(1000, 2), 2000, /its header gives the page size 1000/],
      [sqliteHeader(4096, 0), 4096, /its header does not give the number of pages/],
    ];
    for (const [head, size, message] of cases) {
      const manifest = bombManifest({ bytes: size });
      const bomb = zipOf([
        { name: 'manifest.json', data: manifest, method: 0, size: manifest.byteLength },
        { name: 'agent.db', data: deflatedZeros(size - 100, head), size },
      ]);
      await expect(unpackBrainArchive(bomb, known)).rejects.toMatchObject({
        code: 'CorruptArchive',
        message: expect.stringMatching(message),
      });
    }
  });

  it('refuses unknown and duplicate entries, and too much in all, before inflating anything', async () => {
    const database = fakeDatabase(1);
    const good = await packBrainArchive({ database, schemaVersion: 3, files: [], createdAt: 0 });
    // The good archive's own entries, plus a 1,023 MiB entry the manifest does not list.
    const manifest = bombManifest({ bytes: 4096 });
    const base = [
      { name: 'manifest.json', data: manifest, method: 0 as const, size: manifest.byteLength },
      { name: 'agent.db', data: database, method: 0 as const, size: 4096 },
    ];
    const extra = zipOf([...base, { name: 'notes.bin', data: deflatedZeros(1023 * MiB), size: 1023 * MiB }]);
    const twice = zipOf([...base, base[1]!]);
    const files = [1, 2].map((i) => ({ path: `.agent/f${i}.md`, bytes: 64 * MiB }));
    const allManifest = bombManifest({ bytes: 1024 * MiB - 64 * MiB }, files);
    const tooMuch = zipOf([
      { name: 'manifest.json', data: allManifest, method: 0, size: allManifest.byteLength },
      { name: 'agent.db', data: deflatedZeros(1), size: 1024 * MiB - 64 * MiB },
      ...files.map((f) => ({ name: `project/${f.path}`, data: deflatedZeros(1), size: f.bytes })),
    ]);
    const cases: [Uint8Array, string, RegExp][] = [
      [extra, 'CorruptArchive', /it holds notes\.bin, which the manifest does not list/],
      [twice, 'CorruptArchive', /it holds agent\.db twice/],
      [tooMuch, 'TooLarge', /^The archive declares more data than a brain holds\.$/],
    ];
    for (const [bomb, code, message] of cases) {
      inflated.bytes = 0;
      const { error, peak } = await refusedWithPeak(() => unpackBrainArchive(bomb, known));
      expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
      expect(inflated.bytes).toBe(0);
      expect(peak.arrayBuffers).toBeLessThan(16 * MiB);
    }
    // The control: the same reader takes the good archive whole.
    await expect(unpackBrainArchive(good, known)).resolves.toMatchObject({ database });
  });

  it('inflates a legitimate-sized entry that fails its hash once, into one buffer of its size', async () => {
    // A real-looking 256 MiB agent.db (header, then zeros) whose hash is wrong: inflated to the end, then refused.
    const size = 256 * MiB;
    const manifest = bombManifest({ bytes: size });
    const bomb = zipOf([
      { name: 'manifest.json', data: manifest, method: 0, size: manifest.byteLength },
      { name: 'agent.db', data: deflatedZeros(size - 100, sqliteHeader(4096, size / 4096)), size },
    ]);
    const { error, peak } = await refusedWithPeak(() => unpackBrainArchive(bomb, known));
    expect(error).toMatchObject({ code: 'CorruptArchive', message: /does not match its SHA-256/ });
    expect(inflated.unzipCalls).toBe(0);
    expect(inflated.bytes).toBe(size);
    // The entry's one buffer, written in place: no second one, no garbage of chunks.
    expect(peak.arrayBuffers).toBeLessThan(size + 8 * MiB);
    // The process also holds WebCrypto's copy of it while it hashes (native memory): about twice the entry then.
    expect(peak.rss).toBeLessThan(2 * size + 64 * MiB);
  });
});

describe('zip bombs against project zips', () => {
  it('stops a file whose header lies about its size where it would pass it', async () => {
    const bomb = zipOf([
      { name: 'src/a.ts', data: strToU8('export {};\n'), method: 0, size: 11 },
      { name: 'assets/zeros.bin', data: deflatedZeros(GiB), size: 1024 },
    ]);
    const { error, peak } = await refusedWithPeak(() => filesFromZip(bomb));
    expect(error).toMatchObject({
      code: 'CorruptArchive',
      message: expect.stringMatching(/assets\/zeros\.bin holds more than 1024 bytes, its header says 1024/),
    });
    expect(inflated.unzipCalls).toBe(0);
    expect(inflated.bytes).toBeGreaterThan(1024 - 258);
    expect(inflated.bytes).toBeLessThanOrEqual(1024);
    expect(peak.arrayBuffers).toBeLessThan(16 * MiB);
  });

  it('refuses too much in all, a file past its bound, too many entries and a name twice, inflating nothing', async () => {
    const zeros = (size: number) => deflatedZeros(size);
    const twoHuge = zipOf([
      { name: 'a.bin', data: zeros(1023 * MiB), size: 1023 * MiB },
      { name: 'b.bin', data: zeros(1023 * MiB), size: 1023 * MiB },
    ]);
    const cases: [Uint8Array, Parameters<typeof filesFromZip>[1], string, RegExp][] = [
      [twoHuge, undefined, 'TooLarge', /^The archive unpacks to more than 1024 MiB; it is not imported\.$/],
      [
        zipOf([{ name: 'big.bin', data: zeros(100 * MiB), size: 100 * MiB }]),
        { maxTotalBytes: GiB, maxEntries: 10, maxFileBytes: 64 * MiB },
        'TooLarge',
        /big\.bin unpacks to 104857600 bytes, more than the 64 MiB one file may hold/,
      ],
      [
        zipOf([1, 2, 3].map((i) => ({ name: `${i}.md`, data: zeros(10), size: 10 }))),
        { maxTotalBytes: GiB, maxEntries: 2 },
        'TooLarge',
        /more than 2 entries/,
      ],
      [
        zipOf([1, 2].map(() => ({ name: 'same.md', data: zeros(10), size: 10 }))),
        undefined,
        'CorruptArchive',
        /it holds same\.md twice/,
      ],
    ];
    for (const [bomb, limits, code, message] of cases) {
      inflated.bytes = 0;
      const { error, peak } = await refusedWithPeak(() => filesFromZip(bomb, limits));
      expect(error).toMatchObject({ code, message: expect.stringMatching(message) });
      expect(inflated.bytes).toBe(0);
      expect(peak.arrayBuffers).toBeLessThan(16 * MiB);
    }
  });

  it('refuses a file whose bytes do not match its CRC-32 (a project zip has no other hash)', () => {
    const data = zlib.deflateRawSync(strToU8('export {};\n'));
    const crc = zlib.crc32('export {};\n');
    expect(filesFromZip(zipOf([{ name: 'a.ts', data, size: 11, crc }])).files).toHaveLength(1);
    expect(() => filesFromZip(zipOf([{ name: 'a.ts', data, size: 11, crc: crc ^ 1 }]))).toThrow(
      expect.objectContaining({
        code: 'CorruptArchive',
        message: expect.stringMatching(/a\.ts does not match its CRC-32/),
      }),
    );
  });

  it('reads a good zip whole, each file exactly (the control)', () => {
    const binary = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
    const zip = zipSync({ 'src/a.ts': strToU8('export {};\n'), 'assets/b.bin': binary, empty: {} });
    const { files, directories } = filesFromZip(zip);
    expect(files.map((f) => [f.path, f.data])).toEqual([
      ['src/a.ts', strToU8('export {};\n')],
      ['assets/b.bin', binary],
    ]);
    expect(directories).toEqual(['empty']);
  });
});
