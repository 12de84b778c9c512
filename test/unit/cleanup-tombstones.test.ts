import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock';
import { describeReason } from '../../src/core/retention/index';
import { openDatabase } from '../../src/storage/sqlite/database';
import { migrate } from '../../src/storage/sqlite/migrate';
import { migrations } from '../../src/storage/sqlite/migrations/index';
import { createBrainApi } from '../../src/engine/create-engine';
import type { BrainApi, CheckpointEntry, CheckpointEntryId, TaskId } from '../../src/core/api';
import { body } from './cleanup-fixtures';
import { memoryBrain } from './engine-helpers';
import { memoryEngine } from './helpers';

let counter = 0;

async function readError(api: BrainApi, id: number) {
  return api.readCheckpoint(id as CheckpointEntryId).then(
    () => ({ code: 'read' }) as { code: string; message?: string; details?: Record<string, unknown> },
    (error: { code: string; message: string; details?: Record<string, unknown> }) => error,
  );
}

/** The listing without what cleanup changes by design (the removal, and the step link its steps took along). */
const unremoved = (entries: readonly CheckpointEntry[]) =>
  entries.map(({ removed: _removed, stepId: _stepId, ...rest }) => rest);

describe('removed checkpoint entries (slim tombstones)', () => {
  it('migration 5 packs old-style tombstones: listing and reads say the same when, why and task as before', async () => {
    const engine = await memoryEngine();
    const name = `tombstones-${++counter}.db`;
    // A database as the previous build left it: migrations 1–4, tombstones as rows of their own.
    const old = await engine.open(name);
    await migrate(
      old,
      migrations.filter((m) => m.id <= 4),
    );
    const T1 = Date.UTC(2026, 5, 1, 8, 0, 0);
    const T2 = Date.UTC(2026, 5, 2, 9, 30, 0);
    const T3 = Date.UTC(2026, 5, 3, 10, 45, 0);
    await old.exec(`
      INSERT INTO sessions (id, title, created_at, updated_at, current_task_id) VALUES (1, 's', 0, 0, 3);
      INSERT INTO tasks (id, session_id, title, state, created_at, updated_at, heavy_removed_at) VALUES
        (1, 1, 'one', 'superseded', 0, 0, ${T1}), (2, 1, 'two', 'done', 0, 0, ${T2}), (3, 1, 'three', 'running', 0, 0, NULL);
      INSERT INTO steps (id, task_id, seq, tool, params, result, status, created_at) VALUES (1, 3, 1, 'edit', '{}', '{}', 'ok', 0);
      INSERT INTO checkpoint_entries (id, task_id, step_id, path, before_kind, before_size, after_kind, after_size, binary,
          created_at, removed_at, removed_reason) VALUES
        (1, 1, NULL, 'src/a.ts', 'absent', NULL, 'text', 120, 0, 1000, ${T1}, 'task superseded'),
        (2, 2, NULL, 'docs/ü.md', 'text', 7, 'text', 9, 0, 1001, ${T2}, 'task done'),
        (3, 1, NULL, 'src/b.bin', 'bytes', 4096, 'bytes', 4100, 1, 1500, ${T1}, 'task superseded'),
        (4, 2, NULL, 'docs/ü.md', 'text', 9, 'too_large', 99999999, 0, 1502, ${T2}, 'task done'),
        (5, 1, NULL, 'src/a.ts', 'text', 120, 'absent', NULL, 0, 91500, ${T1}, 'task superseded'),
        (6, 3, 1, 'live.txt', 'absent', NULL, 'too_large', 77, 0, 92000, NULL, NULL),
        (7, 1, NULL, 'src/a.ts', 'absent', NULL, 'text', 3, 0, 93000, ${T3}, 'task failed'),
        (8, 1, NULL, 'src/c.ts', 'text', 0, 'text', 1, 0, 93001, ${T3}, 'task failed'),
        (9, 2, NULL, 'docs/ü.md', 'too_large', 99999999, 'absent', NULL, 0, 94000, ${T2}, 'task done');
      INSERT INTO cleanup_log (task_id, at, reason, reason_text, steps_removed, step_bytes_removed,
          checkpoint_entries_removed, bodies_removed, stored_bytes_removed, raw_bytes_removed)
        VALUES (1, ${T1}, '{"kind":"superseded"}', 'superseded and not needed by any kept task', 2, 100, 3, 2, 50, 80);
      INSERT INTO events (session_id, task_id, kind, text, path, data, created_at) VALUES
        (1, 3, 'note', 'hé', NULL, '{}', 0), (1, 3, 'file_change', 'x', 'src/a.ts', '{"change":"modified"}', 1);
      INSERT INTO history_docs (source, source_id, session_id, task_id, kind, title, body, created_at)
        VALUES ('event', 1, 1, 3, 'note', 'Note', 'hé', 0);
    `);
    // What the previous build's listCheckpoints returned for them.
    type Row = Record<string, number | string | null>;
    const kind = (k: unknown) => (k === 'too_large' ? 'too-large' : k);
    const expected = new Map<number, CheckpointEntry[]>();
    for (const r of await old.all<Row>('SELECT * FROM checkpoint_entries ORDER BY id')) {
      const list = expected.get(r['task_id'] as number) ?? [];
      list.push({
        id: r['id'],
        taskId: r['task_id'],
        stepId: r['step_id'],
        path: r['path'],
        before: { kind: kind(r['before_kind']), size: r['before_size'] },
        after: { kind: kind(r['after_kind']), size: r['after_size'] },
        // Patch entries came with migration 12: none of these has one.
        patch: null,
        binary: r['binary'] === 1,
        createdAt: r['created_at'],
        removed: r['removed_at'] === null ? null : { at: r['removed_at'], reason: r['removed_reason'] },
      } as unknown as CheckpointEntry);
      expected.set(r['task_id'] as number, list);
    }
    await old.close();

    const database = await openDatabase(engine, name, {
      read: async () => engine.memory.read(name) ?? new Uint8Array(),
      install: async (bytes) => engine.memory.put(name, bytes),
    });
    const api = createBrainApi({ database, storage: 'memory', clock: fixedClock() });
    const db = database.driver;

    for (const taskId of [1, 2, 3]) {
      expect(await api.listCheckpoints(taskId as TaskId)).toEqual(expected.get(taskId));
    }
    const whenWhy: Record<number, [number, number, string]> = {
      1: [1, T1, 'task superseded'],
      2: [2, T2, 'task done'],
      3: [1, T1, 'task superseded'],
      4: [2, T2, 'task done'],
      5: [1, T1, 'task superseded'],
      7: [1, T3, 'task failed'],
      8: [1, T3, 'task failed'],
      9: [2, T2, 'task done'],
    };
    for (const [id, [taskId, at, reason]] of Object.entries(whenWhy)) {
      const error = await readError(api, Number(id));
      expect(error.code).toBe('CheckpointRemoved');
      expect(error.details).toMatchObject({ entryId: Number(id), taskId, removedAt: at, reason });
      expect(error.message).toContain(
        `of task ${taskId} was removed on ${new Date(at).toISOString()} (${reason})`,
      );
      await expect(api.diffCheckpoint(Number(id) as CheckpointEntryId)).rejects.toMatchObject({
        code: 'CheckpointRemoved',
      });
    }
    // The light counters start from what was there.
    expect((await api.audit()).light).toEqual({
      events: { rows: 2, bytes: 3 + 2 + 1 + 8 + 21 },
      searchDocuments: { rows: 1, bytes: 4 + 3 },
      removedCheckpointEntries: {
        rows: 8,
        bytes: (
          await db.get<{ n: number }>(
            'SELECT sum(octet_length(reason) + octet_length(detail)) AS n FROM checkpoint_removals',
          )
        )?.n,
      },
    });
    expect((await readError(api, 6)).code).toBe('TooLarge');
    expect((await readError(api, 10)).code).toBe('NotFound');

    // One record per task and removal; no tombstone rows left.
    expect(
      await db.all(
        'SELECT task_id, first_entry_id, last_entry_id, entries, at, reason FROM checkpoint_removals ORDER BY last_entry_id',
      ),
    ).toEqual([
      { task_id: 1, first_entry_id: 1, last_entry_id: 5, entries: 3, at: T1, reason: 'task superseded' },
      { task_id: 1, first_entry_id: 7, last_entry_id: 8, entries: 2, at: T3, reason: 'task failed' },
      { task_id: 2, first_entry_id: 2, last_entry_id: 9, entries: 3, at: T2, reason: 'task done' },
    ]);
    expect(await db.get('SELECT count(*) AS n FROM checkpoint_entries WHERE removed_at IS NOT NULL')).toEqual(
      { n: 0 },
    );

    // The log's words are computed from its reason, as they were stored.
    expect((await api.cleanupLog())[0]).toMatchObject({
      taskId: 1,
      reason: { kind: 'superseded' },
      // Written before superseded reasons named the newer task: the task was marked superseded.
      reasonText: 'marked superseded and not needed by any kept task',
    });

    // Ids are never reused: the highest id (9) was removed, yet a new entry gets 10, and 7–9 still say removed.
    const { id: fresh } = await api.checkpointFile({
      taskId: 3 as TaskId,
      path: 'new.txt',
      before: null,
      after: 'x',
    });
    expect(fresh).toBe(10);
    expect((await readError(api, 9)).code).toBe('CheckpointRemoved');
    await expect(
      db.run(
        `INSERT INTO checkpoint_entries (id, task_id, path, before_kind, before_size, after_kind, after_size, binary, created_at)
         VALUES (7, 3, 'x', 'absent', NULL, 'too_large', 1, 0, 0)`,
      ),
    ).rejects.toThrow(/may not reuse the id of a removed entry/);

    expect(await api.integrityCheck()).toEqual(['ok']);
    expect(await db.all('PRAGMA foreign_key_check')).toEqual([]);
    await database.close();
  });

  it('cleanup keeps a task’s entries listed as one slim record, and reads name when, why and the task', async () => {
    const { api, database } = await memoryBrain();
    const db = database.driver;
    const { id: sessionId } = await api.startSession();
    const { id: a } = await api.startTask({ sessionId, title: 'a', makeCurrent: false });
    const { id: b } = await api.startTask({ sessionId, title: 'b', makeCurrent: false });
    const { id: keep } = await api.startTask({ sessionId, title: 'kept' });
    // a and b edit in turns (their id spans overlap), as two agents of one session would; 20 edits of 4 files each.
    const files = new Map<string, string | null>();
    const contents = new Map<
      number,
      { before: string | Uint8Array | null; after: string | Uint8Array | null }
    >();
    for (let i = 0; i < 40; i++) {
      const taskId = i % 2 === 0 ? a : b;
      const path = `src/${taskId}/f${i % 4}.ts`;
      const before = files.get(path) ?? null;
      const after = i % 9 === 8 ? new Uint8Array([0, 1, 2, i]) : body(taskId, i, 60 + i);
      const { id } = await api.checkpointFile({ taskId, path, before, after });
      contents.set(id, { before, after });
      files.set(path, typeof after === 'string' ? after : null);
    }
    const { id: kept } = await api.checkpointFile({ taskId: keep, path: 'k.md', before: 'k0', after: 'k1' });
    const listed = { a: await api.listCheckpoints(a), b: await api.listCheckpoints(b) };
    await api.setTaskState(a, 'superseded');
    await api.setTaskState(b, 'failed');

    const report = await api.cleanup();
    expect(report.cleaned.map((r) => [r.taskId, r.checkpointEntriesRemoved])).toEqual([
      [a, 20],
      [b, 20],
    ]);
    const removals = await db.all<{ task_id: number; entries: number; reason: string; bytes: number }>(
      'SELECT task_id, entries, reason, length(detail) AS bytes FROM checkpoint_removals ORDER BY task_id',
    );
    expect(removals.map(({ bytes: _bytes, ...r }) => r)).toEqual([
      { task_id: a, entries: 20, reason: 'task superseded' },
      { task_id: b, entries: 20, reason: 'task superseded' },
    ]);
    // Slim: about 25 bytes an entry where a row of its own took ~100.
    for (const r of removals) expect(r.bytes / r.entries).toBeLessThan(35);
    expect(
      await db.get('SELECT count(*) AS n FROM checkpoint_entries WHERE task_id IN (?, ?)', [a, b]),
    ).toEqual({ n: 0 });

    for (const [taskId, before, at, reason] of [
      [a, listed.a, report.cleaned[0]?.at, 'task superseded'],
      [b, listed.b, report.cleaned[1]?.at, 'task superseded'],
    ] as const) {
      const after = await api.listCheckpoints(taskId);
      expect(unremoved(after)).toEqual(unremoved(before));
      expect(after.every((e) => e.removed?.at === at && e.removed?.reason === reason)).toBe(true);
      for (const entry of after) {
        const error = await readError(api, entry.id);
        expect(error.code).toBe('CheckpointRemoved');
        expect(error.details).toMatchObject({
          entryId: entry.id,
          taskId,
          path: entry.path,
          removedAt: at,
          reason,
        });
      }
    }
    expect((await api.readCheckpoint(kept)).after).toBe('k1');
    // A new entry's id is above every removed one.
    const { id: next } = await api.checkpointFile({ taskId: keep, path: 'k.md', before: 'k1', after: 'k2' });
    expect(next).toBeGreaterThan(Math.max(...contents.keys(), kept));
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('a damaged removal record fails reads with CorruptBody rather than a partial list', async () => {
    const { api, database } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: task } = await api.startTask({ sessionId, title: 't', makeCurrent: false });
    const { id } = await api.checkpointFile({ taskId: task, path: 'a', before: null, after: 'a' });
    await api.checkpointFile({ taskId: task, path: 'a', before: 'a', after: 'b' });
    await api.setTaskState(task, 'done');
    await api.startTask({ sessionId, title: 'next' });
    await api.cleanup();
    await database.driver.run(`UPDATE checkpoint_removals SET detail = json_set(detail, '$.kind', 'ta')`);
    await expect(api.listCheckpoints(task)).rejects.toMatchObject({ code: 'CorruptBody' });
    await expect(api.readCheckpoint(id)).rejects.toMatchObject({ code: 'CorruptBody' });
    await database.driver.run(`UPDATE checkpoint_removals SET detail = '{'`);
    await expect(api.listCheckpoints(task)).rejects.toMatchObject({ code: 'CorruptBody' });
  });

  it('logs reasons in words computed from the stored reason', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: task } = await api.startTask({ sessionId, title: 't', makeCurrent: false });
    await api.setTaskState(task, 'failed');
    const { id: next } = await api.startTask({ sessionId, title: 'next' });
    await api.cleanup();
    const [record] = await api.cleanupLog();
    expect(record?.reason).toEqual({ kind: 'superseded', by: next });
    expect(record?.reasonText).toBe(describeReason({ kind: 'superseded', by: next }));
  });
});
