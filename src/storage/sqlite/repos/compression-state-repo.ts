import { asEventId, type EventId, type SessionId } from '../../../core/ids';
import type { SqlDriver } from '../driver';

export interface CompressionState {
  /** The compression fold's state (JSON, src/core/compression/fold-json.ts). */
  readonly fold: string;
  /** The last event folded into it; every later event of the session is still to be folded. */
  readonly foldUptoEventId: EventId | null;
  /** The session's steps and summaries up to these ids are in the history index. */
  readonly stepsIndexedUpto: number;
  readonly summariesIndexedUpto: number;
}

interface StateRow {
  fold: string;
  fold_upto_event_id: number | null;
  steps_indexed_upto: number;
  summaries_indexed_upto: number;
}

/** What the next compression of a session resumes from (migration 7): one row per session. */
export function createCompressionStateRepo(db: SqlDriver) {
  return {
    async get(sessionId: SessionId): Promise<CompressionState | null> {
      const row = await db.get<StateRow>(
        'SELECT fold, fold_upto_event_id, steps_indexed_upto, summaries_indexed_upto FROM compression_state WHERE session_id = ?',
        [sessionId],
      );
      if (!row) return null;
      return {
        fold: row.fold,
        foldUptoEventId: row.fold_upto_event_id === null ? null : asEventId(row.fold_upto_event_id),
        stepsIndexedUpto: row.steps_indexed_upto,
        summariesIndexedUpto: row.summaries_indexed_upto,
      };
    },

    /** Saves the fold; the index marks are kept unless given. */
    async save(
      sessionId: SessionId,
      state: Pick<CompressionState, 'fold' | 'foldUptoEventId'> & Partial<CompressionState>,
      now: number,
    ): Promise<void> {
      await db.run(
        `INSERT INTO compression_state (session_id, fold, fold_upto_event_id, steps_indexed_upto, summaries_indexed_upto, updated_at)
         VALUES (?1, ?2, ?3, coalesce(?4, 0), coalesce(?5, 0), ?6)
         ON CONFLICT (session_id) DO UPDATE SET fold = ?2, fold_upto_event_id = ?3,
           steps_indexed_upto = coalesce(?4, steps_indexed_upto),
           summaries_indexed_upto = coalesce(?5, summaries_indexed_upto), updated_at = ?6`,
        [
          sessionId,
          state.fold,
          state.foldUptoEventId,
          state.stepsIndexedUpto ?? null,
          state.summariesIndexedUpto ?? null,
          now,
        ],
      );
    },

    /** The newest step and summary ids of the whole database (0 when there are none): the next index marks. */
    async newestIds(): Promise<{ step: number; summary: number }> {
      const row = await db.get<{ step: number; summary: number }>(
        'SELECT (SELECT coalesce(max(id), 0) FROM steps) AS step, (SELECT coalesce(max(id), 0) FROM summaries) AS summary',
      );
      return { step: row?.step ?? 0, summary: row?.summary ?? 0 };
    },
  };
}

export type CompressionStateRepo = ReturnType<typeof createCompressionStateRepo>;
