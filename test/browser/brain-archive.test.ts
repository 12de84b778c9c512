import { afterEach, describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { openBrain, type ArchiveProgress, type Brain } from '../../src/lib/index';

const open: Brain[] = [];
const unique = (what: string) =>
  `${what}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

async function brain(dbName = `${unique('archive')}.db`) {
  const b = await openBrain({ dbName, closeOnPageHide: false });
  open.push(b);
  return b;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

/** A brain with a project folder, a session, a task and a checkpoint. */
async function seeded() {
  const b = await brain();
  await b.openProject({ kind: 'opfs', name: unique('proj'), create: true });
  await b.createAgentFolder();
  await b.writeAgentFile('.agent/MEMORY.md', '# Memory\n\n- The user prefers small commits.\n', {
    expectedVersion: (await b.readAgentFile('.agent/MEMORY.md')).version,
  });
  const { id: sessionId } = await b.startSession({ title: 'archived session' });
  const { id: taskId } = await b.startTask({ sessionId, title: 'archived task' });
  const before = new Uint8Array(3000).map((_, i) => (i * 31) % 256);
  const { id: entryId } = await b.checkpointFile({ taskId, path: 'src/a.bin', before, after: 'new text ✓' });
  return { b, sessionId, taskId, entryId, before };
}

describe('whole-brain export and import', () => {
  it('export → wipe → import gives back sessions, tasks, checkpoint bodies and .agent files', async () => {
    const { b, entryId, before } = await seeded();
    const phases: ArchiveProgress['phase'][] = [];
    const zip = await b.exportBrain((p) => phases.push(p.phase));
    const memory = (await b.readAgentFile('.agent/MEMORY.md')).text;
    const agentFiles = (await b.listAgentFiles()).map((f) => f.path).sort();
    await expect.poll(() => phases.at(-1)).toBe('done');

    const fresh = await brain();
    // The preview reads the manifest from a copy: the caller's bytes stay whole for the import.
    const size = zip.byteLength;
    const preview = await fresh.previewBrainArchive(zip);
    expect(preview).toMatchObject({ databaseBytes: expect.any(Number), schemaVersion: expect.any(Number) });
    expect(preview.files.map((f) => f.path).sort()).toEqual(agentFiles);
    expect(preview.files.every((f) => f.bytes > 0)).toBe(true);
    expect(zip.byteLength).toBe(size);
    const report = await fresh.importBrain(zip, { projectName: unique('restored') });
    expect([...report.files].sort()).toEqual(agentFiles);
    expect((await fresh.listSessions()).map((s) => s.title)).toEqual(['archived session']);
    const sessionId = (await fresh.listSessions())[0]!.id;
    expect((await fresh.listTasks(sessionId)).map((t) => t.title)).toEqual(['archived task']);
    const restored = await fresh.readCheckpoint(entryId);
    expect(restored.before).toEqual(before);
    expect(restored.after).toBe('new text ✓');
    expect((await fresh.readAgentFile('.agent/MEMORY.md')).text).toBe(memory);
    expect(await fresh.integrityCheck()).toEqual(['ok']);
  });

  it('refuses tampered, truncated, escaping and newer archives, and changes nothing', async () => {
    const { b } = await seeded();
    const zip = await b.exportBrain();
    const target = await brain();
    await target.openProject({ kind: 'opfs', name: unique('target'), create: true });
    await target.createAgentFolder();
    await target.startSession({ title: 'keep me' });
    const filesBefore = await target.listAgentFiles();

    const edit = (change: (entries: Record<string, Uint8Array>) => void) => {
      const entries = unzipSync(zip);
      change(entries);
      return zipSync(entries);
    };
    const manifestEdit = (
      change: (manifest: { database: { schemaVersion: number }; files: { path: string }[] }) => void,
    ) =>
      edit((e) => {
        const manifest = JSON.parse(strFromU8(e['manifest.json']!));
        change(manifest);
        e['manifest.json'] = strToU8(JSON.stringify(manifest));
      });
    const bad: Array<[string, Uint8Array, string]> = [
      ['bad hash', edit((e) => (e['project/.agent/MEMORY.md'] = strToU8('# tampered\n'))), 'CorruptArchive'],
      ['truncated zip', zip.slice(0, zip.byteLength - 200), 'CorruptArchive'],
      [
        'path escaping the folder',
        manifestEdit((m) => (m.files[0]!.path = '.agent/../../outside.md')),
        'PathEscapes',
      ],
      ['newer schema', manifestEdit((m) => (m.database.schemaVersion = 999)), 'NewerSchema'],
    ];
    for (const [what, bytes, code] of bad) {
      // The preview reads only the manifest: a bad hash passes it, everything else is refused there already.
      if (what === 'bad hash') await expect(target.previewBrainArchive(bytes), what).resolves.toBeDefined();
      else await expect(target.previewBrainArchive(bytes), what).rejects.toMatchObject({ code });
      await expect(target.importBrain(bytes), what).rejects.toMatchObject({ code });
    }
    expect((await target.listSessions()).map((s) => s.title)).toEqual(['keep me']);
    expect(await target.listAgentFiles()).toEqual(filesBefore);
    expect(await target.integrityCheck()).toEqual(['ok']);
  });
});
