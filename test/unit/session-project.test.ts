/**
 * An imported session is its own project (issue 28): the folder its agent worked in (`cwd`, `working_dir`). With
 * another project open, the plan, the event log, compression, the resume point and rollback use none of that
 * folder's files, and the open project stays byte for byte as it was; with the agent's folder open (by its name,
 * or a folder above it), they use it. A session with no root (the brain's own) uses whatever folder is open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrainApi } from '../../src/core/api';
import { folderHoldsRoot, projectOfRoot } from '../../src/engine/project/session-project';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateSweAgentTrajectory } from '../fixtures/transcripts/swe-agent';
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

const demoFiles = {
  '.agent/SESSION_SUMMARY.md': '# Demo summary\n',
  '.agent/plan/PLAN.md': '# Plan\n\nGoal: the demo\n',
  '.agent/SESSION.jsonl': '',
  'AGENTS.md': '# Agents\n',
  'reproduce_issue.py': 'print("demo")\n',
};

function snapshot(dir: ReturnType<typeof memoryDirectory>, paths: readonly string[]) {
  return Object.fromEntries(
    paths.map((p) => [p, new TextDecoder().decode(dir.bytes(p) ?? new Uint8Array())]),
  );
}

async function importSwe(api: BrainApi) {
  const fixture = generateSweAgentTrajectory();
  const [session] = (
    await api.importTranscript({
      files: [{ name: fixture.name, data: new TextEncoder().encode(fixture.text) }],
    })
  ).sessions;
  return session!;
}

describe('the project of an agent working folder', () => {
  it('is named by the last segment; a folder holds it when its name is one of the segments', () => {
    expect(projectOfRoot('/testbed')).toEqual({ name: 'testbed', path: '/testbed' });
    expect(projectOfRoot('/home/dev/ledger/')).toEqual({ name: 'ledger', path: '/home/dev/ledger/' });
    expect(projectOfRoot('C:\\work\\app')).toEqual({ name: 'app', path: 'C:\\work\\app' });
    expect(projectOfRoot('/')).toBeNull();
    expect(projectOfRoot(null)).toBeNull();
    expect(folderHoldsRoot('ledger', '/home/dev/ledger/packages/core')).toBe(true);
    expect(folderHoldsRoot('demo', '/testbed')).toBe(false);
  });

  it('keeps an imported session out of another open project: no file read or written, rollback refused', async () => {
    const api = await brain();
    const demo = memoryDirectory('demo', demoFiles);
    await api.openProject({ kind: 'handle', handle: demo.handle });
    const before = snapshot(demo, Object.keys(demoFiles));
    const session = await importSwe(api);

    expect(await api.sessionProject(session.sessionId)).toEqual({
      name: 'testbed',
      path: '/testbed',
      folder: null,
      open: false,
    });
    const [task] = await api.listTasks(session.sessionId);
    const plan = await api.createPlan({ taskId: task!.id, goal: 'Fix it', steps: [{ what: 'Reproduce' }] });
    expect(plan.planFile).toBe('no-folder');
    const note = await api.recordEvent({ sessionId: session.sessionId, kind: 'note', text: 'a note' });
    expect(note.sessionFile).toBe('no-folder');
    expect((await api.compressContext(session.sessionId)).files.status).toBe('no-folder');
    const point = await api.resumePoint(session.sessionId);
    expect(point.load.files).toEqual([]);
    expect(point.folder).toBeNull();
    await expect(api.planRestore({ taskId: task!.id })).rejects.toMatchObject({
      code: 'PermissionDenied',
      message: expect.stringContaining('"testbed"'),
    });
    await expect(api.restoreCheckpoints({ target: { taskId: task!.id }, files: [] })).rejects.toMatchObject({
      code: 'PermissionDenied',
    });
    expect(snapshot(demo, Object.keys(demoFiles))).toEqual(before);

    // The brain's own session (no root) still uses the open folder.
    const own = await api.startSession({ title: 'mine' });
    expect(await api.sessionProject(own.id)).toBeNull();
    expect((await api.recordEvent({ sessionId: own.id, kind: 'note', text: 'mine' })).sessionFile).toBe(
      'appended',
    );
  });

  it('uses the agent’s folder when that folder is open', async () => {
    const api = await brain();
    const session = await importSwe(api);
    const testbed = memoryDirectory('testbed', {});
    await api.openProject({ kind: 'handle', handle: testbed.handle });
    expect(await api.sessionProject(session.sessionId)).toMatchObject({ name: 'testbed', open: true });
    const [task] = await api.listTasks(session.sessionId);
    const plan = await api.createPlan({ taskId: task!.id, goal: 'Fix it', steps: [{ what: 'Reproduce' }] });
    expect(plan.planFile).toBe('written');
    expect(testbed.bytes('.agent/plan/PLAN.md')).not.toBeNull();
  });

  it('a Claude Code session’s project is its cwd', async () => {
    const api = await brain();
    const fixture = generateClaudeCodeSession();
    const [session] = (
      await api.importTranscript({
        files: [fixture.main, fixture.subagent].map((f) => ({ name: f.name, data: f.bytes })),
      })
    ).sessions;
    expect(await api.sessionProject(session!.sessionId)).toEqual({
      name: fixture.truth.cwd.split('/').pop(),
      path: fixture.truth.cwd,
      folder: null,
      open: false,
    });
  });

  it('a folder of another name is the project once the person says so, for every session of that folder', async () => {
    const api = await brain();
    const session = await importSwe(api);
    await expect(api.confirmSessionProject(session.sessionId)).rejects.toMatchObject({ code: 'NotFound' });
    const checkout = memoryDirectory('flask-checkout', {});
    await api.openProject({ kind: 'handle', handle: checkout.handle });
    expect(await api.sessionProject(session.sessionId)).toMatchObject({ open: false });
    expect(await api.confirmSessionProject(session.sessionId)).toEqual({
      name: 'testbed',
      path: '/testbed',
      folder: 'flask-checkout',
      open: true,
    });
    const [task] = await api.listTasks(session.sessionId);
    expect((await api.createPlan({ taskId: task!.id, goal: 'Fix', steps: [{ what: 'a' }] })).planFile).toBe(
      'written',
    );
    await api.planRestore({ taskId: task!.id });
    // A second run in /testbed is that project too; another folder is not.
    const second = generateSweAgentTrajectory(72);
    const [other] = (
      await api.importTranscript({
        files: [
          {
            name: 'other/other.traj',
            data: new TextEncoder().encode(second.text.replace('pallets__flask-5063', 'x__y-1')),
          },
        ],
      })
    ).sessions;
    expect(await api.sessionProject(other!.sessionId)).toMatchObject({
      open: true,
      folder: 'flask-checkout',
    });
    await api.openProject({ kind: 'handle', handle: memoryDirectory('elsewhere', {}).handle });
    expect(await api.sessionProject(session.sessionId)).toMatchObject({ open: false });
    const own = await api.startSession({ title: 'mine' });
    await expect(api.confirmSessionProject(own.id)).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});
