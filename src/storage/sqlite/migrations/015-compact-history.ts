/**
 * History stored compactly, once.
 *
 * - `history_fts` becomes a contentless FTS5 index (`content = ''`, `contentless_delete = 1`, SQLite ≥ 3.43): it
 *   keeps its terms and no copy of any text, and a document's entries are deleted by rowid alone. It is rebuilt
 *   from the documents as they are (the same terms, the same ranking), then a tool step's document drops its
 *   text: the step holds it (its params and result), and the few callers that need the text again — a hit's
 *   snippet — make it from the step (history-repo.ts). Events and summaries keep their documents' text.
 *   Until now every step's text was stored twice: in `steps` and again in `history_docs.body` (up to 48 KiB).
 * - `deletemerge` 1 (FTS5's default is 10): a segment with 1 % of its rows deleted is merged by the index's own
 *   automatic merges, a little at each write. Cleanup deletes a task's step documents every task; with the default,
 *   their entries stayed until a merge of their level met them, and the free pages those transient merges leave
 *   raised the file task after task (test/unit/cleanup-lifetime.test.ts: 282 → 493 pages over 100 tasks, now
 *   282 → 344 as the light rows grow).
 * - Triggers: an event's or summary's document is indexed when inserted; a step's is indexed by the repository
 *   (its text is not in the row); any document's entries go when it is deleted (cleanup, a session's cascade);
 *   an update of a document's title or body indexes what it then stores.
 * - `steps.params` / `steps.result` may from now on be BLOBs: the JSON text packed with zlib when that is smaller
 *   (repos/step-json.ts), for every step written from now on. The steps already stored stay JSON text (they read
 *   as they did, and go with their tasks at cleanup): packing them here would rewrite every heavy page of an old
 *   brain in the transaction of its first open.
 */
export default `
DROP TRIGGER history_docs_ai;
DROP TRIGGER history_docs_ad;
DROP TRIGGER history_docs_au;
DROP TABLE history_fts;
CREATE VIRTUAL TABLE history_fts USING fts5(
  title, body, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO history_fts (history_fts, rank) VALUES ('deletemerge', 1);
INSERT INTO history_fts (rowid, title, body) SELECT id, title, body FROM history_docs;
UPDATE history_docs SET title = '', body = '' WHERE source = 'step' AND step_id IS NOT NULL;
CREATE TRIGGER history_docs_ai AFTER INSERT ON history_docs WHEN new.title <> '' OR new.body <> '' BEGIN
  INSERT INTO history_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER history_docs_ad AFTER DELETE ON history_docs BEGIN
  DELETE FROM history_fts WHERE rowid = old.id;
END;
CREATE TRIGGER history_docs_au AFTER UPDATE OF title, body ON history_docs BEGIN
  DELETE FROM history_fts WHERE rowid = old.id;
  INSERT INTO history_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
`;
