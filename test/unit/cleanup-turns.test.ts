import { describe, expect, it } from 'vitest';
import { checkpointCleanup } from '../../src/storage/sqlite/repos/cleanup-repo';
import { walCheckpointBytes } from '../../src/engine/lifecycle/run';
import type { BrainApi, CleanupProgress, TaskId } from '../../src/core/api';
import { makeHeavy } from './cleanup-fixtures';
import { memoryBrain } from './engine-helpers';

/**
 * Timers whose clock never moves: however slow or fast the machine, nothing here ends a turn on time — the turns
 * are what the runner decides by count (the cleanup before issue 32 cleaned for 100 ms a turn: with this clock,
 * every task in one turn).
 */
const frozenTimers = { now: () => 0, set: () => 0, clear: () => undefined };

/** `n` done tasks, each superseded by the next one of its session: the last by a running task after them. */
async function doneTasks(api: BrainApi, n: number, heavy = true): Promise<TaskId[]> {
  const { id: sessionId } = await api.startSession();
  const ids: TaskId[] = [];
  for (let i = 0; i < n; i++) {
    const { id } = await api.startTask({ sessionId, title: `t${i}`, makeCurrent: false });
    if (heavy) await makeHeavy(api, id, 1, 2);
    await api.setTaskState(id, 'done');
    ids.push(id);
  }
  await api.startTask({ sessionId, title: 'next' });
  return ids;
}

describe('cleanup() in turns', () => {
  it('answers a call made during cleanup() before the next task: one task a turn (issue 32)', async () => {
    const { api } = await memoryBrain({ lifecycle: { timers: frozenTimers } });
    const ids = await doneTasks(api, 8);
    const events: string[] = [];
    const calls: Promise<unknown>[] = [];
    // A call made at each progress report (inside the turn that cleaned the task) and one made at once.
    const ask = (label: string) =>
      calls.push(api.getTask(ids[7] as TaskId).then(() => events.push(`answered ${label}`)));
    const cleaning = api.cleanup(undefined, (p) => {
      events.push(`cleaned ${p.done}`);
      ask(String(p.done));
    });
    ask('0');
    const report = await cleaning;
    await Promise.all(calls);
    expect(report.cleaned.map((r) => r.taskId)).toEqual(ids);
    // Each call is answered before the next task is cleaned: the one made at once after the first task (its turn
    // was queued first), every other right after the task during which it was made.
    expect(events).toEqual([
      'cleaned 1',
      'answered 0',
      'answered 1',
      ...ids.slice(1).flatMap((_, i) => [`cleaned ${i + 2}`, `answered ${i + 2}`]),
    ]);
  });

  it('copies the WAL in a turn of its own once the pass wrote walCheckpointBytes, after the calls queued', async () => {
    let written = 0;
    const events: string[] = [];
    const { api } = await memoryBrain({
      lifecycle: {
        timers: frozenTimers,
        wal: {
          written: () => written,
          checkpoint: async () => void events.push('wal'),
        },
      },
    });
    const ids = await doneTasks(api, 5, false);
    const calls: Promise<unknown>[] = [];
    const report = await api.cleanup(undefined, (p) => {
      // Each task "writes" half the threshold: a WAL turn after every second task.
      written += walCheckpointBytes / 2;
      events.push(`cleaned ${p.done}`);
      calls.push(api.getTask(ids[0] as TaskId).then(() => events.push(`answered ${p.done}`)));
    });
    await Promise.all(calls);
    expect(report.cleaned.length).toBe(5);
    expect(events).toEqual([
      'cleaned 1',
      'answered 1',
      'cleaned 2',
      'answered 2',
      'wal',
      'cleaned 3',
      'answered 3',
      'cleaned 4',
      'answered 4',
      'wal',
      'cleaned 5',
      'answered 5',
    ]);
  });

  it('lets a call made during a long cleanup run between two tasks, and reports progress after each task', async () => {
    const { api } = await memoryBrain({ lifecycle: { timers: frozenTimers } });
    const ids = await doneTasks(api, 10);
    const seen: CleanupProgress[] = [];
    let cleanupDone = false;
    const cleaning = api
      .cleanup(undefined, (p) => {
        seen.push(p);
      })
      .finally(() => (cleanupDone = true));
    // Queued behind the first turn, ahead of the next.
    const task = await api.getTask(ids[9] as TaskId);
    const handledWhenAnswered = seen.length;
    expect(cleanupDone).toBe(false);
    expect(task.heavyRemovedAt).toBeNull();
    expect(handledWhenAnswered).toBeGreaterThan(0);
    expect(handledWhenAnswered).toBeLessThan(10);

    const report = await cleaning;
    expect(report.cleaned.map((r) => r.taskId)).toEqual(ids);
    expect([report.planned, report.remaining, report.failed]).toEqual([10, 0, []]);
    expect(seen.map((p) => [p.done, p.total, p.cleaned, p.failed, p.taskId])).toEqual(
      ids.map((id, i) => [i + 1, 10, i + 1, 0, id]),
    );
    let freed = 0;
    for (const [i, p] of seen.entries()) {
      freed += (report.cleaned[i]?.stepBytesRemoved ?? 0) + (report.cleaned[i]?.storedBytesRemoved ?? 0);
      expect(p.bytesFreed).toBe(freed);
    }
    expect(report.bytesFreed).toBe(freed);
  });

  it('plans again when protection changed: a task protected meanwhile is not cleaned', async () => {
    const { api } = await memoryBrain({ lifecycle: { timers: frozenTimers } });
    const ids = await doneTasks(api, 6);
    const last = ids[5] as TaskId;
    const cleaning = api.cleanup();
    await api.pinTask(last, true);
    const report = await cleaning;
    expect(report.cleaned.map((r) => r.taskId)).toEqual(ids.slice(0, 5));
    expect(report.remaining).toBe(0);
    expect((await api.getTask(last)).heavyRemovedAt).toBeNull();
    expect((await api.listSteps(last)).length).toBe(1);
  });

  it('keeps maxTasks across turns and tries a failing task once a call', async () => {
    let victim = 0;
    let attempts = 0;
    const { api } = await memoryBrain({
      lifecycle: {
        timers: frozenTimers,
        checkpoints: (db) => {
          const real = checkpointCleanup(db);
          return {
            ...real,
            removeTaskCheckpoints: async (taskId, removal) => {
              if (taskId === victim) {
                attempts++;
                throw new Error('this task cannot be cleaned');
              }
              return real.removeTaskCheckpoints(taskId, removal);
            },
          };
        },
      },
    });
    const ids = await doneTasks(api, 7, false);
    victim = ids[1] as number;
    const seen: CleanupProgress[] = [];
    const first = await api.cleanup({ maxTasks: 4 }, (p) => void seen.push(p));
    expect(first.cleaned.map((r) => r.taskId)).toEqual([ids[0], ids[2], ids[3]]);
    expect(first.failed.map((f) => [f.taskId, f.error.message])).toEqual([
      [victim, 'this task cannot be cleaned'],
    ]);
    expect([first.planned, first.remaining, attempts]).toEqual([7, 3, 1]);
    expect(seen.map((p) => [p.done, p.total, p.failed])).toEqual([
      [1, 4, 0],
      [2, 4, 1],
      [3, 4, 1],
      [4, 4, 1],
    ]);
    const second = await api.cleanup();
    expect(second.cleaned.map((r) => r.taskId)).toEqual(ids.slice(4));
    expect([second.failed.length, second.remaining, attempts]).toEqual([1, 0, 2]);
    await expect(api.cleanup({ maxTasks: 0 })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('goes on when the progress listener throws', async () => {
    const { api } = await memoryBrain();
    const ids = await doneTasks(api, 3, false);
    const report = await api.cleanup({}, () => {
      throw new Error('listener broke');
    });
    expect(report.cleaned.map((r) => r.taskId)).toEqual(ids);
  });
});
