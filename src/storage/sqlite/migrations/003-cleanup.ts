/**
 * Lifecycle cleanup: a log of what cleanup removed, and counters that let `audit()` and `planCleanup()` answer
 * without reading content or scanning every checkpoint entry. The counters are kept by triggers, so they change in
 * the same transaction as the rows they count, whoever writes them:
 * - byte_counters: rows and UTF-8 bytes of steps, messages and summaries per task;
 * - checkpoint_task_bodies / checkpoint_task_bytes: per task, the distinct bodies its live entries use, their stored
 *   and raw bytes, and the stored bytes of those no other task uses (what removing its checkpoints frees);
 * - checkpoint_totals: bodies, stored and raw bytes, live entries of the whole store.
 * The checkpoint triggers watch the checkpoint store's tables (migration 2): entries' body ids and removal, bodies'
 * sizes. test/unit/cleanup-counters.test.ts checks them against the store's own exact (slow) aggregates.
 */
export default `
-- One record per task cleanup. No foreign key: the record outlives anything that happens to the task row later.
CREATE TABLE cleanup_log (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL,
  at INTEGER NOT NULL,
  -- The retention reason as JSON data ({"kind":"superseded"}, {"kind":"orphan","state":"running"}, …) and in words.
  reason TEXT NOT NULL,
  reason_text TEXT NOT NULL,
  steps_removed INTEGER NOT NULL,
  step_bytes_removed INTEGER NOT NULL,
  checkpoint_entries_removed INTEGER NOT NULL,
  bodies_removed INTEGER NOT NULL,
  stored_bytes_removed INTEGER NOT NULL,
  raw_bytes_removed INTEGER NOT NULL
);
CREATE INDEX cleanup_log_by_task ON cleanup_log(task_id, id);

-- Rows and bytes (UTF-8 octets of the text columns) per kind and task; task_id 0 = rows of no task.
CREATE TABLE byte_counters (
  kind TEXT NOT NULL CHECK (kind IN ('steps', 'messages', 'summaries')),
  task_id INTEGER NOT NULL,
  rows INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  PRIMARY KEY (kind, task_id)
) WITHOUT ROWID;

INSERT INTO byte_counters (kind, task_id, rows, bytes)
  SELECT 'steps', task_id, count(*), sum(octet_length(tool) + octet_length(params) + octet_length(result)) FROM steps GROUP BY task_id;
INSERT INTO byte_counters (kind, task_id, rows, bytes)
  SELECT 'messages', coalesce(task_id, 0), count(*), sum(octet_length(content)) FROM messages GROUP BY coalesce(task_id, 0);
INSERT INTO byte_counters (kind, task_id, rows, bytes)
  SELECT 'summaries', coalesce(task_id, 0), count(*), sum(octet_length(kind) + octet_length(content)) FROM summaries GROUP BY coalesce(task_id, 0);

CREATE TRIGGER steps_count_insert AFTER INSERT ON steps BEGIN
  INSERT INTO byte_counters (kind, task_id, rows, bytes)
    VALUES ('steps', NEW.task_id, 1, octet_length(NEW.tool) + octet_length(NEW.params) + octet_length(NEW.result))
    ON CONFLICT (kind, task_id) DO UPDATE SET rows = rows + 1, bytes = bytes + excluded.bytes;
END;
CREATE TRIGGER steps_count_delete AFTER DELETE ON steps BEGIN
  UPDATE byte_counters SET rows = rows - 1, bytes = bytes - (octet_length(OLD.tool) + octet_length(OLD.params) + octet_length(OLD.result))
    WHERE kind = 'steps' AND task_id = OLD.task_id;
END;
CREATE TRIGGER steps_count_update AFTER UPDATE OF task_id, tool, params, result ON steps BEGIN
  UPDATE byte_counters SET rows = rows - 1, bytes = bytes - (octet_length(OLD.tool) + octet_length(OLD.params) + octet_length(OLD.result))
    WHERE kind = 'steps' AND task_id = OLD.task_id;
  INSERT INTO byte_counters (kind, task_id, rows, bytes)
    VALUES ('steps', NEW.task_id, 1, octet_length(NEW.tool) + octet_length(NEW.params) + octet_length(NEW.result))
    ON CONFLICT (kind, task_id) DO UPDATE SET rows = rows + 1, bytes = bytes + excluded.bytes;
END;

CREATE TRIGGER messages_count_insert AFTER INSERT ON messages BEGIN
  INSERT INTO byte_counters (kind, task_id, rows, bytes)
    VALUES ('messages', coalesce(NEW.task_id, 0), 1, octet_length(NEW.content))
    ON CONFLICT (kind, task_id) DO UPDATE SET rows = rows + 1, bytes = bytes + excluded.bytes;
END;
CREATE TRIGGER messages_count_delete AFTER DELETE ON messages BEGIN
  UPDATE byte_counters SET rows = rows - 1, bytes = bytes - octet_length(OLD.content)
    WHERE kind = 'messages' AND task_id = coalesce(OLD.task_id, 0);
END;
CREATE TRIGGER messages_count_update AFTER UPDATE OF task_id, content ON messages BEGIN
  UPDATE byte_counters SET rows = rows - 1, bytes = bytes - octet_length(OLD.content)
    WHERE kind = 'messages' AND task_id = coalesce(OLD.task_id, 0);
  INSERT INTO byte_counters (kind, task_id, rows, bytes)
    VALUES ('messages', coalesce(NEW.task_id, 0), 1, octet_length(NEW.content))
    ON CONFLICT (kind, task_id) DO UPDATE SET rows = rows + 1, bytes = bytes + excluded.bytes;
END;

CREATE TRIGGER summaries_count_insert AFTER INSERT ON summaries BEGIN
  INSERT INTO byte_counters (kind, task_id, rows, bytes)
    VALUES ('summaries', coalesce(NEW.task_id, 0), 1, octet_length(NEW.kind) + octet_length(NEW.content))
    ON CONFLICT (kind, task_id) DO UPDATE SET rows = rows + 1, bytes = bytes + excluded.bytes;
END;
CREATE TRIGGER summaries_count_delete AFTER DELETE ON summaries BEGIN
  UPDATE byte_counters SET rows = rows - 1, bytes = bytes - (octet_length(OLD.kind) + octet_length(OLD.content))
    WHERE kind = 'summaries' AND task_id = coalesce(OLD.task_id, 0);
END;
CREATE TRIGGER summaries_count_update AFTER UPDATE OF task_id, kind, content ON summaries BEGIN
  UPDATE byte_counters SET rows = rows - 1, bytes = bytes - (octet_length(OLD.kind) + octet_length(OLD.content))
    WHERE kind = 'summaries' AND task_id = coalesce(OLD.task_id, 0);
  INSERT INTO byte_counters (kind, task_id, rows, bytes)
    VALUES ('summaries', coalesce(NEW.task_id, 0), 1, octet_length(NEW.kind) + octet_length(NEW.content))
    ON CONFLICT (kind, task_id) DO UPDATE SET rows = rows + 1, bytes = bytes + excluded.bytes;
END;

-- Checkpoint counters. Backfilled from existing rows before the triggers exist.
CREATE TABLE checkpoint_task_bodies (
  task_id INTEGER NOT NULL,
  body_id INTEGER NOT NULL,
  -- Live entry sides of the task that use the body.
  uses INTEGER NOT NULL,
  PRIMARY KEY (task_id, body_id)
) WITHOUT ROWID;
CREATE INDEX checkpoint_task_bodies_by_body ON checkpoint_task_bodies(body_id, task_id);

CREATE TABLE checkpoint_task_bytes (
  task_id INTEGER PRIMARY KEY,
  entries INTEGER NOT NULL DEFAULT 0,
  bodies INTEGER NOT NULL DEFAULT 0,
  stored_bytes INTEGER NOT NULL DEFAULT 0,
  raw_bytes INTEGER NOT NULL DEFAULT 0,
  exclusive_stored_bytes INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE checkpoint_totals (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  bodies INTEGER NOT NULL,
  stored_bytes INTEGER NOT NULL,
  raw_bytes INTEGER NOT NULL,
  live_entries INTEGER NOT NULL
);

INSERT INTO checkpoint_totals (id, bodies, stored_bytes, raw_bytes, live_entries)
  SELECT 1, count(*), coalesce(sum(stored_size), 0), coalesce(sum(raw_size), 0),
    (SELECT count(*) FROM checkpoint_entries WHERE removed_at IS NULL)
  FROM checkpoint_bodies;
INSERT INTO checkpoint_task_bodies (task_id, body_id, uses)
  SELECT task_id, body_id, count(*) FROM (
    SELECT task_id, before_body_id AS body_id FROM checkpoint_entries WHERE before_body_id IS NOT NULL
    UNION ALL
    SELECT task_id, after_body_id FROM checkpoint_entries WHERE after_body_id IS NOT NULL
  ) GROUP BY task_id, body_id;
INSERT INTO checkpoint_task_bytes (task_id, entries)
  SELECT task_id, sum(removed_at IS NULL) FROM checkpoint_entries GROUP BY task_id;
UPDATE checkpoint_task_bytes SET
  bodies = (SELECT count(*) FROM checkpoint_task_bodies u WHERE u.task_id = checkpoint_task_bytes.task_id),
  stored_bytes = (SELECT coalesce(sum(b.stored_size), 0) FROM checkpoint_task_bodies u JOIN checkpoint_bodies b ON b.id = u.body_id
    WHERE u.task_id = checkpoint_task_bytes.task_id),
  raw_bytes = (SELECT coalesce(sum(b.raw_size), 0) FROM checkpoint_task_bodies u JOIN checkpoint_bodies b ON b.id = u.body_id
    WHERE u.task_id = checkpoint_task_bytes.task_id),
  exclusive_stored_bytes = (SELECT coalesce(sum(b.stored_size), 0) FROM checkpoint_task_bodies u JOIN checkpoint_bodies b ON b.id = u.body_id
    WHERE u.task_id = checkpoint_task_bytes.task_id
      AND (SELECT count(*) FROM checkpoint_task_bodies o WHERE o.body_id = u.body_id) = 1);

-- Entries: live count per task, and the (task, body) uses of their sides.
CREATE TRIGGER checkpoint_count_entry_insert AFTER INSERT ON checkpoint_entries BEGIN
  INSERT INTO checkpoint_task_bytes (task_id) VALUES (NEW.task_id) ON CONFLICT (task_id) DO NOTHING;
  UPDATE checkpoint_task_bytes SET entries = entries + (NEW.removed_at IS NULL) WHERE task_id = NEW.task_id;
  UPDATE checkpoint_totals SET live_entries = live_entries + (NEW.removed_at IS NULL) WHERE id = 1;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.before_body_id, 1 WHERE NEW.before_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.after_body_id, 1 WHERE NEW.after_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
END;
CREATE TRIGGER checkpoint_count_entry_update AFTER UPDATE OF task_id, before_body_id, after_body_id, removed_at ON checkpoint_entries BEGIN
  UPDATE checkpoint_task_bytes SET entries = entries - (OLD.removed_at IS NULL) WHERE task_id = OLD.task_id;
  INSERT INTO checkpoint_task_bytes (task_id) VALUES (NEW.task_id) ON CONFLICT (task_id) DO NOTHING;
  UPDATE checkpoint_task_bytes SET entries = entries + (NEW.removed_at IS NULL) WHERE task_id = NEW.task_id;
  UPDATE checkpoint_totals SET live_entries = live_entries - (OLD.removed_at IS NULL) + (NEW.removed_at IS NULL) WHERE id = 1;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.before_body_id;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.after_body_id;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.before_body_id, 1 WHERE NEW.before_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.after_body_id, 1 WHERE NEW.after_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
END;
CREATE TRIGGER checkpoint_count_entry_delete AFTER DELETE ON checkpoint_entries BEGIN
  UPDATE checkpoint_task_bytes SET entries = entries - (OLD.removed_at IS NULL) WHERE task_id = OLD.task_id;
  UPDATE checkpoint_totals SET live_entries = live_entries - (OLD.removed_at IS NULL) WHERE id = 1;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.before_body_id;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.after_body_id;
END;

-- A (task, body) pair appears: the task gains the body's bytes; the body is exclusive to it if no other task
-- uses it, and stops being exclusive to the one other task that did.
CREATE TRIGGER checkpoint_count_pair_insert AFTER INSERT ON checkpoint_task_bodies BEGIN
  UPDATE checkpoint_task_bytes SET
    bodies = bodies + 1,
    stored_bytes = stored_bytes + (SELECT stored_size FROM checkpoint_bodies WHERE id = NEW.body_id),
    raw_bytes = raw_bytes + (SELECT raw_size FROM checkpoint_bodies WHERE id = NEW.body_id),
    exclusive_stored_bytes = exclusive_stored_bytes + CASE
      WHEN (SELECT count(*) FROM checkpoint_task_bodies WHERE body_id = NEW.body_id) = 1
      THEN (SELECT stored_size FROM checkpoint_bodies WHERE id = NEW.body_id) ELSE 0 END
    WHERE task_id = NEW.task_id;
  UPDATE checkpoint_task_bytes SET exclusive_stored_bytes = exclusive_stored_bytes - (SELECT stored_size FROM checkpoint_bodies WHERE id = NEW.body_id)
    WHERE (SELECT count(*) FROM checkpoint_task_bodies WHERE body_id = NEW.body_id) = 2
      AND task_id = (SELECT task_id FROM checkpoint_task_bodies WHERE body_id = NEW.body_id AND task_id <> NEW.task_id);
END;
CREATE TRIGGER checkpoint_count_pair_unused AFTER UPDATE OF uses ON checkpoint_task_bodies WHEN NEW.uses <= 0 BEGIN
  DELETE FROM checkpoint_task_bodies WHERE task_id = NEW.task_id AND body_id = NEW.body_id;
END;
-- The pair goes: the task loses the body's bytes; a body left to one task becomes exclusive to it.
CREATE TRIGGER checkpoint_count_pair_delete AFTER DELETE ON checkpoint_task_bodies BEGIN
  UPDATE checkpoint_task_bytes SET
    bodies = bodies - 1,
    stored_bytes = stored_bytes - (SELECT stored_size FROM checkpoint_bodies WHERE id = OLD.body_id),
    raw_bytes = raw_bytes - (SELECT raw_size FROM checkpoint_bodies WHERE id = OLD.body_id),
    exclusive_stored_bytes = exclusive_stored_bytes - CASE
      WHEN (SELECT count(*) FROM checkpoint_task_bodies WHERE body_id = OLD.body_id) = 0
      THEN (SELECT stored_size FROM checkpoint_bodies WHERE id = OLD.body_id) ELSE 0 END
    WHERE task_id = OLD.task_id;
  UPDATE checkpoint_task_bytes SET exclusive_stored_bytes = exclusive_stored_bytes + (SELECT stored_size FROM checkpoint_bodies WHERE id = OLD.body_id)
    WHERE (SELECT count(*) FROM checkpoint_task_bodies WHERE body_id = OLD.body_id) = 1
      AND task_id = (SELECT task_id FROM checkpoint_task_bodies WHERE body_id = OLD.body_id);
END;

-- Bodies: store totals; a re-encoded body (a rebase when its delta base goes) changes its users' stored bytes.
CREATE TRIGGER checkpoint_count_body_insert AFTER INSERT ON checkpoint_bodies BEGIN
  UPDATE checkpoint_totals SET bodies = bodies + 1, stored_bytes = stored_bytes + NEW.stored_size, raw_bytes = raw_bytes + NEW.raw_size WHERE id = 1;
END;
CREATE TRIGGER checkpoint_count_body_delete AFTER DELETE ON checkpoint_bodies BEGIN
  UPDATE checkpoint_totals SET bodies = bodies - 1, stored_bytes = stored_bytes - OLD.stored_size, raw_bytes = raw_bytes - OLD.raw_size WHERE id = 1;
END;
CREATE TRIGGER checkpoint_count_body_resize AFTER UPDATE OF stored_size, raw_size ON checkpoint_bodies BEGIN
  UPDATE checkpoint_totals SET stored_bytes = stored_bytes - OLD.stored_size + NEW.stored_size, raw_bytes = raw_bytes - OLD.raw_size + NEW.raw_size WHERE id = 1;
  UPDATE checkpoint_task_bytes SET
    stored_bytes = stored_bytes - OLD.stored_size + NEW.stored_size,
    raw_bytes = raw_bytes - OLD.raw_size + NEW.raw_size,
    exclusive_stored_bytes = exclusive_stored_bytes + CASE
      WHEN (SELECT count(*) FROM checkpoint_task_bodies WHERE body_id = NEW.id) = 1 THEN NEW.stored_size - OLD.stored_size ELSE 0 END
    WHERE task_id IN (SELECT task_id FROM checkpoint_task_bodies WHERE body_id = NEW.id);
END;
`;
