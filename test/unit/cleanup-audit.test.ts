import { describe, expect, it } from 'vitest';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import type { BrainApi, TaskId } from '../../src/core/api';
import { makeHeavy } from './cleanup-fixtures';
import { memoryBrain } from './engine-helpers';

/** The slow, exact answer the counters stand in for. */
async function exactBytes(db: SqlDriver) {
  const one = async (sql: string) => (await db.get<{ n: number | null }>(sql))?.n ?? 0;
  return {
    steps: await one(
      'SELECT sum(octet_length(tool) + octet_length(params) + octet_length(result)) AS n FROM steps',
    ),
    messages: await one('SELECT sum(octet_length(content)) AS n FROM messages'),
    summaries: await one('SELECT sum(octet_length(kind) + octet_length(content)) AS n FROM summaries'),
    checkpointStored: await one('SELECT sum(length(bytes)) AS n FROM checkpoint_body_data'),
  };
}

async function busySession(api: BrainApi, tasks = 4) {
  const { id: sessionId } = await api.startSession();
  const ids: TaskId[] = [];
  for (let i = 0; i < tasks; i++) {
    const { id } = await api.startTask({ sessionId, title: `t${i}` });
    await makeHeavy(api, id, 5, 4);
    await api.recordMessage({ sessionId, taskId: id, role: 'user', content: `message ✓ ${i}` });
    await api.recordSummary({ sessionId, taskId: id, kind: 'task', content: `summary ${i}` });
    ids.push(id);
  }
  await api.recordMessage({ sessionId, role: 'system', content: 'no task' });
  return { sessionId, ids };
}

describe('audit', () => {
  it('reports bytes by kind and per task that match the rows exactly, and what cleanup would reclaim', async () => {
    const { api, database } = await memoryBrain();
    const { ids } = await busySession(api);
    for (const id of ids.slice(0, 3)) await api.setTaskState(id, 'superseded');
    const audit = await api.audit();
    const exact = await exactBytes(database.driver);
    expect(audit.bytes).toMatchObject({
      steps: exact.steps,
      messages: exact.messages,
      summaries: exact.summaries,
      checkpointStored: exact.checkpointStored,
    });
    expect(audit.bytes.checkpointRaw).toBeGreaterThan(audit.bytes.checkpointStored);
    expect(audit.counts).toMatchObject({
      tasks: 4,
      tasksCleaned: 0,
      steps: 20,
      messages: 5,
      summaries: 4,
      checkpointEntries: 16,
    });
    expect(audit.fileBytes).toBe(audit.pageSize * audit.pageCount);
    expect(audit.autoVacuum).toBe('incremental');
    expect(audit.tasks.map((t) => t.taskId)).toEqual(ids);
    expect(audit.tasks.reduce((sum, t) => sum + t.stepBytes, 0)).toBe(exact.steps);
    expect(audit.tasks.reduce((sum, t) => sum + t.messageBytes, 0)).toBe(exact.messages - 'no task'.length);
    expect(audit.tasks.every((t) => t.heavyBytes === t.stepBytes + t.checkpointStoredBytes && t.exists)).toBe(
      true,
    );

    const plan = await api.planCleanup();
    expect(audit.reclaimable).toMatchObject({ tasks: 3, bytes: plan.freesBytes });
    const report = await api.cleanup();
    expect(report.cleaned.reduce((sum, r) => sum + r.stepBytesRemoved, 0)).toBe(audit.reclaimable.stepBytes);

    const after = await api.audit();
    const exactAfter = await exactBytes(database.driver);
    expect(after.bytes.steps).toBe(exactAfter.steps);
    expect(after.bytes.checkpointStored).toBe(exactAfter.checkpointStored);
    expect(after.reclaimable).toEqual({ tasks: 0, stepBytes: 0, checkpointStoredBytes: 0, bytes: 0 });
    expect(after.counts.tasksCleaned).toBe(3);
    expect(after.tasks.find((t) => t.taskId === ids[0])).toMatchObject({
      stepBytes: 0,
      checkpointStoredBytes: 0,
      messageBytes: 'message ✓ 0'.length + 2,
    });
  });

  it('keeps its counters exact through session deletion (cascade) and messages losing their task', async () => {
    const { api, database } = await memoryBrain();
    const { sessionId } = await busySession(api, 2);
    const { ids: others } = await busySession(api, 1);
    await api.deleteSession(sessionId);
    const audit = await api.audit();
    const exact = await exactBytes(database.driver);
    expect(audit.bytes).toMatchObject({
      steps: exact.steps,
      messages: exact.messages,
      summaries: exact.summaries,
    });
    expect(audit.counts.messages).toBe(2);
    await database.driver.run('UPDATE messages SET task_id = NULL WHERE task_id = ?', [others[0]]);
    await database.driver.run(
      `UPDATE steps SET params = '{"bigger":"${'y'.repeat(1000)}"}' WHERE task_id = ?`,
      [others[0]],
    );
    const again = await api.audit();
    const exactAgain = await exactBytes(database.driver);
    expect(again.bytes.steps).toBe(exactAgain.steps);
    const taskSteps = await database.driver.get<{ n: number }>(
      'SELECT sum(octet_length(tool) + octet_length(params) + octet_length(result)) AS n FROM steps WHERE task_id = ?',
      [others[0]],
    );
    expect(again.tasks.find((t) => t.taskId === others[0])).toMatchObject({
      messageBytes: 0,
      stepBytes: taskSteps?.n,
    });
  });
});

describe('audit of light data', () => {
  /** The exact sums the light counters stand in for. */
  async function exactLight(db: SqlDriver) {
    const one = async (sql: string) =>
      (await db.get<{ rows: number; bytes: number }>(sql)) ?? { rows: 0, bytes: 0 };
    return {
      events: await one(
        'SELECT count(*) AS rows, coalesce(sum(octet_length(text) + octet_length(data) + coalesce(octet_length(path), 0)), 0) AS bytes FROM events',
      ),
      searchDocuments: await one(
        'SELECT count(*) AS rows, coalesce(sum(octet_length(title) + octet_length(body) + coalesce(octet_length(path), 0)), 0) AS bytes FROM history_docs',
      ),
      removedCheckpointEntries: await one(
        'SELECT coalesce(sum(entries), 0) AS rows, coalesce(sum(octet_length(reason) + octet_length(detail)), 0) AS bytes FROM checkpoint_removals',
      ),
    };
  }

  it('counts session events, search documents and removed-entry records exactly; cleanup deletes only its steps’ documents', async () => {
    const { api, database } = await memoryBrain();
    const { sessionId, ids } = await busySession(api, 3);
    const { sessionId: other } = await busySession(api, 1);
    for (const [i, id] of ids.entries()) {
      await api.recordInstruction({
        sessionId,
        taskId: id,
        text: `Refactor the parser, part ${i} — ünïcode`,
      });
      await api.recordEvent({
        sessionId,
        taskId: id,
        kind: 'file_change',
        path: `src/p${i}.ts`,
        text: `Split the tokenizer ${i}`,
      });
    }
    await api.recordInstruction({ sessionId: other, text: 'Another session' });
    // Searching indexes what is pending (events, summaries, step results).
    await api.searchHistory('tokenizer', { sessionId });
    const before = await api.audit();
    const exact = await exactLight(database.driver);
    expect(before.light).toEqual(exact);
    expect(before.light.events.rows).toBe(7);
    expect(before.light.searchDocuments.rows).toBeGreaterThan(0);
    expect(before.light.removedCheckpointEntries).toEqual({ rows: 0, bytes: 0 });

    for (const id of ids) await api.setTaskState(id, 'superseded');
    await api.setCurrentTask(sessionId, null);
    const report = await api.cleanup();
    expect(report.cleaned.length).toBe(3);
    const after = await api.audit();
    expect(after.light).toEqual(await exactLight(database.driver));
    expect(after.light.events).toEqual(before.light.events);
    // A step's search document goes with its step; those of events (and summaries) stay.
    const stepsRemoved = report.cleaned.reduce((sum, r) => sum + r.stepsRemoved, 0);
    expect(stepsRemoved).toBe(15);
    expect(after.light.searchDocuments.rows).toBe(before.light.searchDocuments.rows - stepsRemoved);
    expect(
      await database.driver.get(
        `SELECT count(*) AS n FROM history_docs WHERE source = 'step' AND task_id IN (${ids.join(', ')})`,
      ),
    ).toEqual({ n: 0 });
    expect((await api.searchHistory('tokenizer', { sessionId })).hits).toHaveLength(3);
    expect(after.light.removedCheckpointEntries.rows).toBe(
      report.cleaned.reduce((sum, r) => sum + r.checkpointEntriesRemoved, 0),
    );
    expect(after.light.removedCheckpointEntries.bytes).toBeGreaterThan(0);

    // Events and their search documents go with their session.
    await api.deleteSession(sessionId);
    const gone = await api.audit();
    expect(gone.light).toEqual(await exactLight(database.driver));
    expect(gone.light.events.rows).toBe(1);
  });
});

describe('space upkeep', () => {
  it('maintain() gives free pages back in budgeted steps, and waits while a task is running', async () => {
    const { api } = await memoryBrain();
    const { ids } = await busySession(api, 6);
    for (const id of ids) await makeHeavy(api, id, 60, 0);
    for (const id of ids.slice(0, 5)) await api.setTaskState(id, 'superseded');
    await api.cleanup();
    const before = await api.audit();
    expect(before.freelistCount).toBeGreaterThan(0);

    const waiting = await api.maintain({ budgetMs: 1000 });
    expect(waiting).toMatchObject({ pagesFreed: 0, skipped: { kind: 'task-running', taskId: ids[5] } });
    expect(waiting.more).toBe(true);

    await api.setTaskState(ids[5] as TaskId, 'waiting_user');
    const done = await api.maintain({ budgetMs: 5_000 });
    expect(done).toMatchObject({ pagesFreed: before.freelistCount, freelistCount: 0, more: false });
    expect(done.bytesFreed).toBe(before.freelistCount * before.pageSize);
    const after = await api.audit();
    expect(after.pageCount).toBe(before.pageCount - before.freelistCount);
    expect(await api.integrityCheck()).toEqual(['ok']);
    await expect(api.maintain({ budgetMs: 0 })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('maintain() with force runs even while a task is running', async () => {
    const { api } = await memoryBrain();
    const { ids } = await busySession(api, 3);
    for (const id of ids.slice(0, 2)) await api.setTaskState(id, 'done');
    await api.cleanup();
    const report = await api.maintain({ budgetMs: 5_000, force: true });
    expect(report.skipped).toBeUndefined();
    expect(report.pagesFreed).toBeGreaterThan(0);
  });

  it('compact() refuses with QuotaExceeded when the browser has not twice the file free, and changes nothing', async () => {
    let quota = { usage: 0, quota: 0 };
    const { api } = await memoryBrain({ storageEstimate: async () => ({ quota, persisted: true }) });
    await busySession(api, 3);
    const { fileBytes } = await api.audit();
    quota = { usage: 10 * 1048576, quota: 10 * 1048576 + 2 * fileBytes - 1 };
    const error = await api.compact().catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'QuotaExceeded',
      message: expect.stringMatching(/needs about .* free .*Nothing was changed/),
    });
    expect((await api.audit()).fileBytes).toBe(fileBytes);

    quota = { usage: 10 * 1048576, quota: 10 * 1048576 + 2 * fileBytes };
    const report = await api.compact();
    expect(report.bytesBefore).toBe(fileBytes);
    expect(report.bytesAfter).toBeLessThanOrEqual(fileBytes);
    expect(report.quota).toEqual(quota);
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('compact() shrinks the file to its live pages', async () => {
    const { api } = await memoryBrain();
    const { ids } = await busySession(api, 5);
    for (const id of ids) await makeHeavy(api, id, 40, 0);
    for (const id of ids.slice(0, 4)) await api.setTaskState(id, 'done');
    await api.cleanup();
    const before = await api.audit();
    const report = await api.compact();
    expect(report.quota).toBeNull();
    expect(report.bytesAfter).toBeLessThanOrEqual(before.fileBytes - before.freeBytes);
    const after = await api.audit();
    expect(after.freelistCount).toBe(0);
    expect(after.autoVacuum).toBe('incremental');
    expect(after.bytes).toEqual(before.bytes);
  });
});
