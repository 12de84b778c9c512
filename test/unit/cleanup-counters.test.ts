import { describe, expect, it } from 'vitest';
import { createCheckpointsRepo } from '../../src/storage/sqlite/repos/checkpoints-repo';
import { checkpointCleanup } from '../../src/storage/sqlite/repos/cleanup-repo';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import type { TaskId } from '../../src/core/api';
import { body } from './cleanup-fixtures';
import { memoryBrain } from './engine-helpers';
import { createRandom } from '../helpers/random';
import { fixedClock } from '../../src/core/clock';
import { createBrainApi } from '../../src/engine/create-engine';
import { crc32 } from '../../src/storage/blobs/checksums';
import { sha256 } from '../../src/storage/blobs/sha256';
import { openDatabase } from '../../src/storage/sqlite/database';
import { migrate } from '../../src/storage/sqlite/migrate';
import { migrations } from '../../src/storage/sqlite/migrations/index';
import { memoryEngine } from './helpers';

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

  it('counts patch entries’ patches like bodies (migration 12), shared across tasks and cleaned with them', async () => {
    const { api, database } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: old } = await api.startTask({ sessionId, title: 'old' });
    const { id: kept } = await api.startTask({ sessionId, title: 'kept' });
    const diff = (n: number) =>
      `--- a/f${n}.py\n+++ b/f${n}.py\n@@ -1,2 +1,2 @@\n header ${n}\n-old line ${n}\n+new line ${n}\n`;
    const patch = (taskId: TaskId, n: number) =>
      api.recordToolCall({
        sessionId,
        taskId,
        call: { tool: 'bash', input: { command: 'python fix.py' }, output: '', exitCode: 0 },
        files: [{ path: `f${n}.py`, diff: diff(n) }],
      });
    await patch(old, 1);
    await patch(old, 2);
    // The same diff in the kept task: one body, used by both tasks (exclusive to neither).
    await patch(kept, 2);
    await api.checkpointFile({ taskId: kept, path: 'g.ts', before: null, after: body(3, 0) });
    await expectCountersExact(database.driver);
    const byTask = await checkpointCleanup(database.driver).byTask();
    expect(byTask.get(old)?.entries).toBe(2);
    expect(byTask.get(old)?.rawBytes).toBe(diff(1).length + diff(2).length);
    await api.setTaskState(old, 'superseded');
    expect((await api.cleanup()).cleaned).toMatchObject([{ taskId: old, bodiesRemoved: 1 }]);
    await expectCountersExact(database.driver);
    expect(await database.driver.get('SELECT count(*) AS n FROM checkpoint_bodies')).toEqual({ n: 2 });
  });

  it('migration 12 rebuilds the entries table: rows, body refcounts and counters kept, entries readable', async () => {
    const engine = await memoryEngine();
    const name = 'before-patch-checkpoints.db';
    const old = await engine.open(name);
    await migrate(
      old,
      migrations.filter((m) => m.id <= 11),
    );
    const texts = ['one\n', 'two\n', 'three\n'];
    for (const [i, text] of texts.entries()) {
      const raw = new TextEncoder().encode(text);
      await old.run(
        `INSERT INTO checkpoint_bodies (id, hash, codec, raw_size, stored_size, stored_crc, depth, created_at)
         VALUES (?, ?, 'plain', ?, ?, ?, 0, 0)`,
        [i + 1, await sha256(raw), raw.length, raw.length, crc32(raw)],
      );
      await old.run('INSERT INTO checkpoint_body_data (body_id, bytes) VALUES (?, ?)', [i + 1, raw]);
    }
    await old.exec(`
      INSERT INTO sessions (id, title, created_at, updated_at) VALUES (1, 's', 0, 0);
      INSERT INTO tasks (id, session_id, title, state, created_at, updated_at) VALUES
        (1, 1, 'a', 'done', 0, 0), (2, 1, 'b', 'running', 0, 0);
      INSERT INTO checkpoint_entries (id, task_id, path, before_kind, before_size, before_body_id, after_kind,
          after_size, after_body_id, binary, created_at) VALUES
        (1, 1, 'x.txt', 'absent', NULL, NULL, 'text', 4, 1, 0, 10),
        (2, 1, 'x.txt', 'text', 4, 1, 'text', 4, 2, 0, 11),
        (3, 2, 'x.txt', 'text', 4, 2, 'text', 6, 3, 0, 12),
        (4, 2, 'big.bin', 'absent', NULL, NULL, 'too_large', 99999999, NULL, 1, 13);
    `);
    const snapshot = async (db: SqlDriver) => ({
      entries: await db.all(
        'SELECT id, task_id, step_id, path, before_kind, before_size, before_body_id, after_kind, after_size, after_body_id, binary, created_at FROM checkpoint_entries ORDER BY id',
      ),
      refs: await db.all('SELECT id, refs FROM checkpoint_bodies ORDER BY id'),
      totals: await db.all('SELECT * FROM checkpoint_totals'),
      taskBytes: await db.all('SELECT * FROM checkpoint_task_bytes ORDER BY task_id'),
    });
    const before = await snapshot(old);
    await old.close();

    const database = await openDatabase(engine, name, {
      read: async () => engine.memory.read(name) ?? new Uint8Array(),
      install: async (bytes) => engine.memory.put(name, bytes),
    });
    const db = database.driver;
    expect(await snapshot(db)).toEqual(before);
    await expectCountersExact(db);
    const api = createBrainApi({ database, storage: 'memory', clock: fixedClock() });
    expect((await api.listCheckpoints(2 as TaskId)).map((e) => e.patch)).toEqual([null, null]);
    expect(await api.readCheckpoint(3 as never)).toMatchObject({ before: 'two\n', after: 'three\n' });
    // The triggers that came back with the table still work: a new entry counts, and cleanup collects.
    await api.checkpointFile({ taskId: 2 as TaskId, path: 'y.txt', before: null, after: 'four\n' });
    await api.setTaskState(1 as TaskId, 'superseded');
    expect((await api.cleanup()).cleaned).toMatchObject([{ taskId: 1, bodiesRemoved: 1 }]);
    await expectCountersExact(db);
    expect(await api.integrityCheck()).toEqual(['ok']);
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
