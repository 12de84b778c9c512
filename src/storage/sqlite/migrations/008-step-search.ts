/**
 * Tool steps searchable from the moment they are recorded, as decoded text.
 *
 * Until now a step reached the history index only at a compression, as the first 4,000 characters of its result
 * JSON (and 1,000 of its params): the words that begin a line of a command's output were glued to the `n` of
 * `\n`, and the end of a long output was never indexed. From this build on, `recordStep` indexes the step in its
 * own transaction (src/core/events/step-text.ts: string leaves decoded, head and tail of a long text).
 *
 * `history_backfill` (one row, only in a database that had steps or step documents): what the index still has to
 * catch up on — the steps with ids up to `steps_upto` (indexed again, or for the first time) and the step
 * documents with ids up to `docs_upto` whose step was removed (their stored text decoded in place). The first
 * search walks both down in pages, one transaction each, and deletes the row when done. A new database has no
 * row.
 */
export default `
CREATE TABLE history_backfill (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  steps_upto INTEGER NOT NULL,
  docs_upto INTEGER NOT NULL
);
INSERT INTO history_backfill (id, steps_upto, docs_upto)
  SELECT 1, (SELECT coalesce(max(id), 0) FROM steps),
    (SELECT coalesce(max(id), 0) FROM history_docs WHERE source = 'step' AND step_id IS NULL)
  WHERE EXISTS (SELECT 1 FROM steps) OR EXISTS (SELECT 1 FROM history_docs WHERE source = 'step');
`;
