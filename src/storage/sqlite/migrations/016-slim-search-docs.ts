/**
 * A step's or an event's search document is a bare link to its row (issue 32: history stored once).
 *
 * Since migration 15 such a document keeps no text (the row holds it), but it still kept a copy of its row's
 * links — session, task, step, plan step, kind, path, checkpoint entry, time — and four indexes over them: on a
 * Codex rollout (a tool call per 2 KB: a step and a validation event, two documents) that was ~10 % of agent.db
 * for no information. From now on such a document is `(source, source_id)` and an empty `kind` ('' marks it);
 * the repository reads its links from the event or step (history-repo.ts, DOC_LINKS). Summaries' documents, and
 * those of removed steps an older build kept with their text, keep theirs.
 *
 * - The three link indexes become partial (`IS NOT NULL`): a bare document is in none of them. A foreign key's
 *   action (a session's cascade, a task's or step's SET NULL) still finds the documents that have the link.
 * - `events_by_ref` becomes partial too: only answers, resolutions and superseding decisions refer to an event,
 *   and every other event (a tool call's validation event among them) had its NULL in it.
 * - A bare document has no session to cascade from: it goes with its row, by the two triggers below (a session's
 *   cascade deletes its events and, through its tasks, its steps; cleanup deletes a task's steps).
 * - The documents stored until now are made bare here (a light table: its pages, not the steps'), and a textless
 *   document whose row is gone — none should be — is removed with its index entries.
 */
export default `
DELETE FROM history_docs WHERE title = '' AND body = ''
  AND ((source = 'step' AND NOT EXISTS (SELECT 1 FROM steps s WHERE s.id = history_docs.source_id))
    OR (source = 'event' AND NOT EXISTS (SELECT 1 FROM events e WHERE e.id = history_docs.source_id)));
UPDATE history_docs SET session_id = NULL, task_id = NULL, step_id = NULL, plan_step_id = NULL, kind = '',
  path = NULL, checkpoint_entry_id = NULL, created_at = 0
  WHERE title = '' AND body = '' AND source IN ('step', 'event');
DROP INDEX history_docs_by_session;
DROP INDEX history_docs_by_task;
DROP INDEX history_docs_by_step;
CREATE INDEX history_docs_by_session ON history_docs(session_id) WHERE session_id IS NOT NULL;
CREATE INDEX history_docs_by_task ON history_docs(task_id) WHERE task_id IS NOT NULL;
CREATE INDEX history_docs_by_step ON history_docs(step_id) WHERE step_id IS NOT NULL;
DROP INDEX events_by_ref;
CREATE INDEX events_by_ref ON events(ref_event_id) WHERE ref_event_id IS NOT NULL;
CREATE TRIGGER events_ad_doc AFTER DELETE ON events BEGIN
  DELETE FROM history_docs WHERE source = 'event' AND source_id = old.id;
END;
CREATE TRIGGER steps_ad_doc AFTER DELETE ON steps BEGIN
  DELETE FROM history_docs WHERE source = 'step' AND source_id = old.id;
END;
`;
