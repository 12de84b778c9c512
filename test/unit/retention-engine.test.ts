/**
 * Issue 17, item 1, through the engine with its automatic passes on a hand-moved clock: a finished task the
 * interface still offers to roll back (the latest of its session) and a restore task with the task it restored keep
 * their heavy data through passes; a newer task of the session supersedes them, and the dry run says by which.
 */
import { describe, expect, it } from 'vitest';
import type { BrainApi, SessionId, TaskId } from '../../src/core/api';
import { restoreTitle } from '../../src/engine/project/rollback';
import { heavyState, makeHeavy, manualTimers } from './cleanup-fixtures';
import { memoryBrain } from './engine-helpers';

async function finishedTask(api: BrainApi, sessionId: SessionId, title: string, refs: TaskId[] = []) {
  const { id } = await api.startTask({
    sessionId,
    title,
    makeCurrent: false,
    references: refs.map((to) => ({ to, kind: 'reference' as const })),
  });
  await makeHeavy(api, id, 2, 2);
  await api.setTaskState(id, 'done');
  return id;
}

const intact = async (api: BrainApi, id: TaskId) => {
  const state = await heavyState(api, id);
  return state.heavyRemovedAt === null && state.steps === 2 && state.reads.every((r) => r.ok);
};

describe('retention through the automatic passes', () => {
  it('keeps the latest finished task and a restore with what it restored until a newer task starts', async () => {
    const { timers, advance } = manualTimers();
    const { api } = await memoryBrain({
      lifecycle: { enabled: true, debounceMs: 100, maxWaitMs: 1_000, idleMs: 2_000, timers },
    });
    const { id: sessionId } = await api.startSession({ title: 'fix' });
    // Not current: the session points nowhere, as after an agent finishes.
    await api.setCurrentTask(sessionId, null);
    const earlier = await finishedTask(api, sessionId, 'Look around');
    const fix = await finishedTask(api, sessionId, 'Fix the bug');
    // What restoreCheckpoints records: a finished restore task referencing the task it restored.
    const restore = await finishedTask(api, sessionId, restoreTitle(['Fix the bug']), [fix]);

    const runs = async () => (await api.audit()).autoCleanup.runs;
    const runsBefore = await runs();
    await advance(150); // the change pass
    await advance(2_100); // the idle pass
    await expect.poll(runs).toBeGreaterThanOrEqual(runsBefore + 2);
    await advance(150);
    await advance(2_100);
    // The passes clean (the control), but not what the interface can still act on.
    expect((await api.getTask(earlier)).heavyRemovedAt).not.toBeNull();
    expect(await intact(api, fix)).toBe(true);
    expect(await intact(api, restore)).toBe(true);
    const kept = (await api.planCleanup()).tasks.filter((t) => t.verdict === 'keep');
    expect(kept.map((t) => [t.taskId, t.reasons[0]?.kind])).toEqual([
      [fix, 'referenced'],
      [restore, 'latest'],
    ]);

    // A newer task of the session starts: both are superseded, and the dry run says by which task.
    const { id: next } = await api.startTask({ sessionId, title: 'Next', makeCurrent: false });
    await api.setAutoCleanup({ enabled: false });
    const plan = await api.planCleanup();
    const why = (id: TaskId) => plan.tasks.find((t) => t.taskId === id);
    expect(why(restore)).toMatchObject({
      verdict: 'clean',
      reasons: [{ kind: 'superseded', by: next }],
      reasonText: `superseded: task ${next}, a newer task of its session, has started; not needed by any kept task`,
    });
    expect(why(fix)).toMatchObject({ verdict: 'clean', reasons: [{ kind: 'superseded', by: restore }] });
    expect(why(next)).toMatchObject({ verdict: 'keep', reasons: [{ kind: 'running' }] });
    const report = await api.cleanup();
    expect(report.cleaned.map((r) => r.taskId)).toEqual([fix, restore]);
  });

  it('a task of a deleted session is superseded whatever its state', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'gone' });
    const only = await finishedTask(api, sessionId, 'only');
    expect((await api.planCleanup()).tasks[0]).toMatchObject({
      verdict: 'keep',
      reasons: [{ kind: 'latest' }],
    });
    await api.deleteSession(sessionId);
    expect((await api.planCleanup()).tasks[0]).toMatchObject({
      taskId: only,
      verdict: 'clean',
      reasons: [{ kind: 'orphan', state: 'done' }],
    });
  });
});

describe('restoreTitle', () => {
  it('names a restore, the undo of a restore, and the undo of that undo', () => {
    expect(restoreTitle(['Fix the bug'])).toBe('Restore: Fix the bug');
    expect(restoreTitle(['Restore: Fix the bug'])).toBe('Undo restore: Fix the bug');
    expect(restoreTitle(['Undo restore: Fix the bug'])).toBe('Restore: Fix the bug');
    expect(restoreTitle(['a', 'Restore: b'])).toBe('Restore: a, Restore: b');
    expect(restoreTitle([])).toBe('Restore: checkpoint entries');
  });
});
