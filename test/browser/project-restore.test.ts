/**
 * Rollback into the folder through the worker: an agent's task changes files (checkpointed), a person edits one
 * afterwards, the task is restored after a plan that flags that edit, the restore is undone — every byte checked
 * at each stage.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain, type TaskId } from '../../src/lib/index';

const open: Brain[] = [];
let counter = 0;
const unique = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

const enc = (text: string) => new TextEncoder().encode(text);

async function setUp() {
  const b = await openBrain({ dbName: `${unique('restore')}.db`, closeOnPageHide: false });
  open.push(b);
  const name = unique('restore-project');
  const original: Record<string, Uint8Array> = {
    'src/a.ts': enc('export const a = 1;\r\n'),
    'src/b.ts': enc('export const b = 2;\n'),
    'docs/notes.md': enc('# Notes\n\nkeep me  \n'),
    'img/logo.bin': new Uint8Array([0, 1, 2, 255, 254, 0, 7]),
  };
  await b.importFolderFiles(
    Object.entries(original).map(([path, data]) => ({ path, data })),
    { name },
  );
  const { id: sessionId } = await b.startSession({ title: 'restore test' });
  const { id: taskId } = await b.startTask({ sessionId, title: 'Refactor' });
  return { b, name, original, taskId, projectName: name };
}

/** An agent's edit: checkpoint the before/after, then write the file (or delete it). */
async function agentWrites(b: Brain, taskId: TaskId, path: string, after: string | Uint8Array | null) {
  const exists = (await b.listProjectFiles()).some((e) => e.path === path);
  const current = exists ? await b.readProjectBytes(path) : null;
  const before = current ? current.bytes : null;
  await b.checkpointFile({ taskId, path, before, after });
  if (after === null) await b.deleteProjectFile(path, { expectedVersion: current?.version as string });
  else await b.writeProjectFile(path, after, { expectedVersion: current?.version ?? null });
}

async function snapshot(b: Brain): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const entry of await b.listProjectFiles()) {
    if (entry.kind === 'file') out[entry.path] = (await b.readProjectBytes(entry.path)).bytes;
  }
  return out;
}

describe('rollback into the folder', () => {
  it('restores a task’s files after a plan that flags a later edit, and the restore can be undone', async () => {
    const { b, original, taskId } = await setUp();
    await agentWrites(b, taskId, 'src/a.ts', 'export const a = 10;\r\n');
    await agentWrites(b, taskId, 'src/a.ts', 'export const a = 100;\r\n');
    await agentWrites(b, taskId, 'src/new.ts', 'export const created = true;\n');
    await agentWrites(b, taskId, 'docs/notes.md', null);
    await agentWrites(b, taskId, 'img/logo.bin', new Uint8Array([9, 9, 9]));
    // A person edits b.ts (not part of the task) and a.ts (part of it) after the agent.
    const b0 = await b.readProjectBytes('src/b.ts');
    await b.writeProjectFile('src/b.ts', 'export const b = 3;\n', { expectedVersion: b0.version });
    const a0 = await b.readProjectBytes('src/a.ts');
    await b.writeProjectFile('src/a.ts', 'export const a = 100; // reviewed\r\n', {
      expectedVersion: a0.version,
    });
    const afterAgentAndPerson = await snapshot(b);

    const plan = await b.planRestore({ taskId });
    const rows = Object.fromEntries(plan.files.map((f) => [f.path, f]));
    expect(Object.keys(rows).sort()).toEqual(['docs/notes.md', 'img/logo.bin', 'src/a.ts', 'src/new.ts']);
    expect(rows['src/a.ts']).toMatchObject({ state: 'changed', action: 'write', entryIds: { length: 2 } });
    expect(rows['src/a.ts']?.reason).toContain('changed since the checkpoint');
    expect(rows['src/new.ts']).toMatchObject({ state: 'clean', action: 'delete' });
    expect(rows['docs/notes.md']).toMatchObject({ state: 'clean', action: 'write', currentVersion: null });
    expect(rows['img/logo.bin']).toMatchObject({ state: 'clean', action: 'write' });
    expect(await snapshot(b)).toEqual(afterAgentAndPerson); // planning writes nothing

    // The user confirms everything, overwriting the reviewed a.ts.
    const confirmed = plan.files.map((f) => ({ path: f.path, expectedVersion: f.currentVersion }));
    const result = await b.restoreCheckpoints({ target: { taskId }, files: confirmed });
    expect(result.restored.map((r) => [r.path, r.action])).toEqual(
      plan.files.map((f) => [f.path, f.action === 'delete' ? 'delete' : 'write']),
    );
    const restored = await snapshot(b);
    expect(restored).toEqual({ ...original, 'src/b.ts': enc('export const b = 3;\n') });
    expect(
      (await b.planRestore({ taskId })).files.every(
        (f) => f.state === 'already-restored' && f.action === 'none',
      ),
    ).toBe(true);

    // The restore is itself checkpointed under a finished "Restore: …" task that references the original.
    const restoreTask = await b.getTask(result.restoreTaskId as TaskId);
    expect(restoreTask).toMatchObject({
      title: 'Restore: Refactor',
      state: 'done',
      references: [{ to: taskId, kind: 'reference' }],
    });
    expect((await b.listCheckpoints(restoreTask.id)).map((e) => e.path).sort()).toEqual(
      Object.keys(rows).sort(),
    );

    // Undo the restore: back to exactly what the agent and the person had left.
    const undoPlan = await b.planRestore({ taskId: restoreTask.id });
    expect(undoPlan.files.every((f) => f.state === 'clean')).toBe(true);
    await b.restoreCheckpoints({
      target: { taskId: restoreTask.id },
      files: undoPlan.files.map((f) => ({ path: f.path, expectedVersion: f.currentVersion })),
    });
    expect(await snapshot(b)).toEqual(afterAgentAndPerson);
  });

  it('leaves a changed file alone unless chosen, and refuses a restore planned against an older state', async () => {
    const { b, original, taskId } = await setUp();
    await agentWrites(b, taskId, 'src/a.ts', 'changed by agent\n');
    await agentWrites(b, taskId, 'src/b.ts', 'changed by agent too\n');
    const edited = await b.readProjectBytes('src/b.ts');
    await b.writeProjectFile('src/b.ts', 'then by a person\n', { expectedVersion: edited.version });

    const plan = await b.planRestore({ taskId });
    const clean = plan.files.filter((f) => f.state === 'clean');
    expect(clean.map((f) => f.path)).toEqual(['src/a.ts']);
    // Someone edits a.ts between the plan and the confirmation: nothing at all is written.
    const a = await b.readProjectBytes('src/a.ts');
    await b.writeProjectFile('src/a.ts', 'edited meanwhile\n', { expectedVersion: a.version });
    const before = await snapshot(b);
    await expect(
      b.restoreCheckpoints({
        target: { taskId },
        files: clean.map((f) => ({ path: f.path, expectedVersion: f.currentVersion })),
      }),
    ).rejects.toMatchObject({ code: 'Conflict' });
    expect(await snapshot(b)).toEqual(before);

    // Re-planned: only the file the user keeps confirming is restored; the person's b.ts stays.
    const again = await b.planRestore({ taskId });
    const onlyA = again.files.filter((f) => f.path === 'src/a.ts');
    const result = await b.restoreCheckpoints({
      target: { taskId },
      files: onlyA.map((f) => ({ path: f.path, expectedVersion: f.currentVersion })),
    });
    expect(result.restored.map((r) => r.path)).toEqual(['src/a.ts']);
    expect((await b.readProjectBytes('src/a.ts')).bytes).toEqual(original['src/a.ts']);
    expect(new TextDecoder().decode((await b.readProjectBytes('src/b.ts')).bytes)).toBe('then by a person\n');
  });

  it('restores single entries, and marks entries it cannot restore as unavailable', async () => {
    const { b, original, taskId } = await setUp();
    await agentWrites(b, taskId, 'src/a.ts', 'one\n');
    const [entry] = await b.listCheckpoints(taskId);
    const { id: outside } = await b.checkpointFile({
      taskId,
      path: '../outside.txt',
      before: 'x',
      after: 'y',
    });
    const plan = await b.planRestore({ entryIds: [entry?.id as never, outside] });
    expect(plan.files.map((f) => [f.path, f.state])).toEqual([
      ['src/a.ts', 'clean'],
      ['../outside.txt', 'unavailable'],
    ]);
    expect(plan.files[1]?.reason).toContain('leaves the project folder');
    await expect(
      b.restoreCheckpoints({
        target: { entryIds: [outside] },
        files: [{ path: '../outside.txt', expectedVersion: null }],
      }),
    ).rejects.toMatchObject({ code: 'PathEscapes' });
    await b.restoreCheckpoints({
      target: { entryIds: [entry?.id as never] },
      files: [{ path: 'src/a.ts', expectedVersion: plan.files[0]?.currentVersion ?? null }],
    });
    expect((await b.readProjectBytes('src/a.ts')).bytes).toEqual(original['src/a.ts']);
    await expect(b.planRestore({ entryIds: [] })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});
