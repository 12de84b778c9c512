/**
 * Tool steps indexed just behind the writes (src/engine/history/pending-steps.ts): `recordToolCalls` commits its
 * steps with a durable pending mark instead of their search documents; the engine writes them when idle, in
 * chunks, and every reader of the index catches up first — so no caller ever sees a recorded step missing from
 * search. Each test first shows the documents really are missing when it looks (else it would prove nothing).
 */
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { BrainApi, SessionId, TaskId } from '../../src/core/api';
import { createSerialQueue } from '../../src/core/serial-queue';
import { createBrainApi } from '../../src/engine/create-engine';
import { createIdleRunner, QUIET_MS } from '../../src/engine/history/idle';
import { createPendingSteps } from '../../src/engine/history/pending-steps';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import { openDatabase } from '../../src/storage/sqlite/database';
import { createHistoryRepo } from '../../src/storage/sqlite/repos/history-repo';
import { fixedClock } from '../../src/core/clock';
import { bashSession } from '../fixtures/bash-session';
import { memoryBrain } from './engine-helpers';

const steps = bashSession(7).steps;

/** The made-up identifier on the last line of a step's output that has one (a run's failure summary, a path…). */
function tailWord(output: string): string {
  const word = output
    .trim()
    .split('\n')
    .at(-1)
    ?.match(/[a-z]+_[a-z_]+|[a-z]{9,}/g)
    ?.at(-1);
  if (!word) throw new Error(`No word on the last line of: ${output.slice(-200)}`);
  return word;
}

async function session(api: BrainApi, title = 'django__django-16315') {
  const { id: sessionId } = await api.startSession({ title });
  const { id: taskId } = await api.startTask({ sessionId, title, makeCurrent: false });
  return { sessionId: sessionId as SessionId, taskId: taskId as TaskId };
}

const calls = (target: { sessionId: SessionId; taskId: TaskId }, from = 0, n = steps.length) =>
  steps.slice(from, from + n).map((s) => ({
    ...target,
    root: '/testbed',
    call: { tool: 'bash', input: { command: s.command }, output: s.output, exitCode: s.exitCode },
  }));

const stepDocs = async (db: SqlDriver) =>
  (await db.get<{ n: number }>(`SELECT count(*) AS n FROM history_docs WHERE source = 'step'`))?.n ?? 0;
const pendingFrom = async (db: SqlDriver) =>
  (await db.get<{ p: number | null }>('SELECT pending_from AS p FROM history_backfill'))?.p ?? null;

/** The step hits of a search for `word` in a session. */
async function stepHits(api: BrainApi, word: string, sessionId: SessionId) {
  return (await api.searchHistory(word, { sessionId, kinds: ['step'] })).hits;
}

const lastWithTail = () => {
  const i = steps.findLastIndex((s) =>
    s.output
      .trim()
      .split('\n')
      .at(-1)
      ?.match(/[a-z]{9,}|_/),
  );
  return { index: i, word: tailWord((steps[i] as (typeof steps)[number]).output) };
};

describe('steps indexed behind the writes', () => {
  it('a search right after recordToolCalls finds the last call’s output tail', async () => {
    const { api, database } = await memoryBrain();
    const target = await session(api);
    const { index, word } = lastWithTail();
    const { calls: recorded } = await api.recordToolCalls(calls(target, 0, index + 1));
    // Control: nothing indexed yet, the mark committed with the steps.
    expect(await stepDocs(database.driver)).toBe(0);
    expect(await pendingFrom(database.driver)).toBe(recorded[0]?.stepId);

    const hits = await stepHits(api, word, target.sessionId);
    expect(hits.map((h) => h.stepId)).toContain(recorded.at(-1)?.stepId);
    expect(await stepDocs(database.driver)).toBe(recorded.length);
    expect(await pendingFrom(database.driver)).toBeNull();
    expect(await database.driver.all('SELECT * FROM history_backfill')).toEqual([]);
  });

  it('is done when the engine is idle, without any search', async () => {
    const { api, database } = await memoryBrain();
    const target = await session(api);
    const { calls: recorded } = await api.recordToolCalls(calls(target));
    expect(await stepDocs(database.driver)).toBe(0);
    await expect.poll(() => pendingFrom(database.driver)).toBeNull();
    expect(await stepDocs(database.driver)).toBe(recorded.length);
  });

  it('waits for a quiet time: batches that come back to back are not slowed by indexing between them', async () => {
    const { api, database } = await memoryBrain();
    const target = await session(api);
    // The engine's timers on a clock the test moves: no wait on the machine's time, no "nothing happened yet" by luck.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await api.recordToolCalls(calls(target, 0, 20));
      await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
      expect(await stepDocs(database.driver)).toBe(0);
      // The next batch, just before the quiet time is over, starts it again.
      const { calls: second } = await api.recordToolCalls(calls(target, 20, 20));
      await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
      expect(await stepDocs(database.driver)).toBe(0);
      // Quiet time over since the last batch: the job starts (its chunk runs on the engine's queue).
      await vi.advanceTimersByTimeAsync(1);
      vi.useRealTimers();
      await expect.poll(() => pendingFrom(database.driver)).toBeNull();
      expect(await stepDocs(database.driver)).toBe(20 + second.length);
    } finally {
      vi.useRealTimers();
    }
  });

  it('survives a reopen between recording and indexing: the next search indexes them', async () => {
    const { api, database, engine, name } = await memoryBrain();
    const target = await session(api);
    const { index, word } = lastWithTail();
    const { calls: recorded } = await api.recordToolCalls(calls(target, 0, index + 1));
    // Closed before the idle turn: the engine never got to index.
    await database.close();

    const reopened = await openDatabase(engine, name, {
      read: async () => engine.memory.read(name) ?? new Uint8Array(),
      install: async (bytes) => engine.memory.put(name, bytes),
    });
    expect(await stepDocs(reopened.driver)).toBe(0);
    expect(await pendingFrom(reopened.driver)).toBe(recorded[0]?.stepId);
    const again = createBrainApi({
      database: reopened,
      storage: 'memory',
      clock: fixedClock(2_000_000_000_000),
    });
    const hits = await stepHits(again, word, target.sessionId);
    expect(hits.map((h) => h.stepId)).toContain(recorded.at(-1)?.stepId);
    expect(await stepDocs(reopened.driver)).toBe(recorded.length);
    expect(await again.integrityCheck()).toEqual(['ok']);
  });

  it('cleanup of a task whose steps are not indexed yet: they never get a document, and nothing stays pending', async () => {
    const { api, database } = await memoryBrain();
    const db = database.driver;
    const target = await session(api);
    const { index, word } = lastWithTail();
    // The engine's timers stopped until the cleanup is done: the idle indexer cannot get there first.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const { calls: recorded } = await api.recordToolCalls(calls(target, 0, index + 1));
    // Control: the same words in a task that is kept, indexed at once.
    const kept = await session(api, 'kept');
    const { id: keptStep } = await api.recordStep({
      taskId: kept.taskId,
      tool: 'bash',
      params: { command: 'tail log' },
      result: { output: `the run ended: ${word}` },
      status: 'ok',
    });
    await api.setTaskState(target.taskId, 'superseded');
    await api.startTask({ sessionId: target.sessionId, title: 'next' });
    expect(await stepDocs(db)).toBe(1);
    expect(await pendingFrom(db)).toBe(recorded[0]?.stepId);

    const report = await api.cleanup();
    expect(report.cleaned.map((c) => [c.taskId, c.stepsRemoved])).toEqual([[target.taskId, recorded.length]]);
    expect(await api.listSteps(target.taskId)).toEqual([]);
    vi.useRealTimers();
    // A step's document has the step's lifetime: none was written for the removed steps, none will be.
    expect(await stepDocs(db)).toBe(1);
    const hits = (await api.searchHistory(word, { kinds: ['step'] })).hits;
    expect(hits.map((h) => h.stepId)).toEqual([keptStep]);
    expect(await stepDocs(db)).toBe(1);
    expect(await pendingFrom(db)).toBeNull();
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('audit() right after recordToolCalls counts the search documents of its steps', async () => {
    const { api, database } = await memoryBrain();
    const target = await session(api);
    const eventDocs = (await api.audit()).light.searchDocuments.rows;
    const { calls: recorded } = await api.recordToolCalls(calls(target, 0, 20));
    expect(await stepDocs(database.driver)).toBe(0);
    const audit = await api.audit();
    expect(await stepDocs(database.driver)).toBe(recorded.length);
    const events = (await api.listEvents(target.sessionId)).length;
    expect(audit.light.searchDocuments.rows).toBe(eventDocs + recorded.length + events);
  });

  it('indexes in chunks when idle: a call that comes in waits for one chunk, not for all of them', async () => {
    const { api, database, engine, name } = await memoryBrain();
    const target = await session(api);
    const { calls: recorded } = await api.recordToolCalls(calls(target, 0, 45));
    await database.close(); // before the engine's own idle turn
    const db = (
      await openDatabase(engine, name, {
        read: async () => engine.memory.read(name) ?? new Uint8Array(),
        install: async (bytes) => engine.memory.put(name, bytes),
      })
    ).driver;
    expect(await stepDocs(db)).toBe(0);

    // The same runner and indexer the engine uses, on a queue of this test's own, chunks of 10 steps.
    const queue = createSerialQueue();
    const whenIdle = createIdleRunner(queue);
    const small = { steps: 10, bytes: 1024 * 1024 };
    const pending = createPendingSteps(db, createHistoryRepo(db), { idle: small, catchUp: small });
    const log: string[] = [];
    const job = async () => {
      const before = await stepDocs(db);
      // A call arrives while the first chunk runs.
      if (log.length === 0) void queue.run(async () => void log.push('call'));
      const more = await pending.indexChunk();
      log.push(`chunk ${(await stepDocs(db)) - before}`);
      return more;
    };
    whenIdle(job);
    await expect.poll(() => pendingFrom(db)).toBeNull();
    expect(await stepDocs(db)).toBe(recorded.length);
    expect(log).toEqual(['chunk 10', 'call', 'chunk 10', 'chunk 10', 'chunk 10', 'chunk 5']);
  });
});
