/**
 * Lifecycle cleanup: a log of what cleanup removed, and byte counters that let `audit()` answer without reading
 * a single step, message or summary. The counters are kept by triggers, so they change in the same transaction
 * as the rows they count, whoever writes them. Checkpoint bodies are counted by the checkpoint store itself.
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
`;
