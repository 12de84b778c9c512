/**
 * An archive the brain writes is one it accepts (issue 29): one bound for an archive's `.agent` files,
 * `maxArchivedFileBytes`, declared once (storage/archive/manifest.ts) and kept by both ends. At the bound, the
 * export holds the file and the import gives it back byte for byte; one byte over, the export refuses with
 * `TooLarge` naming the file (nothing exported) — and an archive holding such a file anyway (packed by hand) is
 * refused by the import with `TooLarge` naming it, nothing changed. The engine on the in-memory SQLite, the
 * projects in-memory directory handles.
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256, toHex } from '../../src/storage/blobs/sha256';
import { maxArchivedFileBytes } from '../../src/storage/archive/manifest';
import { memoryBrain } from './engine-helpers';
import { memoryDirectory } from './memory-directory';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const path = '.agent/logs/HISTORY.log';

/** `length` bytes of log lines (deflate makes short work of them). */
function logBytes(length: number): Uint8Array {
  const line = strToU8('2026-12-01T12:00:00Z step ok: npm test passed, 214 tests\n');
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += line.length) bytes.set(line.subarray(0, length - at), at);
  return bytes;
}

async function brainWithProject(name: string, files: Record<string, string | Uint8Array>) {
  const { api, database } = await memoryBrain();
  closers.push(() => database.close());
  const dir = memoryDirectory(name, files);
  await api.openProject({ kind: 'handle', handle: dir.handle });
  return { api, dir };
}

const same = (a: Uint8Array | null, b: Uint8Array) =>
  a !== null && a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;

describe('the .agent file bound of a whole-brain archive', () => {
  it('at the bound: exported, imported back byte for byte', async () => {
    const big = logBytes(maxArchivedFileBytes);
    const source = await brainWithProject('source', { '.agent/MEMORY.md': '# Memory\n', [path]: big });
    await source.api.startSession({ title: 'kept' });
    const zip = await source.api.exportBrain();

    const target = await brainWithProject('target', {});
    const report = await target.api.importBrain(zip);
    expect([...report.files].sort()).toEqual(['.agent/MEMORY.md', path]);
    expect(same(target.dir.bytes(path), big)).toBe(true);
    expect((await target.api.listSessions()).map((s) => s.title)).toEqual(['kept']);
  });

  it('one byte over: the export refuses naming the file, and the import refuses such an archive', async () => {
    const source = await brainWithProject('source', {
      '.agent/MEMORY.md': '# Memory\n',
      [path]: logBytes(maxArchivedFileBytes),
    });
    // Control: at the bound the export goes through.
    const zip = await source.api.exportBrain();
    const over = logBytes(maxArchivedFileBytes + 1);
    source.dir.put(path, over);
    await expect(source.api.exportBrain()).rejects.toMatchObject({
      code: 'TooLarge',
      message: expect.stringContaining(`${path} is ${maxArchivedFileBytes + 1} bytes`),
      details: { path, bytes: maxArchivedFileBytes + 1, maxBytes: maxArchivedFileBytes },
    });

    // The same archive with the file one byte longer, its manifest telling the truth about it.
    const entries: Record<string, Uint8Array> = unzipSync(zip);
    const manifest = JSON.parse(new TextDecoder().decode(entries['manifest.json'])) as {
      files: { path: string; bytes: number; sha256: string }[];
    };
    const listed = manifest.files.find((file) => file.path === path)!;
    Object.assign(listed, { bytes: over.byteLength, sha256: toHex(await sha256(over)) });
    entries['manifest.json'] = strToU8(JSON.stringify(manifest));
    entries[`project/${path}`] = over;
    const packedByHand = zipSync(entries, { level: 1 });

    const target = await brainWithProject('target', { '.agent/MEMORY.md': '# Theirs\n' });
    await target.api.startSession({ title: 'theirs' });
    await expect(target.api.importBrain(packedByHand)).rejects.toMatchObject({
      code: 'TooLarge',
      message: expect.stringContaining(`project/${path} declares ${maxArchivedFileBytes + 1} bytes`),
    });
    expect((await target.api.listSessions()).map((s) => s.title)).toEqual(['theirs']);
    expect(target.dir.bytes(path)).toBeNull();
    // Control: the archive the export wrote at the bound is accepted.
    await target.api.importBrain(zip);
    expect(target.dir.bytes(path)?.byteLength).toBe(maxArchivedFileBytes);
  });
});
