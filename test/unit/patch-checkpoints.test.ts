/**
 * Patch checkpoints: a change a transcript shows only as a unified diff (Claude Code `structuredPatch`, Codex
 * `unified_diff`, a `git diff` a bash agent printed) is kept as a patch entry — listed, diffed, stored like a
 * body (compressed, verified) and rolled back by reversing it on the file as it is now, or refused naming the hunk
 * that no longer matches. A diff that holds the whole file (a new file) or a known before-body it replays onto
 * gives an entry with both bodies. The engine on the in-memory SQLite; folders are in-memory directory handles.
 */
import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import type { BrainApi, SessionId, TaskId } from '../../src/core/api';
import { fixedClock } from '../../src/core/clock';
import { createBrainApi } from '../../src/engine/create-engine';
import { memoryBrain } from './engine-helpers';
import { memoryDirectory } from './memory-directory';

/** A 30-line module; `edit(n)` changes line n (1-based). */
const lines = Array.from({ length: 30 }, (_, i) => `value_${i + 1} = ${i * 7}\n`);
const original = lines.join('');
const edit = (text: string, n: number, to: string) =>
  text
    .split('\n')
    .map((line, i) => (i === n - 1 ? to : line))
    .join('\n');
const fixed = edit(original, 12, 'value_12 = compute(77)');
const fixDiff = createTwoFilesPatch('a/src/x.py', 'b/src/x.py', original, fixed);

async function setUp() {
  const brain = await memoryBrain();
  const { api } = brain;
  const { id: sessionId } = await api.startSession({ title: 'a bash agent' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Fix compute' });
  /** A script that edited files: the command shows nothing of them, the caller gives their diffs. */
  const script = (files: { path: string; diff?: string; before?: string | null; after?: string | null }[]) =>
    api.recordToolCall({
      sessionId,
      taskId,
      root: '/testbed',
      call: { tool: 'bash', input: { command: 'python apply_fix.py' }, output: '', exitCode: 0 },
      files,
    });
  return { ...brain, sessionId: sessionId as SessionId, taskId: taskId as TaskId, script };
}

const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));

async function rollBack(api: BrainApi, entryIds: Parameters<BrainApi['planRestore']>[0]) {
  const plan = await api.planRestore(entryIds);
  const result = await api.restoreCheckpoints({
    target: plan.target,
    files: plan.files.map((f) => ({ path: f.path, expectedVersion: f.currentVersion })),
  });
  return { plan, result };
}

describe('a change shown only as a diff', () => {
  it('is kept as a patch entry: listed with unknown sides, diffed as its patch, not read as bodies', async () => {
    const { api, taskId, script } = await setUp();
    const recorded = await script([{ path: 'src/x.py', diff: fixDiff }]);
    const [file] = recorded.files;
    expect(file).toMatchObject({ path: 'src/x.py', change: 'modified', bodies: 'none' });
    expect(file?.checkpointEntryId).not.toBeNull();

    const [entry] = await api.listCheckpoints(taskId);
    expect(entry).toMatchObject({
      id: file?.checkpointEntryId,
      path: 'src/x.py',
      before: { kind: 'unknown', size: null },
      after: { kind: 'unknown', size: null },
      patch: { size: new TextEncoder().encode(fixDiff).length },
      binary: false,
      removed: null,
    });
    const diff = await api.diffCheckpoint(entry!.id);
    expect(diff).toMatchObject({ id: entry!.id, path: 'src/x.py', kind: 'patch', added: 1, removed: 1 });
    expect(diff.patch.split('\n').slice(0, 3)).toEqual([
      '--- a/src/x.py',
      '+++ b/src/x.py',
      '@@ -8,9 +8,9 @@',
    ]);
    expect(diff.patch).toContain('\n-value_12 = 77\n+value_12 = compute(77)\n');
    await expect(api.readCheckpoint(entry!.id)).rejects.toMatchObject({
      code: 'BodiesUnknown',
      message: expect.stringContaining('only as a patch'),
    });
    // The patch is a body of the store: compressed, content-addressed, counted for the task.
    expect((await api.audit()).tasks.find((t) => t.taskId === taskId)?.checkpointRawBytes).toBe(
      entry!.patch!.size,
    );
  });

  it('control: without its diff the same change has no checkpoint entry', async () => {
    const { api, taskId, script } = await setUp();
    const recorded = await script([{ path: 'src/x.py' }]);
    expect(recorded.files).toMatchObject([{ path: 'src/x.py', checkpointEntryId: null, bodies: 'none' }]);
    expect(await api.listCheckpoints(taskId)).toEqual([]);
  });

  it('a diff that is not one file’s unified diff is not kept, and the call says so', async () => {
    const { api, taskId, script } = await setUp();
    const two = fixDiff + createTwoFilesPatch('a/y.py', 'b/y.py', 'a\n', 'b\n');
    const recorded = await script([{ path: 'src/x.py', diff: two }]);
    expect(recorded.files[0]?.checkpointEntryId).toBeNull();
    expect(recorded.notes.join('\n')).toMatch(/src\/x\.py: its diff is not kept .*2 files' diffs/);
    expect(await api.listCheckpoints(taskId)).toEqual([]);
  });

  it('replayed onto a known before-body, gives an entry with both bodies', async () => {
    const { api, taskId, script } = await setUp();
    await script([{ path: 'src/x.py', before: null, after: original }]);
    const recorded = await script([{ path: 'src/x.py', diff: fixDiff }]);
    expect(recorded.files).toMatchObject([{ path: 'src/x.py', change: 'modified', bodies: 'both' }]);
    const content = await api.readCheckpoint(recorded.files[0]!.checkpointEntryId!);
    expect(content).toMatchObject({ before: original, after: fixed });
    expect((await api.listCheckpoints(taskId)).map((e) => e.patch)).toEqual([null, null]);
  });

  it('control: a diff that does not fit the known before-body is kept as a patch, with a note', async () => {
    const { api, taskId, script } = await setUp();
    await script([{ path: 'src/x.py', before: null, after: edit(original, 12, 'value_12 = other') }]);
    const recorded = await script([{ path: 'src/x.py', diff: fixDiff }]);
    expect(recorded.notes.join('\n')).toMatch(/src\/x\.py: its diff does not apply .*@@ -8,9 \+8,9 @@/);
    const entries = await api.listCheckpoints(taskId);
    expect(entries[1]).toMatchObject({ before: { kind: 'unknown' }, patch: { size: expect.any(Number) } });
  });
});

describe('a created file whose whole text is known', () => {
  it('has an entry with no before-body and its whole after-body: a diff from /dev/null', async () => {
    const { api, script } = await setUp();
    const body = 'import os\n\nprint(os.getcwd())\n';
    const recorded = await script([
      { path: 'new_module.py', diff: createTwoFilesPatch('/dev/null', 'b/new_module.py', '', body) },
    ]);
    expect(recorded.files).toMatchObject([{ path: 'new_module.py', change: 'created', bodies: 'both' }]);
    const id = recorded.files[0]!.checkpointEntryId!;
    expect(await api.readCheckpoint(id)).toMatchObject({ before: null, after: body });
    expect(await api.diffCheckpoint(id)).toMatchObject({ kind: 'text', added: 3, removed: 0 });
  });

  it('control: a modification of a file the session never saw stays a patch entry', async () => {
    const { api, script } = await setUp();
    const body = 'import os\n\nprint(os.getcwd())\n';
    const diff = createTwoFilesPatch('a/new_module.py', 'b/new_module.py', 'import os\n', body);
    const recorded = await script([{ path: 'new_module.py', diff }]);
    expect(recorded.files).toMatchObject([{ path: 'new_module.py', change: 'modified', bodies: 'none' }]);
    await expect(api.readCheckpoint(recorded.files[0]!.checkpointEntryId!)).rejects.toMatchObject({
      code: 'BodiesUnknown',
    });
  });
});

describe('rollback of a patch entry into an opened folder', () => {
  it('reverses the patch on the file as it is now, keeping what else changed, and records the restore', async () => {
    const { api, script } = await setUp();
    const recorded = await script([{ path: 'src/x.py', diff: fixDiff }]);
    const entryId = recorded.files[0]!.checkpointEntryId!;
    // Line 1 changed since (another edit the patch does not touch): the reverse keeps it.
    const now = edit(fixed, 1, 'value_1 = 1');
    const dir = memoryDirectory('testbed', { 'src/x.py': now });
    await api.openProject({ kind: 'handle', handle: dir.handle });

    const { plan, result } = await rollBack(api, { entryIds: [entryId] });
    expect(plan.files).toMatchObject([
      { path: 'src/x.py', state: 'clean', action: 'write', reason: expect.stringContaining('reverses it') },
    ]);
    expect(result.restored).toMatchObject([{ path: 'src/x.py', action: 'write' }]);
    expect(text(dir.bytes('src/x.py'))).toBe(edit(original, 1, 'value_1 = 1'));
    // The restore's own entry holds both bodies: undoing the rollback needs no patch.
    const restore = await api.readCheckpoint(result.restored[0]!.entryId);
    expect(text(restore.before as Uint8Array)).toBe(now);
    expect(restore.after).toBe(edit(original, 1, 'value_1 = 1'));
    // Rolled back already: a second plan says so, and writes nothing.
    expect((await api.planRestore({ entryIds: [entryId] })).files).toMatchObject([
      { state: 'already-restored', action: 'none' },
    ]);
  });

  it('refuses a file that moved on where the patch was, naming the hunk; nothing is written', async () => {
    const { api, script } = await setUp();
    const recorded = await script([{ path: 'src/x.py', diff: fixDiff }]);
    const entryId = recorded.files[0]!.checkpointEntryId!;
    const movedOn = edit(fixed, 12, 'value_12 = compute(78)');
    const dir = memoryDirectory('testbed', { 'src/x.py': movedOn });
    await api.openProject({ kind: 'handle', handle: dir.handle });

    const plan = await api.planRestore({ entryIds: [entryId] });
    const refusal =
      /^@@ -8,9 \+8,9 @@ no longer matches src\/x\.py: the file changed since checkpoint entry \d+/;
    expect(plan.files).toMatchObject([
      { path: 'src/x.py', state: 'unavailable', action: 'none', reason: expect.stringMatching(refusal) },
    ]);
    await expect(
      api.restoreCheckpoints({
        target: plan.target,
        files: [{ path: 'src/x.py', expectedVersion: plan.files[0]!.currentVersion }],
      }),
    ).rejects.toMatchObject({
      code: 'PatchDoesNotApply',
      message: expect.stringMatching(refusal),
      details: { path: 'src/x.py', entryId, hunk: '@@ -8,9 +8,9 @@' },
    });
    expect(text(dir.bytes('src/x.py'))).toBe(movedOn);
  });

  it('names the hunk that no longer matches, not the first one', async () => {
    const { api, script } = await setUp();
    const twoHunks = edit(edit(original, 3, 'value_3 = a'), 25, 'value_25 = b');
    const diff = createTwoFilesPatch('a/src/x.py', 'b/src/x.py', original, twoHunks);
    const recorded = await script([{ path: 'src/x.py', diff }]);
    const dir = memoryDirectory('testbed', { 'src/x.py': edit(twoHunks, 25, 'value_25 = c') });
    await api.openProject({ kind: 'handle', handle: dir.handle });
    const plan = await api.planRestore({ entryIds: [recorded.files[0]!.checkpointEntryId!] });
    expect(plan.files[0]?.reason).toMatch(/^@@ -21,9 \+21,9 @@ no longer matches src\/x\.py/);
  });

  it('walks a task back through a body entry and a patch entry of one file', async () => {
    const { api, taskId, script } = await setUp();
    // A body entry the recorder does not replay onto (checkpointed directly), then a change shown as a diff.
    await api.checkpointFile({ taskId, path: 'src/x.py', before: original, after: fixed });
    const further = edit(fixed, 20, 'value_20 = twenty');
    await script([
      { path: 'src/x.py', diff: createTwoFilesPatch('a/src/x.py', 'b/src/x.py', fixed, further) },
    ]);
    expect((await api.listCheckpoints(taskId)).map((e) => e.patch === null)).toEqual([true, false]);
    const dir = memoryDirectory('testbed', { 'src/x.py': further });
    await api.openProject({ kind: 'handle', handle: dir.handle });
    const { plan } = await rollBack(api, { taskId });
    expect(plan.files).toMatchObject([{ path: 'src/x.py', state: 'clean', action: 'write' }]);
    expect(text(dir.bytes('src/x.py'))).toBe(original);
  });
});

describe('a damaged patch', () => {
  it('is refused with CorruptBody naming the entry and the patch, never read as empty', async () => {
    const { database, script } = await setUp();
    const recorded = await script([{ path: 'src/x.py', diff: fixDiff }]);
    const entryId = recorded.files[0]!.checkpointEntryId!;
    const { patch_body_id: bodyId } = (await database.driver.get<{ patch_body_id: number }>(
      'SELECT patch_body_id FROM checkpoint_entries WHERE id = ?',
      [entryId],
    ))!;
    // An engine on the same database after a restart: nothing verified in memory yet.
    const cold = () => createBrainApi({ database, storage: 'memory', clock: fixedClock() });
    // Control: undamaged, a cold read returns the patch.
    expect(await cold().diffCheckpoint(entryId)).toMatchObject({ kind: 'patch', added: 1 });
    await database.driver.run(
      'UPDATE checkpoint_body_data SET bytes = zeroblob(length(bytes)) WHERE body_id = ?',
      [bodyId],
    );
    await expect(cold().diffCheckpoint(entryId)).rejects.toMatchObject({
      code: 'CorruptBody',
      message: expect.stringContaining(`The patch of checkpoint entry ${entryId} (src/x.py) cannot be read`),
      details: { entryId, path: 'src/x.py', side: 'patch' },
    });
    // A rollback plan says it cannot restore the file, and why.
    const dir = memoryDirectory('testbed', { 'src/x.py': fixed });
    const restarted = cold();
    await restarted.openProject({ kind: 'handle', handle: dir.handle });
    expect((await restarted.planRestore({ entryIds: [entryId] })).files).toMatchObject([
      { state: 'unavailable', reason: expect.stringContaining('is damaged') },
    ]);
  });
});

describe('cleanup of a superseded task', () => {
  it('removes its patch data like bodies; a kept task’s patch stays readable', async () => {
    const { api, database, sessionId } = await setUp();
    const db = database.driver;
    const record = (taskId: TaskId, path: string, diff: string) =>
      api.recordToolCall({
        sessionId,
        taskId,
        root: '/testbed',
        call: { tool: 'bash', input: { command: 'python apply_fix.py' }, output: '', exitCode: 0 },
        files: [{ path, diff }],
      });
    const { id: old } = await api.startTask({ sessionId, title: 'old attempt' });
    const { id: kept } = await api.startTask({ sessionId, title: 'kept' });
    const oldDiff = createTwoFilesPatch('a/src/old.py', 'b/src/old.py', original, edit(original, 5, 'x = 1'));
    await record(old, 'src/old.py', oldDiff);
    const keptEntry = (await record(kept, 'src/x.py', fixDiff)).files[0]!.checkpointEntryId!;
    const tables = async () => ({
      bodies: (await db.get<{ n: number; raw: number }>(
        'SELECT count(*) AS n, coalesce(sum(raw_size), 0) AS raw FROM checkpoint_bodies',
      ))!,
      data: (await db.get<{ n: number; bytes: number }>(
        'SELECT count(*) AS n, coalesce(sum(length(bytes)), 0) AS bytes FROM checkpoint_body_data',
      ))!,
      entries: (await db.get<{ n: number }>('SELECT count(*) AS n FROM checkpoint_entries'))!.n,
    });
    const oldPatch = (await db.get<{ stored: number }>(
      `SELECT b.stored_size AS stored FROM checkpoint_entries e JOIN checkpoint_bodies b ON b.id = e.patch_body_id
       WHERE e.task_id = ?`,
      [old],
    ))!.stored;
    const before = await tables();
    expect(before).toMatchObject({ bodies: { n: 2 }, data: { n: 2 }, entries: 2 });

    await api.setTaskState(old, 'superseded');
    const plan = await api.planCleanup();
    expect(plan.tasks.find((t) => t.taskId === old)?.freesBytes).toBeGreaterThanOrEqual(oldPatch);
    const report = await api.cleanup();
    expect(report.cleaned).toMatchObject([
      { taskId: old, checkpointEntriesRemoved: 1, bodiesRemoved: 1, storedBytesRemoved: oldPatch },
    ]);
    const after = await tables();
    expect(after).toEqual({
      bodies: { n: 1, raw: before.bodies.raw - new TextEncoder().encode(oldDiff).length },
      data: { n: 1, bytes: before.data.bytes - oldPatch },
      entries: 1,
    });
    // The removed entry is still listed, as a patch entry, and its read says when and why.
    const [removed] = await api.listCheckpoints(old);
    expect(removed).toMatchObject({ before: { kind: 'unknown' }, patch: { size: oldDiff.length } });
    expect(removed?.removed).not.toBeNull();
    await expect(api.diffCheckpoint(removed!.id)).rejects.toMatchObject({ code: 'CheckpointRemoved' });
    // Control: the kept task's patch is untouched.
    expect(await api.diffCheckpoint(keptEntry)).toMatchObject({ kind: 'patch', added: 1, removed: 1 });
    expect(await api.integrityCheck()).toEqual(['ok']);
  });
});
