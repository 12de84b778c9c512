/**
 * Rollback into an opened folder of changes recorded elsewhere: an imported Claude Code session (its absolute
 * paths under the agent's cwd, recorded relative to it) restores into the folder holding that project, or into the
 * subfolder the agent ran in when the opened folder is above it; paths recorded absolute (no root known) land in
 * the folder through its name; a path outside it is never written. The engine on the in-memory SQLite, the folder
 * an in-memory directory handle opened as a picked folder.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrainApi, SessionId } from '../../src/core/api';
import { decodeLines, generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { memoryBrain } from './engine-helpers';
import { memoryDirectory } from './memory-directory';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function brain() {
  const { api, database } = await memoryBrain();
  closers.push(() => database.close());
  return api;
}

const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));

/** The transcript's first main-thread Edit: its file (relative to the cwd), the body it found and the one it left. */
function firstEdit(fixture: ReturnType<typeof generateClaudeCodeSession>) {
  for (const line of decodeLines(fixture.main.bytes).lines) {
    let r: {
      type?: string;
      isSidechain?: boolean;
      toolUseResult?: { filePath?: string; oldString?: string; originalFile?: unknown };
      message?: { content?: { tool_use_id?: string }[] };
    };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      continue;
    }
    const id = r.message?.content?.[0]?.tool_use_id;
    const result = r.toolUseResult;
    if (r.type !== 'user' || r.isSidechain === true || typeof result?.oldString !== 'string') continue;
    if (typeof result.originalFile !== 'string' || id === undefined) continue;
    const after = fixture.truth.afterBodies[id];
    if (after === undefined) continue;
    return { path: result.filePath!.slice(fixture.truth.cwd.length + 1), before: result.originalFile, after };
  }
  throw new Error('no Edit with its original file');
}

async function entryOf(api: BrainApi, sessionId: SessionId, path: string, after: string) {
  for (const task of await api.listTasks(sessionId))
    for (const e of await api.listCheckpoints(task.id))
      if (e.path === path && (await api.readCheckpoint(e.id)).after === after) return e.id;
  throw new Error(`no entry of ${path}`);
}

describe('rollback of an imported session into an opened folder', () => {
  it('restores the edited file to the body the transcript recorded before the edit', async () => {
    const api = await brain();
    const fixture = generateClaudeCodeSession();
    const edit = firstEdit(fixture);
    const [session] = (
      await api.importTranscript({
        files: [fixture.main, fixture.subagent].map((f) => ({ name: f.name, data: f.bytes })),
      })
    ).sessions;
    const dir = memoryDirectory('ledger', { [edit.path]: edit.after });
    await api.openProject({ kind: 'handle', handle: dir.handle });
    const entryId = await entryOf(api, session!.sessionId, edit.path, edit.after);

    const plan = await api.planRestore({ entryIds: [entryId] });
    expect(plan.files).toMatchObject([{ path: edit.path, state: 'clean', action: 'write', reason: null }]);
    const result = await api.restoreCheckpoints({
      target: plan.target,
      files: plan.files.map((f) => ({ path: f.path, expectedVersion: f.currentVersion })),
    });
    expect(result.restored).toMatchObject([{ path: edit.path, action: 'write' }]);
    expect(text(dir.bytes(edit.path))).toBe(edit.before);
    // The restore is recorded in the imported session, so it can be undone.
    const restoreTask = await api.getTask(result.restoreTaskId!);
    expect(restoreTask.sessionId).toBe(session!.sessionId);
  });
});

describe('an imported session whose agent ran in a subfolder of the opened one', () => {
  it('restores into the subfolder (the cwd found through the folder’s name), not the same path at the top', async () => {
    const api = await brain();
    const base = generateClaudeCodeSession();
    // The same session, its agent started in packages/core of the ledger repository (every cwd and path moved).
    const moved = (bytes: Uint8Array) =>
      new Uint8Array(
        Buffer.from(
          Buffer.from(bytes)
            .toString('latin1')
            .replaceAll(`${base.truth.cwd}/`, `${base.truth.cwd}/packages/core/`)
            .replaceAll(`"${base.truth.cwd}"`, `"${base.truth.cwd}/packages/core"`),
          'latin1',
        ),
      );
    const fixture = {
      ...base,
      main: { ...base.main, bytes: moved(base.main.bytes) },
      subagent: { ...base.subagent, bytes: moved(base.subagent.bytes) },
      truth: { ...base.truth, cwd: `${base.truth.cwd}/packages/core` },
    };
    const edit = firstEdit(fixture);
    expect(edit.path).toMatch(/^src\//);
    const [session] = (
      await api.importTranscript({
        files: [fixture.main, fixture.subagent].map((f) => ({ name: f.name, data: f.bytes })),
      })
    ).sessions;
    const inCore = `packages/core/${edit.path}`;
    const top = 'a file of the same name at the top of the repository\n';
    const dir = memoryDirectory('ledger', { [inCore]: edit.after, [edit.path]: top });
    await api.openProject({ kind: 'handle', handle: dir.handle });
    const entryId = await entryOf(api, session!.sessionId, edit.path, edit.after);

    const plan = await api.planRestore({ entryIds: [entryId] });
    expect(plan.files).toMatchObject([{ path: inCore, state: 'clean', action: 'write' }]);
    expect(plan.files[0]!.reason).toBe(`Recorded as ${edit.path}: this folder's ${inCore}.`);
    await api.restoreCheckpoints({
      target: plan.target,
      files: plan.files.map((f) => ({ path: f.path, expectedVersion: f.currentVersion })),
    });
    expect(text(dir.bytes(inCore))).toBe(edit.before);
    expect(text(dir.bytes(edit.path))).toBe(top);
  });
});

describe('paths recorded absolute, no root known', () => {
  async function recorded(api: BrainApi, files: Record<string, [string | null, string | null]>) {
    const { id: sessionId } = await api.startSession({ title: 'an agent without a root' });
    const { id: taskId } = await api.startTask({ sessionId, title: 'Edit by absolute path' });
    await api.checkpointFiles(
      Object.entries(files).map(([path, [before, after]]) => ({ taskId, path, before, after })),
    );
    return taskId;
  }

  it('land in the folder through its name; a path outside it is reported and never written', async () => {
    const api = await brain();
    const taskId = await recorded(api, {
      '/home/dev/projects/ledger/src/a.ts': ['export const a = 1;\n', 'export const a = 2;\n'],
      '/home/dev/projects/ledger/src/new.ts': [null, 'export {};\n'],
      '/home/dev/notes/todo.md': ['- old\n', '- new\n'],
      // The name twice: the candidate that is a file in the folder wins.
      '/srv/ledger/vendor/ledger/util.ts': ['old util\n', 'new util\n'],
    });
    const dir = memoryDirectory('ledger', {
      'src/a.ts': 'export const a = 2;\n',
      'src/new.ts': 'export {};\n',
      'vendor/ledger/util.ts': 'new util\n',
    });
    await api.openProject({ kind: 'handle', handle: dir.handle });
    const plan = await api.planRestore({ taskId });
    const rows = Object.fromEntries(plan.files.map((f) => [f.path, f]));
    expect(Object.keys(rows).sort()).toEqual([
      '/home/dev/notes/todo.md',
      'src/a.ts',
      'src/new.ts',
      'vendor/ledger/util.ts',
    ]);
    expect(rows['src/a.ts']).toMatchObject({ state: 'clean', action: 'write' });
    expect(rows['src/a.ts']!.reason).toBe(
      "Recorded as /home/dev/projects/ledger/src/a.ts: this folder's src/a.ts.",
    );
    expect(rows['src/new.ts']).toMatchObject({ state: 'clean', action: 'delete' });
    expect(rows['vendor/ledger/util.ts']).toMatchObject({ state: 'clean', action: 'write' });
    expect(rows['/home/dev/notes/todo.md']).toMatchObject({ state: 'unavailable', action: 'none' });
    expect(rows['/home/dev/notes/todo.md']!.reason).toContain('outside this folder ("ledger")');

    const result = await api.restoreCheckpoints({
      target: { taskId },
      files: plan.files
        .filter((f) => f.state === 'clean')
        .map((f) => ({ path: f.path, expectedVersion: f.currentVersion })),
    });
    expect(result.restored.map((r) => [r.path, r.action]).sort()).toEqual([
      ['src/a.ts', 'write'],
      ['src/new.ts', 'delete'],
      ['vendor/ledger/util.ts', 'write'],
    ]);
    expect(text(dir.bytes('src/a.ts'))).toBe('export const a = 1;\n');
    expect(dir.bytes('src/new.ts')).toBeNull();
    expect(text(dir.bytes('vendor/ledger/util.ts'))).toBe('old util\n');
    expect(dir.bytes('home/dev/notes/todo.md')).toBeNull();
    expect(dir.bytes('todo.md')).toBeNull();

    // The restore's own entries are this folder's paths: undoing it puts the agent's version back.
    const undo = await api.planRestore({ taskId: result.restoreTaskId! });
    expect(undo.files.map((f) => [f.path, f.state]).sort()).toEqual([
      ['src/a.ts', 'clean'],
      ['src/new.ts', 'clean'],
      ['vendor/ledger/util.ts', 'clean'],
    ]);
  });

  it('stay unrestorable in a folder of another name (control)', async () => {
    const api = await brain();
    const taskId = await recorded(api, {
      '/home/dev/projects/ledger/src/a.ts': ['export const a = 1;\n', 'export const a = 2;\n'],
    });
    const dir = memoryDirectory('shop', { 'src/a.ts': 'export const a = 2;\n' });
    await api.openProject({ kind: 'handle', handle: dir.handle });
    const plan = await api.planRestore({ taskId });
    expect(plan.files).toMatchObject([
      { path: '/home/dev/projects/ledger/src/a.ts', state: 'unavailable', action: 'none' },
    ]);
    await expect(
      api.restoreCheckpoints({
        target: { taskId },
        files: [{ path: '/home/dev/projects/ledger/src/a.ts', expectedVersion: null }],
      }),
    ).rejects.toMatchObject({ code: 'PathEscapes' });
    expect(text(dir.bytes('src/a.ts'))).toBe('export const a = 2;\n');
  });
});
