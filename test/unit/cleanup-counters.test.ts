import { describe, expect, it } from 'vitest';
import { createCheckpointsRepo } from '../../src/storage/sqlite/repos/checkpoints-repo';
import { checkpointCleanup } from '../../src/storage/sqlite/repos/cleanup-repo';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import type { TaskId } from '../../src/core/api';
import { body } from './cleanup-fixtures';
import { memoryBrain } from './engine-helpers';
import { createRandom } from '../helpers/random';

/** The trigger-kept counters must equal the checkpoint store's own exact aggregates (which scan every entry). */
async function expectCountersExact(db: SqlDriver) {
  const repo = createCheckpointsRepo(db);
  const port = checkpointCleanup(db);
  const exact = await repo.totals();
  expect(await port.totals()).toEqual({
    entries: exact.entries - exact.removedEntries,
    storedBytes: exact.storedBytes,
    rawBytes: exact.rawBytes,
  });
  const want = new Map(
    (await repo.bytesByTask())
      .filter((r) => r.entries > r.removedEntries || r.bodies > 0)
      .map((r) => [
        r.taskId,
        {
          entries: r.entries - r.removedEntries,
          storedBytes: r.storedBytes,
          rawBytes: r.rawBytes,
          exclusiveStoredBytes: r.exclusiveStoredBytes,
        },
      ]),
  );
  expect(await port.byTask()).toEqual(want);
}

describe('checkpoint counters (kept by triggers) stay exact', () => {
  it('through shared bodies, repeated edits, deltas, cleanups with rebases, and a deleted task', async () => {
    const { api, database } = await memoryBrain();
    const random = createRandom(42);
    const { id: sessionId } = await api.startSession();
    const tasks: TaskId[] = [];
    const versions = new Map<string, number>();
    const step = async (taskId: TaskId) => {
      const path = `src/f${random.int(0, 4)}.ts`;
      const v = versions.get(path) ?? 0;
      const before = v === 0 ? null : body(path.length, v - 1, 150 + (v % 3) * 40);
      // Sometimes the same content twice (dedupe across tasks), sometimes a new version (a delta candidate).
      const after = random.next() < 0.2 && v > 0 ? before : body(path.length, v, 150 + ((v + 1) % 3) * 40);
      if (after !== before) versions.set(path, v + 1);
      await api.checkpointFile({ taskId, path, before, after });
    };
    for (let round = 0; round < 12; round++) {
      const { id } = await api.startTask({ sessionId, title: `t${round}` });
      tasks.push(id);
      for (let i = 0; i < 6; i++) await step(random.pick(tasks));
      await expectCountersExact(database.driver);
      if (round % 3 === 2) {
        // Finish a few older tasks and clean them: their bodies go, dependents are rebased.
        for (const old of tasks.slice(0, -1))
          if (random.next() < 0.5) await api.setTaskState(old, 'superseded').catch(() => undefined);
        await api.cleanup();
        await expectCountersExact(database.driver);
      }
    }
    await database.driver.run('DELETE FROM checkpoint_entries WHERE task_id = ?', [tasks.at(-1)]);
    await expectCountersExact(database.driver);
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('follows a surviving body re-encoded when its delta base is cleaned away', async () => {
    const { api, database } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: old } = await api.startTask({ sessionId, title: 'old' });
    const { id: kept } = await api.startTask({ sessionId, title: 'kept' });
    // Versions one line apart: each after body is stored as a delta against its before body.
    const version = (v: number) =>
      Array.from({ length: 2000 }, (_, i) =>
        i === v * 100 ? `edited ${v}\n` : `const x${i} = ${(i * 7919) % 10007};\n`,
      ).join('');
    await api.checkpointFile({ taskId: old, path: 'a.ts', before: version(0), after: version(1) });
    await api.checkpointFile({ taskId: kept, path: 'a.ts', before: version(1), after: version(2) });
    const codecs = () =>
      database.driver.all<{ codec: string; stored_size: number }>(
        'SELECT codec, stored_size FROM checkpoint_bodies ORDER BY id',
      );
    const beforeCleanup = await codecs();
    expect(beforeCleanup.map((b) => b.codec)).toEqual(['zlib', 'delta', 'delta']);
    await expectCountersExact(database.driver);
    await api.setTaskState(old, 'superseded');
    expect((await api.cleanup()).cleaned.map((r) => r.taskId)).toEqual([old]);
    // The shared body lost its base and was stored again in full: it grew, and the kept task's bytes with it.
    const afterCleanup = await codecs();
    expect(afterCleanup[0]?.codec).not.toBe('delta');
    expect(afterCleanup[0]?.stored_size).toBeGreaterThan(beforeCleanup[1]?.stored_size ?? Infinity);
    await expectCountersExact(database.driver);
    expect((await checkpointCleanup(database.driver).byTask()).get(kept)?.exclusiveStoredBytes).toBe(
      afterCleanup.reduce((sum, b) => sum + b.stored_size, 0),
    );
  });

  it('backfills from data written before the migration', async () => {
    const { api, database } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: a } = await api.startTask({ sessionId, title: 'a' });
    const { id: b } = await api.startTask({ sessionId, title: 'b' });
    await api.checkpointFile({ taskId: a, path: 'x', before: null, after: body(1, 0) });
    await api.checkpointFile({ taskId: b, path: 'x', before: body(1, 0), after: body(1, 1) });
    const before = await checkpointCleanup(database.driver).byTask();
    // Replay migration 3's backfill over the same rows (counters emptied first) and compare.
    const { default: sql } = await import('../../src/storage/sqlite/migrations/003-cleanup');
    const backfill = sql.slice(sql.indexOf('INSERT INTO checkpoint_totals'), sql.indexOf('-- Entries:'));
    await database.driver.exec(
      'DELETE FROM checkpoint_totals; DELETE FROM checkpoint_task_bodies; DELETE FROM checkpoint_task_bytes;',
    );
    await database.driver.exec(backfill);
    expect(await checkpointCleanup(database.driver).byTask()).toEqual(before);
    await expectCountersExact(database.driver);
  });
});
