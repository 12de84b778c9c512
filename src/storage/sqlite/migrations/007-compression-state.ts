/**
 * Compression state, one row per session: what the next compression resumes from instead of re-reading the log.
 *
 * - `fold`: the checkpoint extractor's state (JSON, src/core/compression/fold-json.ts) after every event up to
 *   `fold_upto_event_id`; the next compression folds only the events after it. Bounded: the state keeps what the
 *   checkpoint shows (latest per path, per check, decisions in force…, each list capped), not the log.
 * - `steps_indexed_upto` / `summaries_indexed_upto`: the session's tool steps and summaries up to these ids are
 *   in the history index, so a compression indexes only newer ones.
 *
 * A database from before this migration has no row: its first compression folds from the first event, once.
 */
export default `
CREATE TABLE compression_state (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  fold TEXT NOT NULL,
  fold_upto_event_id INTEGER,
  steps_indexed_upto INTEGER NOT NULL DEFAULT 0,
  summaries_indexed_upto INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
`;
