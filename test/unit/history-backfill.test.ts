/**
 * A database from before record-time step indexing (migrations 1–7): its steps were indexed only by a
 * compression, as cut JSON text, or not at all. Migration 8 marks what is to catch up on; the first search
 * indexes it, once, a page per transaction — and finds what the new index finds.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock';
import type { StepId } from '../../src/core/api';
import { createBrainApi } from '../../src/engine/create-engine';
import { backfillStepIndex } from '../../src/engine/history/step-index';
import { openDatabase } from '../../src/storage/sqlite/database';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import { createHistoryRepo } from '../../src/storage/sqlite/repos/history-repo';
import { createTranscriptRepo } from '../../src/storage/sqlite/repos/transcript-repo';
import { migrate } from '../../src/storage/sqlite/migrate';
import { migrations } from '../../src/storage/sqlite/migrations/index';
import { bashSession, type BashStep } from '../fixtures/bash-session';
import { memoryEngine } from './helpers';
import { expectations, misses, type Recorded } from './history-terms';

let counter = 0;
const FILLERS = 431;
/** The step the previous build indexed and cleanup then removed: only its (cut JSON) document is left. */
const REMOVED = 5;

/** Agent.db as the previous build left it: the bash session and small steps, the first 100 indexed as JSON. */
async function oldDatabase() {
  const engine = await memoryEngine();
  const name = `backfill-${++counter}.db`;
  const old = await engine.open(name);
  await migrate(
    old,
    migrations.filter((m) => m.id <= 7),
  );
  await old.exec(`
    INSERT INTO sessions (id, title, created_at, updated_at) VALUES (1, 'django', 0, 0);
    INSERT INTO tasks (id, session_id, title, state, created_at, updated_at) VALUES (1, 1, 'fix', 'running', 0, 0);
  `);
  const steps: BashStep[] = [
    ...bashSession().steps,
    ...Array.from({ length: FILLERS }, (_, i) => ({
      command: `cd /testbed && git log -1 --format=%s HEAD~${i}`,
      output: `commit ${i}\nfillerword${i}x is the subject\n`,
      exitCode: 0,
      status: 'ok' as const,
    })),
  ];
  const recorded: Recorded[] = [];
  for (const [i, step] of steps.entries()) {
    const { lastInsertRowid } = await old.run(
      `INSERT INTO steps (task_id, seq, tool, params, result, status, created_at) VALUES (1, ?, 'bash', ?, ?, ?, ?)`,
      [
        i + 1,
        JSON.stringify({ command: step.command }),
        JSON.stringify({ output: step.output, exitCode: step.exitCode }),
        step.status,
        i,
      ],
    );
    recorded.push({ id: lastInsertRowid as StepId, step });
  }
  // A row stored outside agent-brain: its result is not JSON (cut mid-string).
  await old.run(
    `INSERT INTO steps (task_id, seq, tool, params, result, status, created_at)
     VALUES (1, ?, 'bash', '{"command":"pytest"}', '{"output":"collected 3 items\\nbrokenjsonword', 'error', 0)`,
    [steps.length + 1],
  );
  // The previous build's compression: the first 1,000 characters of params and 4,000 of result, as JSON text.
  await old.exec(`
    INSERT INTO history_docs (source, source_id, session_id, task_id, step_id, kind, title, body, created_at)
    SELECT 'step', st.id, 1, 1, st.id, 'step', 'Step ' || st.seq || ': bash (' || st.status || ')',
           substr(st.params, 1, 1000) || char(10) || substr(st.result, 1, 4000), st.created_at
    FROM steps st WHERE st.id <= 100;
    DELETE FROM steps WHERE id = ${REMOVED};
  `);
  await old.close();
  const database = await openDatabase(engine, name, {
    read: async () => engine.memory.read(name) ?? new Uint8Array(),
    install: async (bytes) => engine.memory.put(name, bytes),
  });
  return { database, recorded, total: steps.length + 1 };
}

/** Counts the outer transactions run on the connection (the backfill's pages among them). */
function countTransactions(db: SqlDriver) {
  const original = db.transaction.bind(db);
  const count = { n: 0 };
  let depth = 0;
  db.transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (depth === 0) count.n++;
    depth++;
    try {
      return await original(fn);
    } finally {
      depth--;
    }
  };
  return count;
}

describe('the step index of an older database', () => {
  it('is built on the first search, once, a page per transaction; then search finds what it finds in a new one', async () => {
    const { database, recorded, total } = await oldDatabase();
    const db = database.driver;
    expect(await db.get('SELECT steps_upto, docs_upto FROM history_backfill')).toEqual({
      steps_upto: total,
      docs_upto: REMOVED,
    });
    const api = createBrainApi({ database, storage: 'memory', clock: fixedClock() });
    const kept = recorded.filter((r) => r.id !== REMOVED);
    const expected = expectations(kept);
    // Control: the old documents miss what the JSON text hid (read before the first search runs the backfill).
    expect(
      await db.get(`SELECT count(*) AS n FROM history_fts WHERE history_fts MATCH 'ndjango'`),
    ).not.toEqual({ n: 0 });

    const transactions = countTransactions(db);
    expect((await api.searchHistory('fillerword7x')).hits.map((h) => h.stepId)).toEqual([
      recorded[recorded.length - FILLERS + 7]?.id,
    ]);
    // 1 + 520 steps in pages of at most 200, the removed step's document (deleted) before them, each its own
    // transaction.
    expect(transactions.n).toBeGreaterThanOrEqual(4);
    expect(await db.get('SELECT count(*) AS n FROM history_backfill')).toEqual({ n: 0 });
    expect(await misses(api, expected)).toEqual([]);
    expect((await api.searchHistory('brokenjsonword')).hits).toHaveLength(1);
    // The removed step's document went too: a step's document has the step's lifetime (the old build kept it).
    const removedWord = (recorded[REMOVED - 1]?.step.output.split('\n')[0] ?? '').split(/\W/)[0] as string;
    expect(removedWord.length).toBeGreaterThan(3);
    expect(
      await db.get(`SELECT count(*) AS n FROM history_docs WHERE source = 'step' AND source_id = ?`, [
        REMOVED,
      ]),
    ).toEqual({ n: 0 });
    const removed = await api.searchHistory(removedWord, { kinds: ['step'] });
    expect(removed.hits.map((h) => h.sourceId)).not.toContain(REMOVED);
    expect(await db.get(`SELECT count(*) AS n FROM history_fts WHERE history_fts MATCH 'ndjango'`)).toEqual({
      n: 0,
    });

    // Once: a later search runs no transaction at all; a compression indexes no step again.
    transactions.n = 0;
    await api.searchHistory('fillerword8x');
    expect(transactions.n).toBe(0);
    const docs = () =>
      db.get(
        "SELECT count(*) AS docs, count(DISTINCT source_id) AS ids FROM history_docs WHERE source = 'step'",
      );
    expect(await docs()).toEqual({ docs: total - 1, ids: total - 1 });
    await api.recordInstruction({ sessionId: 1 as never, text: 'go on' });
    await api.compressContext(1 as never);
    expect(await docs()).toEqual({ docs: total - 1, ids: total - 1 });
  });

  it('walks down in pages bounded by steps and by bytes, the mark moving on at each commit', async () => {
    const { database, total } = await oldDatabase();
    const db = database.driver;
    const history = createHistoryRepo(db);
    const transcript = createTranscriptRepo(db);
    const marks: ({ stepsUpto: number; docsUpto: number } | null)[] = [];
    const original = db.transaction.bind(db);
    db.transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
      const result = await original(fn);
      marks.push(await history.backfillMark());
      return result;
    };
    const bytes = 100_000;
    const pages = await backfillStepIndex(db, history, transcript, { steps: 50, bytes, orphanDocs: 10 });
    const stepMarks = marks.filter((m) => m !== null && m.docsUpto === 0).map((m) => m?.stepsUpto ?? 0);
    // Orphans first (one page, then the empty one that closes it), then the steps, newest first.
    expect(marks[0]).toEqual({ stepsUpto: total, docsUpto: REMOVED - 1 });
    expect(marks.at(-1)).toBeNull();
    const bounds = [total, ...stepMarks, 0];
    const pagesOf: { steps: number; bytes: number }[] = [];
    for (let i = 1; i < bounds.length; i++) {
      const page = await db.get<{ steps: number; bytes: number }>(
        `SELECT count(*) AS steps, coalesce(sum(octet_length(params) + octet_length(result)), 0) AS bytes
         FROM steps WHERE id > ? AND id <= ?`,
        [bounds[i], bounds[i - 1]],
      );
      if (page && page.steps > 0) pagesOf.push(page);
    }
    expect(Math.max(...pagesOf.map((p) => p.steps))).toBeLessThanOrEqual(50);
    // Past its first step, a page stays within the byte bound; the 120 KB output fills a page of its own.
    expect(pagesOf.every((p) => p.steps === 1 || p.bytes <= bytes)).toBe(true);
    expect(pagesOf.filter((p) => p.steps === 1 && p.bytes > bytes).length).toBeGreaterThanOrEqual(1);
    expect(pagesOf.reduce((n, p) => n + p.steps, 0)).toBe(total - 1);
    expect(pages).toBe(marks.length - 1);
    expect(await backfillStepIndex(db, history, transcript)).toBe(0);
  });
});
