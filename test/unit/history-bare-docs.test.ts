/**
 * A step's or an event's search document is a bare link to its row (migration 16): it stores its source and
 * nothing else, and a hit reads its session, task, step, kind, path, checkpoint entry and time from the event or
 * step. What is checked: hits carry the same links as before; filters by session and kind still hold; a bare
 * document goes with its row (a session deleted, a task cleaned) — its index entries too; a database of the
 * previous build is made bare by the migration and answers the same.
 */
import { describe, expect, it } from 'vitest';
import type { BrainApi, SessionId, TaskId } from '../../src/core/api';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import { memoryBrain, olderBrain } from './engine-helpers';

const linksOf = (hit: {
  source: string;
  sourceId: number;
  sessionId: unknown;
  taskId: unknown;
  stepId: unknown;
  kind: string;
  path: string | null;
  checkpointEntryId: unknown;
  createdAt: number;
}) => ({
  source: hit.source,
  sourceId: hit.sourceId,
  sessionId: hit.sessionId,
  taskId: hit.taskId,
  stepId: hit.stepId,
  kind: hit.kind,
  path: hit.path,
  checkpointEntryId: hit.checkpointEntryId,
  createdAt: hit.createdAt,
});

async function docRows(db: SqlDriver) {
  return db.all<{ source: string; kind: string; session_id: number | null; title: string }>(
    'SELECT source, kind, session_id, title FROM history_docs ORDER BY id',
  );
}

const indexed = async (db: SqlDriver, word: string) =>
  (await db.get<{ n: number }>('SELECT count(*) AS n FROM history_fts WHERE history_fts MATCH ?', [word]))?.n;

async function twoSessions(api: BrainApi) {
  const made: { sessionId: SessionId; taskId: TaskId; stepId: number; changeId: number }[] = [];
  for (const name of ['alpha', 'beta']) {
    const { id: sessionId } = await api.startSession({ title: name });
    const { id: taskId } = await api.startTask({ sessionId, title: `${name} task` });
    const { id: stepId } = await api.recordStep({
      taskId,
      tool: 'bash',
      params: { command: `grep -rn ${name}needle src` },
      result: { output: `src/${name}.ts:3: ${name}needle sharedword`, exitCode: 0 },
      status: 'ok',
    });
    const change = await api.recordFileChange({
      sessionId,
      taskId,
      path: `src/${name}.ts`,
      change: 'modified',
      checkpointEntryId: 7 as never,
      text: `${name}needle renamed sharedword`,
    });
    await api.recordDecision({ sessionId, text: `Keep ${name}needle sharedword`, why: 'tests' });
    made.push({ sessionId, taskId, stepId, changeId: change.id });
  }
  return made;
}

describe('bare search documents', () => {
  it('store no links, and hits read them from their step or event', async () => {
    const { api, database } = await memoryBrain();
    const [alpha, beta] = await twoSessions(api);
    if (!alpha || !beta) throw new Error('two sessions');
    const rows = await docRows(database.driver);
    expect(rows.length).toBe(6);
    for (const row of rows) expect(row).toMatchObject({ kind: '', session_id: null, title: '' });

    const step = (await api.searchHistory('alphaneedle', { kinds: ['step'] })).hits;
    expect(step.map(linksOf)).toEqual([
      {
        source: 'step',
        sourceId: alpha.stepId,
        sessionId: alpha.sessionId,
        taskId: alpha.taskId,
        stepId: alpha.stepId,
        kind: 'step',
        path: null,
        checkpointEntryId: null,
        createdAt: expect.any(Number),
      },
    ]);
    expect(step[0]?.createdAt).toBe((await api.listSteps(alpha.taskId))[0]?.createdAt);
    const change = (await api.searchHistory('renamed', { sessionId: beta.sessionId })).hits;
    expect(change.map(linksOf)).toEqual([
      {
        source: 'event',
        sourceId: beta.changeId,
        sessionId: beta.sessionId,
        taskId: beta.taskId,
        stepId: null,
        kind: 'file_change',
        path: 'src/beta.ts',
        checkpointEntryId: 7,
        createdAt: expect.any(Number),
      },
    ]);
    expect(change[0]?.snippet).toContain('[renamed]');

    // Filters: by session (each session's three documents), by kind.
    for (const s of [alpha, beta]) {
      const hits = (await api.searchHistory('sharedword', { sessionId: s.sessionId })).hits;
      expect(hits.map((h) => h.sessionId)).toEqual([s.sessionId, s.sessionId, s.sessionId]);
    }
    const decisions = (await api.searchHistory('sharedword', { kinds: ['decision'] })).hits;
    expect(decisions.map((h) => h.kind)).toEqual(['decision', 'decision']);
  });

  it('go with their rows: a deleted session takes its documents and index entries, cleanup a task’s steps’', async () => {
    const { api, database } = await memoryBrain();
    const db = database.driver;
    const [alpha, beta] = await twoSessions(api);
    if (!alpha || !beta) throw new Error('two sessions');
    expect(await indexed(db, 'alphaneedle')).toBe(3);
    await api.deleteSession(alpha.sessionId);
    expect(await indexed(db, 'alphaneedle')).toBe(0);
    expect((await docRows(db)).length).toBe(3);
    expect((await api.searchHistory('sharedword')).hits.map((h) => h.sessionId)).toEqual([
      beta.sessionId,
      beta.sessionId,
      beta.sessionId,
    ]);

    await api.startTask({ sessionId: beta.sessionId, title: 'next' });
    await api.setTaskState(beta.taskId, 'superseded');
    const report = await api.cleanup();
    expect(report.cleaned.map((c) => c.taskId)).toContain(beta.taskId);
    expect(await indexed(db, 'betaneedle')).toBe(2);
    expect((await api.searchHistory('betaneedle', { kinds: ['step'] })).hits).toEqual([]);
    expect((await docRows(db)).map((r) => r.source)).toEqual(['event', 'event']);
  });

  it('a database of the previous build is made bare, and answers as it did', async () => {
    const { api, database } = await olderBrain('bare-docs-old.db', 15, async (old) => {
      // What build 15 wrote: a step and a file change, each with a document holding its links and no text; a
      // summary's document with its text; the index entries.
      await old.exec(`
      INSERT INTO sessions (id, title, created_at, updated_at) VALUES (1, 'old', 0, 0);
      INSERT INTO tasks (id, session_id, title, state, created_at, updated_at) VALUES (4, 1, 'fix', 'running', 0, 0);
      INSERT INTO steps (id, task_id, seq, tool, params, result, status, created_at)
        VALUES (9, 4, 1, 'bash', '{"command":"pytest"}', '{"output":"oldneedle failed","exitCode":1}', 'error', 1500);
      INSERT INTO events (id, session_id, task_id, step_id, kind, text, path, checkpoint_entry_id, data, created_at)
        VALUES (3, 1, 4, 9, 'file_change', 'oldneedle patched', 'src/old.py', 12, '{"change":"modified"}', 1600);
      INSERT INTO summaries (id, session_id, task_id, kind, content, created_at)
        VALUES (2, 1, 4, 'task', 'oldneedle summed up', 1700);
      INSERT INTO history_docs (id, source, source_id, session_id, task_id, step_id, kind, title, body, created_at)
        VALUES (1, 'step', 9, 1, 4, 9, 'step', '', '', 1500);
      INSERT INTO history_fts (rowid, title, body) VALUES (1, 'Step 1: bash (error)', 'pytest oldneedle failed');
      INSERT INTO history_docs (id, source, source_id, session_id, task_id, step_id, kind, path,
          checkpoint_entry_id, title, body, created_at)
        VALUES (2, 'event', 3, 1, 4, 9, 'file_change', 'src/old.py', 12, '', '', 1600);
      INSERT INTO history_fts (rowid, title, body) VALUES (2, 'file_change src/old.py', 'oldneedle patched');
      INSERT INTO history_docs (id, source, source_id, session_id, task_id, kind, title, body, created_at)
        VALUES (3, 'summary', 2, 1, 4, 'summary', 'Summary: task', 'oldneedle summed up', 1700);
    `);
    });
    expect((await docRows(database.driver)).map((r) => [r.source, r.kind, r.session_id])).toEqual([
      ['step', '', null],
      ['event', '', null],
      ['summary', 'summary', 1],
    ]);
    const hits = (await api.searchHistory('oldneedle', { sessionId: 1 as SessionId })).hits;
    expect(hits.map(linksOf).sort((a, b) => a.createdAt - b.createdAt)).toEqual([
      {
        source: 'step',
        sourceId: 9,
        sessionId: 1,
        taskId: 4,
        stepId: 9,
        kind: 'step',
        path: null,
        checkpointEntryId: null,
        createdAt: 1500,
      },
      {
        source: 'event',
        sourceId: 3,
        sessionId: 1,
        taskId: 4,
        stepId: 9,
        kind: 'file_change',
        path: 'src/old.py',
        checkpointEntryId: 12,
        createdAt: 1600,
      },
      {
        source: 'summary',
        sourceId: 2,
        sessionId: 1,
        taskId: 4,
        stepId: null,
        kind: 'summary',
        path: null,
        checkpointEntryId: null,
        createdAt: 1700,
      },
    ]);
    await api.deleteSession(1 as SessionId);
    expect(await indexed(database.driver, 'oldneedle')).toBe(0);
    expect(await docRows(database.driver)).toEqual([]);
  });
});
