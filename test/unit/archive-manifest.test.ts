import { Zip, strToU8, unzipSync, zipSync, type FlateStreamHandler, type ZipInputFile } from 'fflate';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { packBrainArchive, unpackBrainArchive } from '../../src/storage/archive/brain-archive';
import { maxManifestBytes, readArchiveManifest } from '../../src/storage/archive/manifest';

// Counts what fflate's streaming inflater puts out: the manifest reader's only way to inflate, so the count is
// exactly what a preview inflated (fflate's own unzipSync, used by the tests and the unpack, is not counted).
const inflated = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('fflate', async (importOriginal) => {
  const fflate = await importOriginal<typeof import('fflate')>();
  class CountingInflate extends fflate.Inflate {
    constructor(cb?: FlateStreamHandler) {
      super((chunk, final) => {
        inflated.bytes += chunk.byteLength;
        cb?.(chunk, final);
      });
    }
  }
  return { ...fflate, Inflate: CountingInflate };
});

beforeEach(() => {
  inflated.bytes = 0;
});

const known = { knownSchemaVersion: 3 };
const database = new Uint8Array(64 * 1024).map((_, i) => (i * 7) % 251);
const MiB = 1024 * 1024;

function archive() {
  return packBrainArchive({
    database,
    schemaVersion: 3,
    files: [{ path: '.agent/MEMORY.md', bytes: strToU8('# Memory\n') }],
    createdAt: 1_700_000_000_000,
  });
}

function withManifest(zip: Uint8Array, edit: (manifest: Record<string, unknown>) => unknown): Uint8Array {
  const entries = unzipSync(zip);
  const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json']));
  entries['manifest.json'] = strToU8(JSON.stringify(edit(manifest) ?? manifest));
  return zipSync(entries);
}

/**
 * A zip whose manifest.json is `mib` MiB of spaces: node's zlib deflates them as they stream (the test never
 * holds more than one MiB of spaces; the zip is ~1 KiB a MiB), and fflate's Zip takes the deflated bytes as they are.
 */
async function spacesBomb(mib: number): Promise<Uint8Array> {
  const spaces = Buffer.alloc(MiB, 0x20);
  const deflater = zlib.createDeflateRaw({ level: 9 });
  const deflated: Buffer[] = [];
  deflater.on('data', (part: Buffer) => deflated.push(part));
  const ended = once(deflater, 'end');
  let crc = 0;
  for (let i = 0; i < mib; i++) {
    deflater.write(spaces);
    crc = zlib.crc32(spaces, crc);
  }
  deflater.end();
  await ended;

  const parts: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    parts.push(chunk);
  });
  const entry: ZipInputFile = { filename: 'manifest.json', compression: 8, size: mib * MiB, crc };
  zip.add(entry);
  entry.ondata!(null, Buffer.concat(deflated), true);
  zip.end();
  return Buffer.concat(parts);
}

/** Built once: deflating 200 MiB takes a moment. */
const bomb = spacesBomb(200);

/** Rewrites the uncompressed size the central directory declares for `name` (a lying header). */
function declareSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  const wanted = strToU8(name);
  for (let at = 0; at + 46 <= copy.byteLength; at++) {
    if (view.getUint32(at, true) !== 0x02014b50 || view.getUint16(at + 28, true) !== wanted.length) continue;
    if (wanted.every((byte, i) => copy[at + 46 + i] === byte)) {
      view.setUint32(at + 24, size, true);
      return copy;
    }
  }
  throw new Error(`no central header for ${name}`);
}

describe("the archive's manifest, read ahead", () => {
  it('reads and validates the manifest of a good archive, inflating nothing else', async () => {
    const zip = await archive();
    const manifest = readArchiveManifest(zip, known);
    expect(manifest).toMatchObject({
      format: 'agent-brain-archive',
      version: 1,
      createdAt: 1_700_000_000_000,
      database: { bytes: database.byteLength, schemaVersion: 3 },
      files: [{ path: '.agent/MEMORY.md', bytes: 9 }],
    });
    // Only manifest.json went through the inflater: the 64 KiB database did not.
    expect(inflated.bytes).toBe(unzipSync(zip)['manifest.json']!.byteLength);
    expect(inflated.bytes).toBeLessThan(database.byteLength / 10);
  });

  it('refuses an archive without a manifest, a bad manifest, and what is not a zip', async () => {
    const zip = await archive();
    const noManifest = zipSync({ 'agent.db': database });
    const badJson = zipSync({ 'manifest.json': strToU8('{"format": "agent-brain-archive",') });
    const cases: [string, Uint8Array, RegExp][] = [
      ['no manifest', noManifest, /it has no manifest\.json/],
      ['bad JSON', badJson, /its manifest is not valid JSON/],
      ['not ours', withManifest(zip, () => ({ format: 'other' })), /not an agent-brain manifest/],
      [
        'a field missing',
        withManifest(zip, (m) => ({ ...m, createdAt: 'soon' })),
        /lacks the time it was made or the database size/,
      ],
      ['not a zip', strToU8('not a zip at all'), /the zip is damaged or truncated/],
      ['truncated', zip.subarray(0, zip.byteLength - 30), /the zip is damaged or truncated/],
    ];
    for (const [what, bytes, message] of cases) {
      expect(() => readArchiveManifest(bytes, known), what).toThrow(
        expect.objectContaining({ code: 'CorruptArchive', message: expect.stringMatching(message) }),
      );
    }
  });

  it('refuses a newer format or schema, and a path outside .agent/', async () => {
    const zip = await archive();
    expect(() =>
      readArchiveManifest(
        withManifest(zip, (m) => ({ ...m, version: 2 })),
        known,
      ),
    ).toThrow(expect.objectContaining({ code: 'NewerSchema', message: expect.stringMatching(/format 2/) }));
    expect(() => readArchiveManifest(zip, { knownSchemaVersion: 2 })).toThrow(
      expect.objectContaining({ code: 'NewerSchema', message: expect.stringMatching(/schema version 3/) }),
    );
    const escaping = withManifest(zip, (m) => {
      (m.files as { path: string }[])[0]!.path = '.agent/../../outside.md';
    });
    expect(() => readArchiveManifest(escaping, known)).toThrow(
      expect.objectContaining({ code: 'PathEscapes' }),
    );
  });

  it('refuses a deflate-bomb manifest by its declared size, inflating none of it', async () => {
    const zip = await bomb;
    expect(zip.byteLength).toBeLessThan(2 * MiB);
    expect(unzipSync(zip, { filter: () => false })).toEqual({});
    expect(() => readArchiveManifest(zip, known)).toThrow(
      expect.objectContaining({
        code: 'TooLarge',
        message: expect.stringMatching(/declares 209715200 bytes/),
      }),
    );
    expect(inflated.bytes).toBe(0);
  });

  it('refuses a bomb whose header lies about its size, stopping soon after the bound', async () => {
    const lying = declareSize(await bomb, 'manifest.json', 100);
    expect(() => readArchiveManifest(lying, known)).toThrow(
      expect.objectContaining({ code: 'TooLarge', message: expect.stringMatching(/inflates to more than/) }),
    );
    // Past the bound by at most one input slice's output, nowhere near the 200 MiB it holds.
    expect(inflated.bytes).toBeGreaterThan(maxManifestBytes);
    expect(inflated.bytes).toBeLessThan(maxManifestBytes + 2 * MiB);
  });

  it('refuses a manifest that is not the size its header declares', async () => {
    const zip = await archive();
    const actual = unzipSync(zip)['manifest.json']!.byteLength;
    for (const declared of [actual - 1, actual + 1]) {
      expect(() => readArchiveManifest(declareSize(zip, 'manifest.json', declared), known)).toThrow(
        expect.objectContaining({
          code: 'CorruptArchive',
          message: expect.stringMatching(`manifest.json holds ${actual} bytes, its header says ${declared}`),
        }),
      );
    }
  });

  it('is the rule the unpack applies: the same refusals, before anything else is inflated', async () => {
    const zip = await archive();
    const cases = [
      await bomb,
      declareSize(await bomb, 'manifest.json', 100),
      zipSync({ 'agent.db': database }),
      withManifest(zip, (m) => ({ ...m, version: 2 })),
    ];
    for (const bytes of cases) {
      let read: unknown;
      try {
        readArchiveManifest(bytes, known);
      } catch (error) {
        read = error;
      }
      await expect(unpackBrainArchive(bytes, known)).rejects.toEqual(read);
    }
  });
});
