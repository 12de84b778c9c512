import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { packBrainArchive, unpackBrainArchive } from '../../src/storage/archive/brain-archive';
import { sqliteHeader } from '../fixtures/zip-bombs';

// One 4 KiB page behind a real SQLite header: the unpack refuses an agent.db that does not start with one.
const database = new Uint8Array(4096).map((_, i) => (i * 7) % 251);
database.set(sqliteHeader(4096, 1));
const files = [
  { path: '.agent/MEMORY.md', bytes: strToU8('# Memory\n- prefers tabs\n') },
  {
    path: '.agent/skills/release/SKILL.md',
    bytes: strToU8('---\nname: release\ndescription: ship it\n---\n'),
  },
  { path: '.agent/HISTORY.jsonl', bytes: new Uint8Array([0xe2, 0x9c, 0x93, 0x0a]) },
];

async function archive() {
  return packBrainArchive({ database, schemaVersion: 3, files, createdAt: 1_700_000_000_000 });
}

/** Rewrites one zip: `edit` gets the entries and may change them. */
function rezip(zip: Uint8Array, edit: (entries: Record<string, Uint8Array>) => void): Uint8Array {
  const entries = unzipSync(zip);
  edit(entries);
  return zipSync(entries);
}

describe('the whole-brain archive', () => {
  it('round-trips the database and every .agent file byte for byte', async () => {
    const unpacked = await unpackBrainArchive(await archive(), { knownSchemaVersion: 3 });
    expect(unpacked.database).toEqual(database);
    expect(unpacked.files.map((f) => [f.path, Array.from(f.bytes)])).toEqual(
      files.map((f) => [f.path, Array.from(f.bytes)]),
    );
    expect(unpacked.manifest).toMatchObject({
      format: 'agent-brain-archive',
      version: 1,
      database: { schemaVersion: 3, bytes: 4096 },
    });
  });

  it('refuses a tampered file (bad hash)', async () => {
    const zip = rezip(await archive(), (e) => {
      e['project/.agent/MEMORY.md'] = strToU8('# Memory\n- prefers spaces\n');
    });
    await expect(unpackBrainArchive(zip, { knownSchemaVersion: 3 })).rejects.toMatchObject({
      code: 'CorruptArchive',
    });
  });

  it('refuses a tampered database', async () => {
    const zip = rezip(await archive(), (e) => {
      const db = e['agent.db']!.slice();
      db[100] = (db[100] ?? 0) ^ 1;
      e['agent.db'] = db;
    });
    await expect(unpackBrainArchive(zip, { knownSchemaVersion: 3 })).rejects.toMatchObject({
      code: 'CorruptArchive',
    });
  });

  it('refuses a truncated zip', async () => {
    const zip = await archive();
    for (const cut of [10, zip.byteLength / 2, zip.byteLength - 5]) {
      await expect(
        unpackBrainArchive(zip.slice(0, Math.floor(cut)), { knownSchemaVersion: 3 }),
      ).rejects.toMatchObject({
        code: 'CorruptArchive',
      });
    }
  });

  it('refuses paths that escape the folder, in the manifest or smuggled into the zip', async () => {
    const viaManifest = rezip(await archive(), (e) => {
      const manifest = JSON.parse(strFromU8(e['manifest.json']!));
      manifest.files[0].path = '.agent/../../etc/passwd';
      e['manifest.json'] = strToU8(JSON.stringify(manifest));
    });
    await expect(unpackBrainArchive(viaManifest, { knownSchemaVersion: 3 })).rejects.toMatchObject({
      code: 'PathEscapes',
    });
    const smuggled = rezip(await archive(), (e) => {
      e['project/../outside.txt'] = strToU8('x');
    });
    await expect(unpackBrainArchive(smuggled, { knownSchemaVersion: 3 })).rejects.toMatchObject({
      code: 'PathEscapes',
    });
    await expect(
      packBrainArchive({
        database,
        schemaVersion: 1,
        files: [{ path: 'src/app.ts', bytes: strToU8('') }],
        createdAt: 0,
      }),
    ).rejects.toMatchObject({
      code: 'PathEscapes',
    });
  });

  it('refuses an archive from a newer schema or format', async () => {
    await expect(unpackBrainArchive(await archive(), { knownSchemaVersion: 2 })).rejects.toMatchObject({
      code: 'NewerSchema',
    });
    const newerFormat = rezip(await archive(), (e) => {
      const manifest = JSON.parse(strFromU8(e['manifest.json']!));
      manifest.version = 99;
      e['manifest.json'] = strToU8(JSON.stringify(manifest));
    });
    await expect(unpackBrainArchive(newerFormat, { knownSchemaVersion: 3 })).rejects.toMatchObject({
      code: 'NewerSchema',
    });
  });

  it('refuses a zip that is not an agent-brain archive', async () => {
    const zip = zipSync({ 'readme.txt': strToU8('hello') });
    await expect(unpackBrainArchive(zip, { knownSchemaVersion: 3 })).rejects.toMatchObject({
      code: 'CorruptArchive',
    });
    await expect(
      unpackBrainArchive(strToU8('not a zip at all'), { knownSchemaVersion: 3 }),
    ).rejects.toMatchObject({
      code: 'CorruptArchive',
    });
  });
});
