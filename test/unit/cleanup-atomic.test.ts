import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock';
import { BrainError } from '../../src/core/errors';
import { checkpointCleanup } from '../../src/storage/sqlite/repos/cleanup-repo';
import { createBrainApi } from '../../src/engine/create-engine';
import type { BrainApi, TaskId } from '../../src/core/api';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import { faultyDatabase, heavyState, makeHeavy } from './cleanup-fixtures';
import { memoryBrain } from './engine-helpers';

/** Four superseded tasks with steps and checkpoints, and a current one. */
async function fourCleanable(api: BrainApi) {
  const { id: sessionId } = await api.startSession();
  const ids: TaskId[] = [];
  for (let i = 0; i < 4; i++) {
    const { id } = await api.startTask({ sessionId, title: `t${i}` });
    await makeHeavy(api, id, 4, 3);
    ids.push(id);
  }
  await api.startTask({ sessionId, title: 'current' });
  for (const id of ids) await api.setTaskState(id, 'superseded');
  return ids;
}

async function rowCounts(api: BrainApi, ids: readonly TaskId[]) {
  return Promise.all(ids.map((id) => heavyState(api, id)));
}

/** Each task's step ids, taken before cleanup removes them. */
async function stepIdsOf(db: SqlDriver, ids: readonly TaskId[]) {
  return Promise.all(
    ids.map(async (id) =>
      (await db.all<{ id: number }>('SELECT id FROM steps WHERE task_id = ?', [id])).map((r) => r.id),
    ),
  );
}

/** How many search documents each task's steps have (they go with the steps, in the same transaction). */
async function stepDocs(db: SqlDriver, stepIds: readonly (readonly number[])[]) {
  const counts: (number | undefined)[] = [];
  for (const ids of stepIds) {
    const row = await db.get<{ n: number }>(
      `SELECT count(*) AS n FROM history_docs WHERE source = 'step' AND source_id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(ids)],
    );
    counts.push(row?.n);
  }
  return counts;
}

describe('cleanup is atomic per task', () => {
  it('a failure in the middle of one task’s cleanup leaves that task untouched; earlier tasks are fully cleaned', async () => {
    const { api, database } = await memoryBrain();
    const ids = await fourCleanable(api);
    const before = await rowCounts(api, ids);
    const stepIds = await stepIdsOf(database.driver, ids);
    expect(await stepDocs(database.driver, stepIds)).toEqual([4, 4, 4, 4]);
    const victim = ids[2] as TaskId;

    // The log record is written last in a task's transaction: by then its steps are deleted and its checkpoint
    // entries marked removed. Fail exactly there, for the third task only.
    let logInserts = 0;
    const faulty = createBrainApi({
      database: faultyDatabase(
        database,
        (sql) => sql.includes('INSERT INTO cleanup_log') && ++logInserts === 3,
      ),
      storage: 'memory',
      clock: fixedClock(2_000_000_000_000),
    });
    const report = await faulty.cleanup();
    expect(report.cleaned.map((r) => r.taskId)).toEqual([ids[0], ids[1], ids[3]]);
    expect(report.failed).toMatchObject([
      { taskId: victim, error: { code: 'Internal', message: expect.stringContaining('injected failure') } },
    ]);

    const after = await rowCounts(api, ids);
    expect(after[2]).toEqual(before[2]);
    expect(after[2]?.reads.every((r) => r.ok)).toBe(true);
    expect(await stepDocs(database.driver, stepIds)).toEqual([0, 0, 4, 0]);
    for (const i of [0, 1, 3]) {
      expect(after[i]).toMatchObject({ steps: 0, entries: 3 });
      expect(after[i]?.reads.every((r) => !r.ok && r.code === 'CheckpointRemoved')).toBe(true);
      expect(after[i]?.heavyRemovedAt).not.toBeNull();
    }
    expect((await api.cleanupLog()).map((r) => r.taskId).sort()).toEqual([ids[0], ids[1], ids[3]].sort());
    expect(await api.integrityCheck()).toEqual(['ok']);

    // The counters the audit reads rolled back with the task: they still match the rows.
    const audit = await api.audit();
    const exact = await database.driver.get<{ bytes: number }>(
      'SELECT sum(octet_length(tool) + octet_length(params) + octet_length(result)) AS bytes FROM steps',
    );
    expect(audit.bytes.steps).toBe(exact?.bytes);

    // Nothing is stuck: the next pass cleans the task that failed.
    const retry = await api.cleanup();
    expect(retry.cleaned.map((r) => r.taskId)).toEqual([victim]);
  });

  it('a failure inside the checkpoint removal rolls back the task’s deleted steps too', async () => {
    const { api, database } = await memoryBrain();
    const ids = await fourCleanable(api);
    const before = await rowCounts(api, ids);
    const victim = ids[1] as TaskId;
    const faulty = createBrainApi({
      database,
      storage: 'memory',
      clock: fixedClock(),
      lifecycle: {
        checkpoints: (db) => {
          const real = checkpointCleanup(db);
          return {
            ...real,
            async removeTaskCheckpoints(taskId, removal) {
              const removed = await real.removeTaskCheckpoints(taskId, removal);
              if (taskId === victim) throw new Error('disk on fire after removing bodies');
              return removed;
            },
          };
        },
      },
    });
    const report = await faulty.cleanup();
    expect(report.failed.map((f) => f.taskId)).toEqual([victim]);
    const after = await rowCounts(api, ids);
    expect(after[1]).toEqual(before[1]);
    expect(after[0]).toMatchObject({ steps: 0 });
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('stops and rejects when the database closes under it; what committed stays committed', async () => {
    const { api, database } = await memoryBrain();
    const ids = await fourCleanable(api);
    let deletes = 0;
    const closed = createBrainApi({
      database: faultyDatabase(database, (sql) => {
        if (sql.includes('DELETE FROM steps') && ++deletes === 2)
          throw new BrainError('Closed', 'The database is closed.');
        return false;
      }),
      storage: 'memory',
      clock: fixedClock(),
    });
    await expect(closed.cleanup()).rejects.toMatchObject({ code: 'Closed' });
    expect((await heavyState(api, ids[0] as TaskId)).steps).toBe(0);
    for (const id of ids.slice(1)) expect((await heavyState(api, id)).steps).toBe(4);
    expect((await api.cleanupLog()).map((r) => r.taskId)).toEqual([ids[0]]);
  });
});
