import type { FtsQuery } from '../../core/events/search';
import {
  asCheckpointEntryId,
  asSessionId,
  asStepId,
  asTaskId,
  type SessionId,
  type TaskId,
} from '../../core/ids';
import type { CheckpointEntryId, StepId } from '../../core/ids';
import type { SqlDriver } from './driver';

export type HistorySource = 'event' | 'summary' | 'step';

/** One searchable document: a copy of a source row's text with the links a hit needs. */
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

export interface SearchFilter {
  readonly sessionId?: SessionId;
  readonly kinds?: readonly string[];
  readonly limit: number;
}

const STEP_TEXT_CHARS = 4_000;
const SUMMARY_TEXT_CHARS = 20_000;
/** How many of the newest matches bm25 ranks (see runSearch). */
export const RANK_WINDOW = 1_000;

/** The history search index (FTS5 over copies of event, summary and step text) and the compression log. */
export function createHistoryRepo(db: SqlDriver) {
  /**
   * Indexes documents with one statement. FTS5 writes its pending terms to a new segment at the end of every
   * statement that changes it (a statement savepoint), so a row-by-row insert of a batch would write one tiny
   * segment per row and keep merging them — slow on OPFS. One statement per batch writes one segment.
   */
  async function insertDocs(docs: readonly HistoryDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await db.run(
      `INSERT OR IGNORE INTO history_docs (source, source_id, session_id, task_id, step_id, plan_step_id, kind, path,
         checkpoint_entry_id, title, body, created_at)
       SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7,
              value ->> 8, value ->> 9, value ->> 10, value ->> 11
       FROM json_each(?)`,
      [
        JSON.stringify(
          docs.map((d) => [
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
          ]),
        ),
      ],
    );
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
       FROM history_fts ${filtered ? 'JOIN history_docs d ON d.id = history_fts.rowid' : ''}
       WHERE ${where.join(' AND ')}
       ORDER BY score, history_fts.rowid DESC
       LIMIT ?`,
      params,
    );
    if (cutoff && ranked.length < filter.limit && filtered) return runSearch(match, filter, window * 4);
    if (ranked.length === 0) return [];
    const rows = await db.all<Omit<HitRow, 'score'>>(
      `SELECT d.id, d.source, d.source_id, d.session_id, d.task_id, d.step_id, d.plan_step_id, d.kind, d.path,
              d.checkpoint_entry_id, d.title, d.created_at, snippet(history_fts, 1, '[', ']', '…', 16) AS snippet
       FROM history_fts JOIN history_docs d ON d.id = history_fts.rowid
       WHERE history_fts MATCH ? AND history_fts.rowid IN (SELECT value FROM json_each(?))`,
      [match, JSON.stringify(ranked.map((r) => r.id))],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ranked.flatMap(({ id, score }) => {
      const row = byId.get(id);
      return row ? [toHit({ ...row, score })] : [];
    });
  }

  return {
    insertDocs,

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
     * Indexes the results of the session's recorded tool steps not indexed yet (text bounded per step). With
     * `afterId` (the session's steps up to it are indexed already) only the steps recorded since are read — a
     * range of the steps table — instead of every step of every task of the session.
     */
    async indexPendingSteps(sessionId: SessionId, afterId = 0): Promise<number> {
      // CROSS JOIN keeps steps as the outer loop: the id range, not the session's tasks, bounds the work.
      const { changes } = await db.run(
        `INSERT INTO history_docs (source, source_id, session_id, task_id, step_id, kind, title, body, created_at)
         SELECT 'step', st.id, t.session_id, st.task_id, st.id, 'step', 'Step ' || st.seq || ': ' || st.tool || ' (' || st.status || ')',
                substr(st.params, 1, ?) || char(10) || substr(st.result, 1, ?), st.created_at
         FROM ${afterId > 0 ? 'steps st CROSS JOIN tasks t' : 'steps st JOIN tasks t'} ON t.id = st.task_id
         WHERE t.session_id = ? AND st.id > ?
           AND NOT EXISTS (SELECT 1 FROM history_docs h WHERE h.source = 'step' AND h.source_id = st.id)`,
        [STEP_TEXT_CHARS / 4, STEP_TEXT_CHARS, sessionId, afterId],
      );
      return changes;
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
        [c.sessionId, c.summaryId, c.uptoEventId, c.checkpoint, c.budget, c.createdAt],
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
          : await db.get<{ n: number }>('SELECT count(*) AS n FROM history_docs WHERE session_id = ?', [
              sessionId,
            ]);
      return row?.n ?? 0;
    },
  };
}

export type HistoryRepo = ReturnType<typeof createHistoryRepo>;
