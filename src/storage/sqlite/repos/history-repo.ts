import type { FtsQuery } from '../../../core/events/search';
import {
  asCheckpointEntryId,
  asSessionId,
  asStepId,
  asTaskId,
  type SessionId,
  type TaskId,
} from '../../../core/ids';
import type { CheckpointEntryId, StepId } from '../../../core/ids';
import type { SqlDriver } from '../driver';
import { eventDocument } from '../../../core/events/model';
import { stepTitle, storedStepSearchText } from '../../../core/events/step-text';
import { toEvent, type EventRow } from './events-repo';
import { packJson, unpackJson, type StoredJson } from './step-json';
import { toStepToIndex, type StepRow, type StepToIndex } from './transcript-repo';

export type HistorySource = 'event' | 'summary' | 'step';

/**
 * One searchable document: a source row's text with the links a hit needs. A step's or an event's document is
 * stored without its title and text (its row holds them); a summary's keeps its own.
 */
export interface HistoryDoc {
  readonly source: HistorySource;
  readonly sourceId: number;
  readonly sessionId: SessionId | null;
  readonly taskId: TaskId | null;
  readonly stepId: StepId | null;
  readonly planStepId: number | null;
  readonly kind: string;
  readonly path: string | null;
  readonly checkpointEntryId: CheckpointEntryId | null;
  readonly title: string;
  readonly body: string;
  readonly createdAt: number;
}

export interface HistoryHitRow extends Omit<HistoryDoc, 'body'> {
  readonly docId: number;
  readonly snippet: string;
  readonly score: number;
}

interface HitRow {
  id: number;
  source: HistorySource;
  source_id: number;
  session_id: number | null;
  task_id: number | null;
  step_id: number | null;
  plan_step_id: number | null;
  kind: string;
  path: string | null;
  checkpoint_entry_id: number | null;
  title: string;
  created_at: number;
  snippet: string;
  score: number;
}

const toHit = (row: HitRow): HistoryHitRow => ({
  docId: row.id,
  source: row.source,
  sourceId: row.source_id,
  sessionId: row.session_id === null ? null : asSessionId(row.session_id),
  taskId: row.task_id === null ? null : asTaskId(row.task_id),
  stepId: row.step_id === null ? null : asStepId(row.step_id),
  planStepId: row.plan_step_id,
  kind: row.kind,
  path: row.path,
  checkpointEntryId: row.checkpoint_entry_id === null ? null : asCheckpointEntryId(row.checkpoint_entry_id),
  title: row.title,
  createdAt: row.created_at,
  snippet: row.snippet,
  score: row.score,
});

type StepToIndexRow = StepRow & { session_id: number | null; bytes: number };

export interface SearchFilter {
  readonly sessionId?: SessionId;
  readonly kinds?: readonly string[];
  readonly limit: number;
}

const SUMMARY_TEXT_CHARS = 20_000;
/** How many of the newest matches bm25 ranks (see runSearch). */
export const RANK_WINDOW = 1_000;

const DOC_COLUMNS = `source, source_id, session_id, task_id, step_id, plan_step_id, kind, path, checkpoint_entry_id,
  title, body, created_at`;
const docRow = (d: HistoryDoc) => [
  d.source,
  d.sourceId,
  d.sessionId,
  d.taskId,
  d.stepId,
  d.planStepId,
  d.kind,
  d.path,
  d.checkpointEntryId,
  d.title,
  d.body,
  d.createdAt,
];
// "WHERE true": an upsert's SELECT needs a WHERE, or its ON CONFLICT would parse as a join's ON.
const ONE_DOC = 'SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE true';
const DOC_BATCH = `SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6,
  value ->> 7, value ->> 8, value ->> 9, value ->> 10, value ->> 11 FROM json_each(?) WHERE true`;
const REPLACE_DOC = `ON CONFLICT (source, source_id) DO UPDATE SET session_id = excluded.session_id,
  task_id = excluded.task_id, step_id = excluded.step_id, plan_step_id = excluded.plan_step_id, kind = excluded.kind,
  path = excluded.path, checkpoint_entry_id = excluded.checkpoint_entry_id, title = excluded.title,
  body = excluded.body, created_at = excluded.created_at`;

/**
 * The snippets of hits, made as FTS5 makes them (`snippet()`): the index keeps no copy of a document's text
 * (contentless, migration 15), so the hits' texts go into this in-memory FTS5 table of the same tokenizer, and
 * the same query gives exactly the snippet it would have given. Temp schema: never part of agent.db.
 */
const SNIPPET_TABLE = `CREATE VIRTUAL TABLE IF NOT EXISTS temp.history_snippets USING fts5(
  title, body, tokenize = 'porter unicode61 remove_diacritics 2')`;

/** Documents stored without their text: a step's and an event's (made again from the row when a hit needs it). */
const isTextless = (d: HistoryDoc) => d.source === 'step' || d.source === 'event';

/**
 * What a step's or an event's document stores (migration 16): its source and nothing else — `kind` '' marks it;
 * its links are read from its row (DOC_LINKS), its text made again from it (docTexts).
 */
const bareDoc = (d: HistoryDoc): HistoryDoc => ({
  source: d.source,
  sourceId: d.sourceId,
  sessionId: null,
  taskId: null,
  stepId: null,
  planStepId: null,
  kind: '',
  path: null,
  checkpointEntryId: null,
  title: '',
  body: '',
  createdAt: 0,
});

/**
 * Every document with its links: those a document stores, or for a bare one (a step's or an event's, `kind` '')
 * those of its event or step — the one home of a step's or event's session, task, kind, path and time.
 */
const DOC_LINKS = `SELECT d.id, d.source, d.source_id,
    coalesce(d.session_id, e.session_id, t.session_id) AS session_id,
    coalesce(d.task_id, e.task_id, st.task_id) AS task_id,
    coalesce(d.step_id, e.step_id, st.id) AS step_id,
    coalesce(d.plan_step_id, e.plan_step_id) AS plan_step_id,
    CASE WHEN d.kind <> '' THEN d.kind WHEN d.source = 'step' THEN 'step' ELSE coalesce(e.kind, '') END AS kind,
    coalesce(d.path, CASE WHEN e.kind = 'file_change' THEN e.path END) AS path,
    coalesce(d.checkpoint_entry_id, CASE WHEN e.kind = 'file_change' THEN e.checkpoint_entry_id END)
      AS checkpoint_entry_id,
    CASE WHEN d.kind <> '' THEN d.created_at ELSE coalesce(e.created_at, st.created_at, 0) END AS created_at
  FROM history_docs d
  LEFT JOIN events e ON d.kind = '' AND d.source = 'event' AND e.id = d.source_id
  LEFT JOIN steps st ON d.kind = '' AND d.source = 'step' AND st.id = d.source_id
  LEFT JOIN tasks t ON t.id = st.task_id`;

/** The history search index (FTS5 over event, summary and step text) and the compression log. */
export function createHistoryRepo(db: SqlDriver) {
  /**
   * Indexes documents with one statement per kind. FTS5 writes its pending terms to a new segment at the end of
   * every statement that changes it (a statement savepoint), so a row-by-row insert of a batch would write one
   * tiny segment per row and keep merging them — slow on OPFS. One statement per batch writes one segment; a
   * single document (a recorded step or event) is bound as it is, without a JSON round trip of its text.
   * A step's or an event's document is stored without its text — title and body are made again from the step or
   * event when a hit needs them (docTexts) — and its text goes to the index here; other documents keep theirs
   * (the trigger indexes it). `replace`: a document of the same source row is replaced (its index entries with
   * it) instead of kept.
   */
  async function writeDocs(docs: readonly HistoryDoc[], onConflict: 'keep' | 'replace'): Promise<void> {
    const textless = docs.filter(isTextless);
    const others = textless.length === docs.length ? [] : docs.filter((d) => !isTextless(d));
    const [first] = others;
    if (first !== undefined) {
      const values = others.length === 1 ? ONE_DOC : DOC_BATCH;
      await db.run(
        onConflict === 'keep'
          ? `INSERT OR IGNORE INTO history_docs (${DOC_COLUMNS}) ${values}`
          : `INSERT INTO history_docs (${DOC_COLUMNS}) ${values} ${REPLACE_DOC}`,
        others.length === 1 ? docRow(first) : [JSON.stringify(others.map(docRow))],
      );
    }
    if (textless.length > 0) await writeTextless(textless, onConflict);
  }

  async function writeTextless(docs: readonly HistoryDoc[], onConflict: 'keep' | 'replace'): Promise<void> {
    if (onConflict === 'replace') {
      // The old document's index entries go with it (trigger); the new one gets a new id.
      await db.run(
        `DELETE FROM history_docs WHERE (source, source_id) IN
           (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
        [JSON.stringify(docs.map((d) => [d.source, d.sourceId]))],
      );
    }
    const stored = docs.map(bareDoc);
    const [one] = stored;
    const single = one !== undefined && stored.length === 1;
    const inserted = await db.all<{ id: number; source: HistorySource; source_id: number }>(
      `INSERT OR IGNORE INTO history_docs (${DOC_COLUMNS}) ${single ? ONE_DOC : DOC_BATCH}
       RETURNING id, source, source_id`,
      single ? docRow(one) : [JSON.stringify(stored.map(docRow))],
    );
    if (inserted.length === 0) return;
    const bySource = new Map(docs.map((d) => [`${d.source}:${d.sourceId}`, d]));
    const entries = inserted.flatMap(({ id, source, source_id }) => {
      const doc = bySource.get(`${source}:${source_id}`);
      return doc ? [[id, doc.title, doc.body] as const] : [];
    });
    const [entry] = entries;
    if (entry !== undefined && entries.length === 1)
      await db.run('INSERT INTO history_fts (rowid, title, body) VALUES (?, ?, ?)', [...entry]);
    else
      await db.run(
        `INSERT INTO history_fts (rowid, title, body)
         SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)`,
        [JSON.stringify(entries)],
      );
  }

  /**
   * The title and text of documents, by id: what a document stores, or for one stored without text (a step's,
   * an event's) what its index entries were made of, made again from its step or event as stored
   * (core/events/step-text.ts, eventDocument). A document whose source row is gone has an empty text.
   */
  async function docTexts(ids: readonly number[]): Promise<Map<number, { title: string; body: string }>> {
    const docs = await db.all<{
      id: number;
      source: HistorySource;
      source_id: number;
      title: string;
      body: string;
    }>(
      `SELECT id, source, source_id, title, body FROM history_docs WHERE id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(ids)],
    );
    const textless = (source: HistorySource) =>
      JSON.stringify(
        docs.filter((d) => d.source === source && d.title === '' && d.body === '').map((d) => d.source_id),
      );
    const steps = await db.all<{
      id: number;
      seq: number;
      tool: string;
      status: string;
      params: StoredJson;
      result: StoredJson;
    }>(
      `SELECT id, seq, tool, status, params, result FROM steps WHERE id IN (SELECT value FROM json_each(?))`,
      [textless('step')],
    );
    const events = await db.all<EventRow>(
      'SELECT * FROM events WHERE id IN (SELECT value FROM json_each(?))',
      [textless('event')],
    );
    const made = new Map<string, { title: string; body: string }>();
    for (const st of steps) {
      const body = storedStepSearchText(
        unpackJson(st.params, st.id, 'params'),
        unpackJson(st.result, st.id, 'result'),
      );
      made.set(`step:${st.id}`, { title: stepTitle(st), body });
    }
    for (const row of events) made.set(`event:${row.id}`, eventDocument(toEvent(row)));
    return new Map(
      docs.map((d) => [
        d.id,
        d.title === '' && d.body === '' ? (made.get(`${d.source}:${d.source_id}`) ?? d) : d,
      ]),
    );
  }

  /** Each document's title and FTS5 snippet for `match`, by id (an empty snippet for one without text now). */
  async function hitTexts(
    match: string,
    ids: readonly number[],
  ): Promise<Map<number, { title: string; snippet: string }>> {
    const texts = await docTexts(ids);
    await db.exec(SNIPPET_TABLE);
    try {
      await db.run(
        `INSERT INTO temp.history_snippets (rowid, title, body)
         SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?)`,
        [JSON.stringify([...texts].map(([id, t]) => [id, t.title, t.body]))],
      );
      const rows = await db.all<{ id: number; snippet: string }>(
        `SELECT rowid AS id, snippet(history_snippets, 1, '[', ']', '…', 16) AS snippet
         FROM temp.history_snippets WHERE history_snippets MATCH ?`,
        [match],
      );
      const snippetOf = new Map(rows.map((r) => [r.id, r.snippet]));
      return new Map([...texts].map(([id, t]) => [id, { title: t.title, snippet: snippetOf.get(id) ?? '' }]));
    } finally {
      await db.run('DELETE FROM temp.history_snippets');
    }
  }

  /**
   * Ranking, in two queries. bm25 ranks every match, which for a word found in most documents means ranking most
   * of the index: ranking is therefore done among the newest `window` matches (found cheaply: FTS5 walks a doclist
   * backwards by rowid), the window growing while filters leave fewer hits than asked for. The first query touches
   * only the index (and the documents when filtering); the second fetches documents and snippets for the top hits.
   */
  async function runSearch(
    match: string,
    filter: SearchFilter,
    window = RANK_WINDOW,
  ): Promise<HistoryHitRow[]> {
    const cutoff = await db.get<{ rowid: number }>(
      'SELECT rowid FROM history_fts WHERE history_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?',
      [match, window - 1],
    );
    const where = ['history_fts MATCH ?'];
    const params: (string | number)[] = [match];
    if (cutoff) {
      where.push('history_fts.rowid >= ?');
      params.push(cutoff.rowid);
    }
    const filtered = filter.sessionId !== undefined || filter.kinds !== undefined;
    if (filter.sessionId !== undefined) {
      where.push('d.session_id = ?');
      params.push(filter.sessionId);
    }
    if (filter.kinds !== undefined) {
      where.push('d.kind IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(filter.kinds));
    }
    params.push(filter.limit);
    // bm25 weights: a hit in the title (kind, path, validation name) counts double.
    const ranked = await db.all<{ id: number; score: number }>(
      `SELECT history_fts.rowid AS id, bm25(history_fts, 2.0, 1.0) AS score
       FROM history_fts ${filtered ? `JOIN (${DOC_LINKS}) d ON d.id = history_fts.rowid` : ''}
       WHERE ${where.join(' AND ')}
       ORDER BY score, history_fts.rowid DESC
       LIMIT ?`,
      params,
    );
    if (cutoff && ranked.length < filter.limit && filtered) return runSearch(match, filter, window * 4);
    if (ranked.length === 0) return [];
    const ids = ranked.map((r) => r.id);
    const rows = await db.all<Omit<HitRow, 'score' | 'snippet' | 'title'>>(
      `${DOC_LINKS} WHERE d.id IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(ids)],
    );
    const texts = await hitTexts(match, ids);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ranked.flatMap(({ id, score }) => {
      const row = byId.get(id);
      const text = texts.get(id);
      return row && text ? [toHit({ ...row, ...text, score })] : [];
    });
  }

  /** The catch-up row goes once the backfill is done and no step is pending. */
  const dropSpentMarks = () =>
    db.run('DELETE FROM history_backfill WHERE steps_upto <= 0 AND docs_upto <= 0 AND pending_from IS NULL');

  return {
    /** Indexes documents; one whose source row is indexed already is left as it is. */
    insertDocs: (docs: readonly HistoryDoc[]) => writeDocs(docs, 'keep'),

    /**
     * Indexes tool steps, replacing what an earlier build indexed for the same step id (cut JSON text, or the
     * document of a removed step whose id was reused) — so a step has exactly one document, the current one.
     */
    indexSteps: (docs: readonly HistoryDoc[]) => writeDocs(docs, 'replace'),

    /**
     * Indexes the session's summaries not indexed yet (recorded through any API), text bounded per summary. The
     * engine's own checkpoint summaries (`skipKind`) are left out: they restate events that are indexed one by
     * one, each with its precise links. `afterId`: the session's summaries up to it are indexed already (a range
     * of the session's index instead of all its summaries).
     */
    async indexPendingSummaries(sessionId: SessionId, skipKind: string, afterId = 0): Promise<number> {
      const { changes } = await db.run(
        `INSERT INTO history_docs (source, source_id, session_id, task_id, kind, title, body, created_at)
         SELECT 'summary', s.id, s.session_id, s.task_id, 'summary', 'Summary: ' || s.kind, substr(s.content, 1, ?), s.created_at
         FROM summaries s
         WHERE s.session_id = ? AND s.id > ? AND s.kind <> ?
           AND NOT EXISTS (SELECT 1 FROM history_docs h WHERE h.source = 'summary' AND h.source_id = s.id)`,
        [SUMMARY_TEXT_CHARS, sessionId, afterId, skipKind],
      );
      return changes;
    },

    /**
     * Steps are indexed when they are recorded — `recordStep` in the step's own transaction, `recordToolCall(s)`
     * just behind it (`markStepsPending`, caught up before every read of the index) — and those of a database from
     * before that by the backfill below, page by page, on the first search. A compression, which still asks here
     * for the steps it has not indexed, does not read the index: nothing is done for it, and no step is indexed
     * twice. Kept for that caller; returns the number indexed (0).
     */
    async indexPendingSteps(_sessionId: SessionId, _afterId = 0): Promise<number> {
      return 0;
    },

    /**
     * Steps from `fromStepId` on may be waiting for their search documents (migration 11): called in the
     * transaction that inserts them, so a kill cannot lose the work. The mark only moves down here.
     */
    async markStepsPending(fromStepId: number): Promise<void> {
      await db.run(
        `INSERT INTO history_backfill (id, steps_upto, docs_upto, pending_from) VALUES (1, 0, 0, ?1)
         ON CONFLICT (id) DO UPDATE SET pending_from = min(coalesce(pending_from, ?1), ?1)`,
        [fromStepId],
      );
    },

    /** The first step id that may still be waiting for its document, or null when every step has one. */
    async pendingFrom(): Promise<number | null> {
      const row = await db.get<{ pending_from: number | null }>(
        'SELECT pending_from FROM history_backfill WHERE id = 1',
      );
      return row ? row.pending_from : null;
    },

    /** Moves the pending mark up to `fromStepId` (null: nothing is pending any more). */
    async setPendingFrom(fromStepId: number | null): Promise<void> {
      await db.run('UPDATE history_backfill SET pending_from = ? WHERE id = 1', [fromStepId]);
      await dropSpentMarks();
    },

    /**
     * Steps with ids from `fromId` on that have no search document, oldest first: at most `limit`, and past the
     * first, at most `maxBytes` of their JSON. `rest`: false when these are all.
     */
    async unindexedSteps(
      fromId: number,
      limit: number,
      maxBytes: number,
    ): Promise<{ steps: StepToIndex[]; rest: boolean }> {
      const rows = await db.all<StepToIndexRow>(
        `SELECT st.id, st.task_id, t.session_id, st.seq, st.tool, st.params, st.result, st.status, st.created_at,
                octet_length(st.params) + octet_length(st.result) AS bytes
         FROM steps st JOIN tasks t ON t.id = st.task_id
         WHERE st.id >= ?
           AND NOT EXISTS (SELECT 1 FROM history_docs h
                           WHERE h.source = 'step' AND h.source_id = st.id AND (h.kind = '' OR h.step_id = st.id))
         ORDER BY st.id LIMIT ?`,
        [fromId, limit],
      );
      const out: StepToIndex[] = [];
      let bytes = 0;
      for (const row of rows) {
        if (out.length > 0 && bytes + row.bytes > maxBytes) return { steps: out, rest: true };
        bytes += row.bytes;
        out.push(toStepToIndex(row));
      }
      return { steps: out, rest: rows.length === limit };
    },

    /**
     * What the history index still has to catch up on in a database from before steps were indexed when
     * recorded (migration 8): its steps up to `stepsUpto`, and its step documents up to `docsUpto` whose step is
     * gone (indexed as cut JSON text, never to be rebuilt from the step). Null when there is nothing.
     */
    async backfillMark(): Promise<{ stepsUpto: number; docsUpto: number } | null> {
      const row = await db.get<{ steps_upto: number; docs_upto: number }>(
        'SELECT steps_upto, docs_upto FROM history_backfill WHERE id = 1 AND (steps_upto > 0 OR docs_upto > 0)',
      );
      return row ? { stepsUpto: row.steps_upto, docsUpto: row.docs_upto } : null;
    },

    /** Moves the backfill on; when both marks reach 0, the backfill is done (and the row goes, pending aside). */
    async setBackfillMark(mark: { stepsUpto: number; docsUpto: number }): Promise<void> {
      await db.run('UPDATE history_backfill SET steps_upto = ?, docs_upto = ? WHERE id = 1', [
        Math.max(0, mark.stepsUpto),
        Math.max(0, mark.docsUpto),
      ]);
      await dropSpentMarks();
    },

    /**
     * Removes the search documents of a task's steps (and their index entries, by trigger): called by cleanup in
     * the task's transaction, before the steps go — a step's document has its step's lifetime. Returns how many.
     */
    async removeTaskStepDocs(taskId: TaskId): Promise<number> {
      // Two statements, each on its index (an OR of the two would scan every step document): the bare documents
      // of the task's steps, and any an older build left with the task's id on them.
      const bare = await db.run(
        `DELETE FROM history_docs WHERE source = 'step' AND source_id IN (SELECT id FROM steps WHERE task_id = ?)`,
        [taskId],
      );
      const linked = await db.run(`DELETE FROM history_docs WHERE task_id = ? AND source = 'step'`, [taskId]);
      return bare.changes + linked.changes;
    },

    /**
     * Removes the search documents of a session's steps: called when the session is deleted (its tasks stay, as
     * orphans cleanup removes later; a bare document has no session to cascade from).
     */
    async removeSessionStepDocs(sessionId: SessionId): Promise<number> {
      const { changes } = await db.run(
        `DELETE FROM history_docs WHERE source = 'step' AND source_id IN
           (SELECT st.id FROM tasks t JOIN steps st ON st.task_id = t.id WHERE t.session_id = ?)`,
        [sessionId],
      );
      return changes;
    },

    /**
     * Removes up to `limit` step documents with ids up to `uptoId` whose step was removed (left by a build that
     * kept them), newest first; returns the lowest id removed, or null when there was none.
     */
    async removeOrphanStepDocs(uptoId: number, limit: number): Promise<number | null> {
      const row = await db.get<{ lowest: number | null }>(
        `SELECT min(id) AS lowest FROM (SELECT id FROM history_docs
           WHERE source = 'step' AND step_id IS NULL AND kind <> '' AND id <= ? ORDER BY id DESC LIMIT ?)`,
        [uptoId, limit],
      );
      const lowest = row?.lowest ?? null;
      if (lowest === null) return null;
      await db.run(
        `DELETE FROM history_docs WHERE source = 'step' AND step_id IS NULL AND kind <> '' AND id >= ? AND id <= ?`,
        [lowest, uptoId],
      );
      return lowest;
    },

    /** Ranked hits: every term must match; when none do, any term may. */
    async search(
      query: FtsQuery,
      filter: SearchFilter,
    ): Promise<{ hits: HistoryHitRow[]; matched: 'all' | 'any' }> {
      const all = await runSearch(query.all, filter);
      if (all.length > 0 || query.terms.length === 1) return { hits: all, matched: 'all' };
      return { hits: await runSearch(query.any, filter), matched: 'any' };
    },

    /**
     * Logs a compression. Its budget (every event kept or dropped, with why: ~110 bytes an event) is written once
     * and never read back by the engine: stored packed when that is smaller (step-json.ts).
     */
    async addCompression(c: {
      sessionId: SessionId;
      summaryId: number;
      uptoEventId: number | null;
      checkpoint: string;
      budget: string;
      createdAt: number;
    }): Promise<number> {
      const { lastInsertRowid } = await db.run(
        'INSERT INTO compressions (session_id, summary_id, upto_event_id, checkpoint, budget, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        [c.sessionId, c.summaryId, c.uptoEventId, c.checkpoint, packJson(c.budget), c.createdAt],
      );
      return lastInsertRowid;
    },

    /** The latest compression of a session with its summary text (null when there was none). */
    async lastCompression(
      sessionId: SessionId,
    ): Promise<{ id: number; summary: string | null; uptoEventId: number | null; createdAt: number } | null> {
      const row = await db.get<{
        id: number;
        summary: string | null;
        upto_event_id: number | null;
        created_at: number;
      }>(
        `SELECT c.id, s.content AS summary, c.upto_event_id, c.created_at
         FROM compressions c LEFT JOIN summaries s ON s.id = c.summary_id
         WHERE c.session_id = ? ORDER BY c.id DESC LIMIT 1`,
        [sessionId],
      );
      return row
        ? { id: row.id, summary: row.summary, uptoEventId: row.upto_event_id, createdAt: row.created_at }
        : null;
    },

    async count(sessionId?: SessionId): Promise<number> {
      const row =
        sessionId === undefined
          ? await db.get<{ n: number }>('SELECT count(*) AS n FROM history_docs')
          : await db.get<{ n: number }>(`SELECT count(*) AS n FROM (${DOC_LINKS}) WHERE session_id = ?`, [
              sessionId,
            ]);
      return row?.n ?? 0;
    },
  };
}

export type HistoryRepo = ReturnType<typeof createHistoryRepo>;
