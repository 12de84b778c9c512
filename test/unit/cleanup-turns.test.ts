import { describe, expect, it } from 'vitest';
import { checkpointCleanup } from '../../src/storage/sqlite/repos/cleanup-repo';
import { turnBudgetMs } from '../../src/engine/lifecycle/run';
import type { BrainApi, CleanupProgress, TaskId } from '../../src/core/api';
import { makeHeavy } from './cleanup-fixtures';
import { memoryBrain } from './engine-helpers';

/** A monotonic clock on which every reading is `stepMs` later: a task's cleanup "takes" a few readings. */
function slowTimers(stepMs: number) {
  let time = 0;
  return {
    now: () => (time += stepMs),
    set: () => 0,
    clear: () => undefined,
  };
}

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
  it('lets a call made during a long cleanup run between two tasks, and reports progress after each task', async () => {
    const { api } = await memoryBrain({ lifecycle: { timers: slowTimers(turnBudgetMs / 2) } });
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

  it('re-plans each turn: a task protected meanwhile is not cleaned', async () => {
    const { api } = await memoryBrain({ lifecycle: { timers: slowTimers(turnBudgetMs) } });
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
        timers: slowTimers(turnBudgetMs),
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
