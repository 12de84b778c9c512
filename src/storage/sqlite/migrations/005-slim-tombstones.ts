/**
 * Slim tombstones for removed checkpoint entries, and counters for the light data the audit did not count.
 *
 * Until now cleanup kept every removed checkpoint entry as a row of its own (path, sizes, when, why: ~100 bytes
 * with its index entries), so a database that cleans one task after another grew by ~2 KB a task of tombstones
 * alone. Now one `checkpoint_removals` row per task removal holds the when and why once, and the removed entries
 * packed column-wise as JSON: everything `listCheckpoints` shows for them (id, path, side kinds and sizes,
 * binary, time, step) at ~25 bytes an entry. A read of a removed entry still raises `CheckpointRemoved` with when,
 * why and which task (checkpoints-repo.ts decodes the record).
 *
 * - `last_entry_id` is the row id: entry ids of one removal are distinct from any other's, so its last id is
 *   unique. `first_entry_id` (indexed, the index covers last_entry_id) finds the removal of an entry id.
 * - `detail`: {"paths":[…], "id":[deltas, the first 0 = first_entry_id], "path":[index into paths],
 *   "kind":"<before><after> per entry: a absent, t text, b bytes, l too large", "before":[size|null],
 *   "after":[size|null], "binary":"0/1 per entry", "at":[created_at deltas, the first absolute],
 *   "step":[step id|null] or null when no entry had a step}.
 * - Entry ids are never reused: a new entry's id is above every removed one (checkpoints-repo.ts inserts it
 *   explicitly; the trigger below refuses any other).
 * - The existing tombstones (entries with removed_at set) are packed the same way, one record per task and
 *   removal (same when, same why), then deleted. removed_at/removed_reason stay as columns (a CHECK and a
 *   partial index use them) but are NULL from now on.
 * - cleanup_log loses reason_text: it is describeReason(reason), computed on read.
 * - light_counters: rows and UTF-8 bytes of session events, search documents (the text history_fts indexes; the
 *   FTS5 index itself is not counted) and removed-entry records, kept by triggers for audit(). Cleanup never
 *   deletes any of them: events and search documents go with their session.
 */
export default `
CREATE TABLE checkpoint_removals (
  last_entry_id INTEGER PRIMARY KEY,
  first_entry_id INTEGER NOT NULL,
  task_id INTEGER NOT NULL,
  entries INTEGER NOT NULL CHECK (entries > 0),
  at INTEGER NOT NULL,
  reason TEXT NOT NULL,
  detail TEXT NOT NULL,
  CHECK (first_entry_id <= last_entry_id)
);
CREATE INDEX checkpoint_removals_by_task ON checkpoint_removals(task_id);
CREATE INDEX checkpoint_removals_by_first ON checkpoint_removals(first_entry_id);

WITH e AS (
  SELECT id, task_id, step_id, path, before_kind, before_size, after_kind, after_size, binary, created_at,
    removed_at, removed_reason,
    id - lag(id, 1, id) OVER w AS d_id,
    created_at - lag(created_at, 1, 0) OVER w AS d_at,
    min(id) OVER (PARTITION BY task_id, removed_at, removed_reason, path) AS path_first
  FROM checkpoint_entries WHERE removed_at IS NOT NULL
  WINDOW w AS (PARTITION BY task_id, removed_at, removed_reason ORDER BY id)
),
r AS (
  SELECT *, dense_rank() OVER (PARTITION BY task_id, removed_at, removed_reason ORDER BY path_first) - 1 AS p FROM e
)
INSERT INTO checkpoint_removals (last_entry_id, first_entry_id, task_id, entries, at, reason, detail)
SELECT max(id), min(id), task_id, count(*), removed_at, removed_reason, json_object(
    'paths', json_group_array(path ORDER BY id) FILTER (WHERE id = path_first),
    'id', json_group_array(d_id ORDER BY id),
    'path', json_group_array(p ORDER BY id),
    'kind', group_concat(
      CASE before_kind WHEN 'absent' THEN 'a' WHEN 'text' THEN 't' WHEN 'bytes' THEN 'b' ELSE 'l' END ||
      CASE after_kind WHEN 'absent' THEN 'a' WHEN 'text' THEN 't' WHEN 'bytes' THEN 'b' ELSE 'l' END, '' ORDER BY id),
    'before', json_group_array(before_size ORDER BY id),
    'after', json_group_array(after_size ORDER BY id),
    'binary', group_concat(binary, '' ORDER BY id),
    'at', json_group_array(d_at ORDER BY id),
    'step', json(CASE WHEN count(step_id) > 0 THEN json_group_array(step_id ORDER BY id) END))
FROM r GROUP BY task_id, removed_at, removed_reason;

DELETE FROM checkpoint_entries WHERE removed_at IS NOT NULL;

CREATE TRIGGER checkpoint_entries_fresh_id AFTER INSERT ON checkpoint_entries
  WHEN NEW.id <= (SELECT max(last_entry_id) FROM checkpoint_removals)
BEGIN
  SELECT RAISE(ABORT, 'A checkpoint entry may not reuse the id of a removed entry.');
END;

ALTER TABLE cleanup_log DROP COLUMN reason_text;

CREATE TABLE light_counters (
  kind TEXT PRIMARY KEY CHECK (kind IN ('events', 'search_docs', 'removed_entries')),
  rows INTEGER NOT NULL,
  bytes INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO light_counters (kind, rows, bytes)
  SELECT 'events', count(*), coalesce(sum(octet_length(text) + octet_length(data) + coalesce(octet_length(path), 0)), 0) FROM events;
INSERT INTO light_counters (kind, rows, bytes)
  SELECT 'search_docs', count(*), coalesce(sum(octet_length(title) + octet_length(body) + coalesce(octet_length(path), 0)), 0) FROM history_docs;
INSERT INTO light_counters (kind, rows, bytes)
  SELECT 'removed_entries', coalesce(sum(entries), 0), coalesce(sum(octet_length(reason) + octet_length(detail)), 0) FROM checkpoint_removals;

CREATE TRIGGER events_count_insert AFTER INSERT ON events BEGIN
  UPDATE light_counters SET rows = rows + 1,
    bytes = bytes + octet_length(NEW.text) + octet_length(NEW.data) + coalesce(octet_length(NEW.path), 0)
    WHERE kind = 'events';
END;
CREATE TRIGGER events_count_delete AFTER DELETE ON events BEGIN
  UPDATE light_counters SET rows = rows - 1,
    bytes = bytes - octet_length(OLD.text) - octet_length(OLD.data) - coalesce(octet_length(OLD.path), 0)
    WHERE kind = 'events';
END;
CREATE TRIGGER events_count_update AFTER UPDATE OF text, data, path ON events BEGIN
  UPDATE light_counters SET
    bytes = bytes - octet_length(OLD.text) - octet_length(OLD.data) - coalesce(octet_length(OLD.path), 0)
      + octet_length(NEW.text) + octet_length(NEW.data) + coalesce(octet_length(NEW.path), 0)
    WHERE kind = 'events';
END;
CREATE TRIGGER history_docs_count_insert AFTER INSERT ON history_docs BEGIN
  UPDATE light_counters SET rows = rows + 1,
    bytes = bytes + octet_length(NEW.title) + octet_length(NEW.body) + coalesce(octet_length(NEW.path), 0)
    WHERE kind = 'search_docs';
END;
CREATE TRIGGER history_docs_count_delete AFTER DELETE ON history_docs BEGIN
  UPDATE light_counters SET rows = rows - 1,
    bytes = bytes - octet_length(OLD.title) - octet_length(OLD.body) - coalesce(octet_length(OLD.path), 0)
    WHERE kind = 'search_docs';
END;
CREATE TRIGGER history_docs_count_update AFTER UPDATE OF title, body, path ON history_docs BEGIN
  UPDATE light_counters SET
    bytes = bytes - octet_length(OLD.title) - octet_length(OLD.body) - coalesce(octet_length(OLD.path), 0)
      + octet_length(NEW.title) + octet_length(NEW.body) + coalesce(octet_length(NEW.path), 0)
    WHERE kind = 'search_docs';
END;
CREATE TRIGGER checkpoint_removals_count_insert AFTER INSERT ON checkpoint_removals BEGIN
  UPDATE light_counters SET rows = rows + NEW.entries, bytes = bytes + octet_length(NEW.reason) + octet_length(NEW.detail)
    WHERE kind = 'removed_entries';
END;
CREATE TRIGGER checkpoint_removals_count_delete AFTER DELETE ON checkpoint_removals BEGIN
  UPDATE light_counters SET rows = rows - OLD.entries, bytes = bytes - octet_length(OLD.reason) - octet_length(OLD.detail)
    WHERE kind = 'removed_entries';
END;
`;
