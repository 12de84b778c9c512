/**
 * The engine's saved fold (migration 7): a compression folds only the events after the state the previous one
 * saved, so recording one more event costs the same in a long session as in a short one; a database without a
 * saved state (written before migration 7) or with an unreadable one folds from the first event, once, to the
 * same active checkpoint. Rows read from `events` are counted through the driver.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock';
import type { SessionId } from '../../src/core/ids';
import { createBrainApi } from '../../src/engine/create-engine';
import { openDatabase } from '../../src/storage/sqlite/database';
import type { SqlDriver, SqlParams } from '../../src/storage/sqlite/driver';
import type { NewEventInput } from '../../src/core/events/model';
import { memoryEngine } from './helpers';

let counter = 0;

/** The engine over a driver that counts the rows each statement reading `events` returns. */
async function countingBrain() {
  const engine = await memoryEngine();
  const name = `compression-state-${++counter}.db`;
  const database = await openDatabase(engine, name, {
    read: async () => engine.memory.read(name) ?? new Uint8Array(),
    install: async (bytes) => engine.memory.put(name, bytes),
  });
  const reads = { eventRows: 0 };
  const inner = database.driver;
  const driver: SqlDriver = {
    ...inner,
    all: async <T>(sql: string, params?: SqlParams) => {
      const rows = await inner.all<T>(sql, params);
      if (/\bFROM events\b/.test(sql)) reads.eventRows += rows.length;
      return rows;
    },
    get: (sql, params) => inner.get(sql, params),
    run: (sql, params) => inner.run(sql, params),
    exec: (sql) => inner.exec(sql),
    transaction: (fn) => inner.transaction(fn),
    close: () => inner.close(),
  };
  const withDriver = new Proxy(database, {
    get: (target, key) => (key === 'driver' ? driver : Reflect.get(target, key)),
  });
  const api = createBrainApi({ database: withDriver, storage: 'memory', clock: fixedClock() });
  const { id: sessionId } = await api.startSession({ title: 'long' });
  await api.startTask({ sessionId, title: 'a long task' });
  return { api, sessionId, reads, sql: inner };
}

type Api = Awaited<ReturnType<typeof countingBrain>>['api'];

/** `n` events of mixed kinds in batches (each batch one automatic compression check). */
async function history(api: Api, sessionId: SessionId, n: number) {
  for (let done = 0; done < n; done += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, n - done) }, (_, i): NewEventInput => {
      const k = (done + i) % 5;
      return k === 0
        ? { sessionId, kind: 'decision', text: `decision ${done + i}` }
        : k === 1
          ? { sessionId, kind: 'file_change', path: `src/f${(done + i) % 40}.ts` }
          : k === 2
            ? { sessionId, kind: 'validation', name: 'npm test', result: i % 3 ? 'passed' : 'failed' }
            : { sessionId, kind: 'note', text: `note ${done + i}` };
    });
    await api.recordEvents(batch);
  }
}

/** The most event rows one recorded note made the engine read, over `n` notes. */
async function maxRowsPerEvent(api: Api, sessionId: SessionId, reads: { eventRows: number }, n: number) {
  let max = 0;
  let compressed = 0;
  for (let i = 0; i < n; i++) {
    const before = reads.eventRows;
    const recorded = await api.recordNote({ sessionId, text: `more ${i}` });
    if (recorded.autoCompressed) compressed++;
    max = Math.max(max, reads.eventRows - before);
  }
  return { max, compressed };
}

// Each test records thousands of events through the whole engine: seconds on a loaded 2-core machine.
describe('the saved compression fold', () => {
  it(
    'makes a compression read only the events since the last one, however long the session',
    { timeout: 60_000 },
    async () => {
      const { api, sessionId, reads } = await countingBrain();
      await history(api, sessionId, 4_000);
      const { max, compressed } = await maxRowsPerEvent(api, sessionId, reads, 250);
      expect(compressed).toBeGreaterThanOrEqual(1);
      // The active context (≤ 200 events + the tail), read a couple of times; not the 4,250 of the session.
      expect(max).toBeLessThan(700);
    },
  );

  it(
    'folds a session without a saved state from its first event once, to the same active checkpoint',
    { timeout: 60_000 },
    async () => {
      const { api, sessionId, reads, sql } = await countingBrain();
      await history(api, sessionId, 3_000);
      const raise = await api.raiseBlocker({ sessionId, text: 'CI is down' });
      await history(api, sessionId, 1_000);
      const withState = await api.activeCheckpoint(sessionId);

      // As a database written before migration 7: events compressed, no saved state.
      await sql.run('DELETE FROM compression_state');
      let before = reads.eventRows;
      const legacy = await api.activeCheckpoint(sessionId);
      expect(reads.eventRows - before).toBeGreaterThanOrEqual(4_001);
      expect(legacy.checkpoint).toEqual(withState.checkpoint);
      expect(legacy.checkpoint.blocker?.eventId).toBe(raise.id);
      // That read folded the whole log, so it kept the result: the next one does not.
      before = reads.eventRows;
      await api.activeCheckpoint(sessionId);
      expect(reads.eventRows - before).toBeLessThan(700);

      // An unreadable state is folded again the same way, and a compression saves it again.
      await sql.run(`UPDATE compression_state SET fold = '{"format":1'`);
      const compressed = await api.compressContext(sessionId);
      expect(compressed.checkpoint).toEqual({ ...withState.checkpoint });
      before = reads.eventRows;
      await api.resolveBlocker({ sessionId, blockerId: raise.id });
      expect((await api.resumePoint(sessionId)).checkpoint.blocker).toBeNull();
      expect(reads.eventRows - before).toBeLessThan(700);
    },
  );

  it('keeps one state row per session, gone with its session', { timeout: 60_000 }, async () => {
    const { api, sessionId, sql } = await countingBrain();
    await history(api, sessionId, 500);
    const other = await api.startSession({ title: 'other' });
    await history(api, other.id, 500);
    const rows = () => sql.all<{ session_id: number }>('SELECT session_id FROM compression_state ORDER BY 1');
    expect(await rows()).toEqual([{ session_id: sessionId }, { session_id: other.id }]);
    await api.deleteSession(other.id);
    expect(await rows()).toEqual([{ session_id: sessionId }]);
  });
});
