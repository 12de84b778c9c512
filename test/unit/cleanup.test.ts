import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock';
import { createBrainApi } from '../../src/engine/create-engine';
import type { BrainApi, BrainChange, TaskId } from '../../src/core/api';
import { body, heavyState, makeHeavy, manualTimers } from './cleanup-fixtures';
import { checkpointCleanup } from '../../src/storage/sqlite/repos/cleanup-repo';
import { memoryBrain } from './engine-helpers';

/** One session holding every kind of protection, plus one superseded task nothing needs. */
async function protectionScenario(api: BrainApi) {
  const { id: sessionId } = await api.startSession({ title: 'protection' });
  const start = async (title: string, extra: Partial<Parameters<BrainApi['startTask']>[0]> = {}) =>
    (await api.startTask({ sessionId, title, makeCurrent: false, ...extra })).id;
  const running = await start('running');
  const waiting = await start('waiting');
  await api.setTaskState(waiting, 'waiting_user');
  const referenced = await start('referenced');
  await api.setTaskState(referenced, 'done');
  const current = await start('current', { references: [{ to: referenced, kind: 'reference' }] });
  await api.setTaskState(current, 'done');
  const child = await start('child', { parentTaskId: current });
  const grandchild = await start('grandchild', { parentTaskId: child });
  await api.setTaskState(child, 'done');
  await api.setTaskState(grandchild, 'superseded');
  const pinned = await start('pinned');
  await api.setTaskState(pinned, 'superseded');
  await api.pinTask(pinned, true);
  const superseded = await start('superseded');
  await api.setTaskState(superseded, 'superseded');
  await api.setCurrentTask(sessionId, current);
  const kept = { running, waiting, current, child, grandchild, referenced, pinned };
  for (const id of [...Object.values(kept), superseded]) await makeHeavy(api, id);
  await api.recordMessage({
    sessionId,
    taskId: superseded,
    role: 'assistant',
    content: 'I replaced the parser.',
  });
  await api.recordSummary({
    sessionId,
    taskId: superseded,
    kind: 'task',
    content: 'Parser replaced; tests green.',
  });
  return { sessionId, kept, superseded };
}

describe('cleanup through the engine (Node, real SQLite in memory)', () => {
  it('keeps every checkpoint of running, waiting, current, child-of-current (two deep), referenced and pinned tasks', async () => {
    const { api } = await memoryBrain();
    const { kept, superseded, sessionId } = await protectionScenario(api);
    const before = new Map<TaskId, Awaited<ReturnType<typeof heavyState>>>();
    for (const id of Object.values(kept)) before.set(id, await heavyState(api, id));

    const plan = await api.planCleanup();
    const verdict = (id: TaskId) => plan.tasks.find((t) => t.taskId === id);
    expect(verdict(kept.running)?.reasons).toEqual([{ kind: 'running' }]);
    expect(verdict(kept.waiting)?.reasons).toEqual([{ kind: 'waiting_user' }]);
    expect(verdict(kept.current)?.reasons).toEqual([{ kind: 'current', sessionId }]);
    expect(verdict(kept.child)?.reasons).toEqual([
      { kind: 'referenced', by: kept.current, refKind: 'child', path: [kept.current, kept.child] },
    ]);
    expect(verdict(kept.grandchild)?.reasons).toEqual([
      {
        kind: 'referenced',
        by: kept.child,
        refKind: 'child',
        path: [kept.current, kept.child, kept.grandchild],
      },
    ]);
    expect(verdict(kept.referenced)?.reasons).toEqual([
      { kind: 'referenced', by: kept.current, refKind: 'reference', path: [kept.current, kept.referenced] },
    ]);
    expect(verdict(kept.pinned)?.reasons).toEqual([{ kind: 'pinned' }]);
    expect(verdict(superseded)).toMatchObject({
      verdict: 'clean',
      reasons: [{ kind: 'superseded' }],
      title: 'superseded',
    });
    expect(verdict(superseded)?.freesBytes).toBeGreaterThan(0);
    expect(plan.counts).toEqual({ keep: 7, clean: 1, skip: 0 });
    expect(plan.freesBytes).toBe(verdict(superseded)?.freesBytes);

    const report = await api.cleanup();
    expect(report.cleaned.map((r) => r.taskId)).toEqual([superseded]);
    expect(report.failed).toEqual([]);
    for (const [id, state] of before) expect(await heavyState(api, id)).toEqual(state);
    for (const state of before.values()) {
      expect(state.steps).toBe(3);
      expect(state.reads.every((r) => r.ok)).toBe(true);
    }
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('removes an unreferenced superseded task’s heavy data, keeps its row, messages and summaries, and logs it', async () => {
    const { api } = await memoryBrain();
    const { superseded, sessionId } = await protectionScenario(api);
    const stepsBefore = await api.listSteps(superseded);
    const plan = await api.planCleanup();
    const planned = plan.tasks.find((t) => t.taskId === superseded);

    const report = await api.cleanup();
    const [record] = report.cleaned;
    expect(record).toMatchObject({
      taskId: superseded,
      reason: { kind: 'superseded' },
      reasonText: 'marked superseded and not needed by any kept task',
      stepsRemoved: 3,
      checkpointEntriesRemoved: 3,
    });
    expect(record?.stepBytesRemoved).toBe(planned?.heavy.stepBytes);
    expect(record?.bodiesRemoved).toBeGreaterThan(0);
    expect(record?.storedBytesRemoved).toBeGreaterThan(0);
    expect(record?.rawBytesRemoved).toBeGreaterThanOrEqual(body(superseded, 0).length);
    expect(report.bytesFreed).toBe((record?.stepBytesRemoved ?? 0) + (record?.storedBytesRemoved ?? 0));
    expect(stepsBefore.length).toBe(3);

    const state = await heavyState(api, superseded);
    expect(state.steps).toBe(0);
    expect(state.entries).toBe(3);
    expect(state.reads).toEqual([
      { ok: false, code: 'CheckpointRemoved' },
      { ok: false, code: 'CheckpointRemoved' },
      { ok: false, code: 'CheckpointRemoved' },
    ]);
    const entry = (await api.listCheckpoints(superseded))[0];
    await expect(api.readCheckpoint(entry?.id as never)).rejects.toThrow(
      /was removed on .* \(task superseded\); its file bodies are no longer stored/,
    );
    expect(state.heavyRemovedAt).toBe(record?.at);
    expect((await api.getTask(superseded)).title).toBe('superseded');
    expect((await api.listMessages(sessionId, superseded)).map((m) => m.content)).toEqual([
      'I replaced the parser.',
    ]);
    expect((await api.listSummaries(sessionId)).map((s) => s.content)).toEqual([
      'Parser replaced; tests green.',
    ]);

    expect(await api.cleanupLog()).toEqual([record]);
    expect(await api.cleanupLog({ taskId: superseded })).toEqual([record]);
    expect(await api.cleanupLog({ taskId: 999 as never })).toEqual([]);
    const again = await api.cleanup();
    expect(again.cleaned).toEqual([]);
    expect((await api.planCleanup()).tasks.find((t) => t.taskId === superseded)).toMatchObject({
      verdict: 'skip',
      reasons: [{ kind: 'already-cleaned', at: record?.at }],
    });
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('keeps a body another task still needs when the task that shared it is cleaned', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: old } = await api.startTask({ sessionId, title: 'old' });
    const { id: next } = await api.startTask({ sessionId, title: 'next' });
    const shared = body(1, 1, 400);
    await api.checkpointFile({ taskId: old, path: 'a.ts', before: body(1, 0, 400), after: shared });
    const { id: keptEntry } = await api.checkpointFile({
      taskId: next,
      path: 'a.ts',
      before: shared,
      after: body(1, 2, 400),
    });
    await api.setTaskState(old, 'superseded');
    const report = await api.cleanup();
    expect(report.cleaned.map((r) => r.taskId)).toEqual([old]);
    expect(await api.readCheckpoint(keptEntry)).toMatchObject({ before: shared, after: body(1, 2, 400) });
  });

  it('emits a cleanup change per task cleaned', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const ids: TaskId[] = [];
    for (let i = 0; i < 3; i++) {
      const { id } = await api.startTask({ sessionId, title: `t${i}` });
      await makeHeavy(api, id, 1, 1);
      ids.push(id);
    }
    for (const id of ids.slice(0, 2)) await api.setTaskState(id, 'superseded');
    const changes: BrainChange[] = [];
    await api.subscribe((change) => void changes.push(change));
    await api.cleanup();
    expect(changes.filter((c) => c.topic === 'cleanup')).toEqual(
      ids.slice(0, 2).map((taskId) => ({ topic: 'cleanup', taskId, sessionId })),
    );
  });

  it('cleans orphans of a deleted session at most 4 a pass, whatever their stale state', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'doomed' });
    const { id: keeper } = await api.startSession({ title: 'keeper' });
    const ids: TaskId[] = [];
    for (let i = 0; i < 7; i++) {
      const { id } = await api.startTask({ sessionId, title: `t${i}` });
      await makeHeavy(api, id, 1, 1);
      ids.push(id);
    }
    const { id: live } = await api.startTask({
      sessionId: keeper,
      title: 'live',
      references: [{ to: ids[6] as TaskId, kind: 'reference' }],
    });
    await api.deleteSession(sessionId);
    const first = await api.cleanup();
    expect(first.cleaned.map((r) => [r.taskId, r.reason])).toEqual(
      ids.slice(0, 4).map((id) => [id, { kind: 'orphan', state: 'running' }]),
    );
    expect(first.deferred).toBe(2);
    const second = await api.cleanup();
    expect(second.cleaned.map((r) => r.taskId)).toEqual(ids.slice(4, 6));
    expect(second.deferred).toBe(0);
    const plan = await api.planCleanup();
    expect(plan.tasks.find((t) => t.taskId === ids[6])?.reasons[0]).toMatchObject({
      kind: 'referenced',
      by: live,
    });
    expect((await heavyState(api, ids[6] as TaskId)).steps).toBe(1);
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('cleans the checkpoint entries of a task whose row is gone, as an orphan', async () => {
    const { api, database } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: gone } = await api.startTask({ sessionId, title: 'gone', makeCurrent: false });
    const { id: stays } = await api.startTask({ sessionId, title: 'stays' });
    const [entry] = await makeHeavy(api, gone, 1, 2);
    await makeHeavy(api, stays, 1, 1);
    await database.driver.run('DELETE FROM tasks WHERE id = ?', [gone]);
    const plan = await api.planCleanup();
    expect(plan.vanishedTasks).toMatchObject([
      { taskId: gone, verdict: 'clean', reasons: [{ kind: 'task-gone' }] },
    ]);
    expect(plan.vanishedTasks[0]?.heavy.checkpointEntries).toBe(2);
    const report = await api.cleanup();
    expect(report.cleaned).toMatchObject([
      { taskId: gone, reason: { kind: 'task-gone' }, checkpointEntriesRemoved: 2, stepsRemoved: 0 },
    ]);
    await expect(api.readCheckpoint(entry as never)).rejects.toMatchObject({ code: 'CheckpointRemoved' });
    expect((await api.planCleanup()).vanishedTasks).toEqual([]);
    expect((await heavyState(api, stays)).reads.every((r) => r.ok)).toBe(true);
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('cleans in batches with maxTasks, reporting what remains', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    for (let i = 0; i < 3; i++) {
      const { id } = await api.startTask({ sessionId, title: `t${i}` });
      await api.setTaskState(id, 'done');
    }
    // Each done task is superseded by the next one started; the last is superseded by a running one.
    await api.startTask({ sessionId, title: 'next' });
    const first = await api.cleanup({ maxTasks: 2 });
    expect([first.cleaned.map((r) => r.taskId), first.planned, first.remaining]).toEqual([[1, 2], 3, 1]);
    const second = await api.cleanup({ maxTasks: 2 });
    expect([second.cleaned.map((r) => r.taskId), second.remaining]).toEqual([[3], 0]);
    await expect(api.cleanup({ maxTasks: 0 })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('validates cleanupLog queries and pages newest first', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    for (let i = 0; i < 3; i++) {
      const { id } = await api.startTask({ sessionId, title: `t${i}` });
      await api.setTaskState(id, 'done');
    }
    // Each done task is superseded by the next one started; the last is superseded by a running one.
    await api.startTask({ sessionId, title: 'next' });
    await api.cleanup();
    const log = await api.cleanupLog();
    expect(log.map((r) => r.taskId)).toEqual([3, 2, 1]);
    expect((await api.cleanupLog({ limit: 1, beforeId: log[0]?.id })).map((r) => r.taskId)).toEqual([2]);
    await expect(api.cleanupLog({ limit: 0 })).rejects.toMatchObject({ code: 'InvalidArgument' });
    await expect(api.cleanupLog({ taskId: -3 as never })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});

describe('automatic cleanup', () => {
  it('runs a pass after task state changes, without any byte threshold', async () => {
    const { timers, advance } = manualTimers();
    const { api } = await memoryBrain({
      lifecycle: { enabled: true, debounceMs: 100, idleMs: 10_000, timers },
    });
    const { id: sessionId } = await api.startSession();
    const { id: first } = await api.startTask({ sessionId, title: 'first' });
    await makeHeavy(api, first, 2, 1);
    const { id: second } = await api.startTask({ sessionId, title: 'second' });
    await api.setTaskState(first, 'superseded');
    await advance(50);
    expect((await api.getTask(first)).heavyRemovedAt).toBeNull();
    await advance(60);
    await expect.poll(async () => (await api.getTask(first)).heavyRemovedAt).not.toBeNull();
    expect((await api.listSteps(first)).length).toBe(0);
    expect((await api.getTask(second)).heavyRemovedAt).toBeNull();
    const status = await api.setAutoCleanup({ enabled: false });
    expect(status).toMatchObject({ enabled: false, lastError: null });
    expect(status.runs).toBeGreaterThanOrEqual(1);
    await expect(api.setAutoCleanup({ debounceMs: -1 })).rejects.toMatchObject({ code: 'InvalidArgument' });
    await expect(api.setAutoCleanup(null as never)).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('does not spin on a task that keeps failing, and reports it in the status', async () => {
    const { timers, advance } = manualTimers();
    let victim = 0;
    const { api } = await memoryBrain({
      lifecycle: {
        enabled: true,
        debounceMs: 10,
        idleMs: 1_000_000,
        timers,
        checkpoints: (db) => {
          const real = checkpointCleanup(db);
          return {
            ...real,
            removeTaskCheckpoints: async (taskId, removal) => {
              if (taskId === victim) throw new Error('this task cannot be cleaned');
              return real.removeTaskCheckpoints(taskId, removal);
            },
          };
        },
      },
    });
    const { id: sessionId } = await api.startSession();
    const ids: TaskId[] = [];
    for (let i = 0; i < 20; i++) ids.push((await api.startTask({ sessionId, title: `t${i}` })).id);
    victim = ids[0] as number;
    for (const id of ids.slice(0, 19)) await api.setTaskState(id, 'done');
    await advance(20);
    await expect
      .poll(async () => (await api.audit()).autoCleanup.lastError?.message ?? '')
      .toMatch(/could not clean task\(s\) 1: this task cannot be cleaned/);
    const plan = await api.planCleanup();
    expect(plan.tasks.filter((t) => t.verdict === 'clean').map((t) => t.taskId)).toEqual([victim]);
  });

  it('is off by default for an in-memory engine and on for a real (OPFS) one', async () => {
    const { api, database } = await memoryBrain();
    expect((await api.audit()).autoCleanup.enabled).toBe(false);
    const opfsLike = createBrainApi({
      database,
      storage: 'opfs',
      clock: fixedClock(),
      lifecycle: { timers: { now: () => 0, set: () => 0, clear: () => undefined } },
    });
    expect((await opfsLike.audit()).autoCleanup).toMatchObject({
      enabled: true,
      debounceMs: 2_000,
      idleMs: 60_000,
    });
  });
});
