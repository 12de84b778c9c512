/**
 * Patch checkpoints: an entry may hold a file's change as a unified diff instead of its two bodies (a transcript
 * that shows the change only as a patch: Claude Code's `structuredPatch`, Codex's `unified_diff`, a `git diff`).
 *
 * - `patch_body_id`: the diff's UTF-8 bytes, a body of the same content-addressed store (checkpoint_bodies:
 *   deduplicated, compressed, verified on every read); `patch_size` its size in bytes.
 * - A side may be `unknown`: the body was not seen. An entry has unknown sides exactly when it has a patch, and
 *   then both (a diff that holds a whole body — a new or deleted file — is stored as bodies).
 * - The refcount triggers (migration 2) and the per-task counters (migration 3) count the patch like a side, so
 *   cleanup collects a cleaned task's patches with its bodies and the audit sums them.
 *
 * SQLite cannot change a table's CHECK constraints: the table is rebuilt (its rows copied as they are; the copy
 * and the drop fire no trigger, so `refs` and the counters stay exact), then its indexes and the triggers on it
 * are created again (dropping the table dropped them). No other table references checkpoint_entries.
 */
export default `
CREATE TABLE checkpoint_entries_new (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL,
  step_id INTEGER REFERENCES steps(id) ON DELETE SET NULL,
  path TEXT NOT NULL,
  -- absent: no file; text / bytes: stored, went in as a string / a Uint8Array; too_large: over the cap, not kept;
  -- unknown: not seen (the entry holds a patch).
  before_kind TEXT NOT NULL CHECK (before_kind IN ('absent', 'text', 'bytes', 'too_large', 'unknown')),
  before_size INTEGER CHECK ((before_size IS NULL) = (before_kind IN ('absent', 'unknown'))),
  before_body_id INTEGER REFERENCES checkpoint_bodies(id),
  after_kind TEXT NOT NULL CHECK (after_kind IN ('absent', 'text', 'bytes', 'too_large', 'unknown')),
  after_size INTEGER CHECK ((after_size IS NULL) = (after_kind IN ('absent', 'unknown'))),
  after_body_id INTEGER REFERENCES checkpoint_bodies(id),
  patch_size INTEGER CHECK (patch_size >= 0),
  patch_body_id INTEGER REFERENCES checkpoint_bodies(id),
  binary INTEGER NOT NULL CHECK (binary IN (0, 1)),
  created_at INTEGER NOT NULL,
  removed_at INTEGER,
  removed_reason TEXT,
  CHECK ((removed_at IS NULL) = (removed_reason IS NULL)),
  CHECK (before_body_id IS NULL OR before_kind IN ('text', 'bytes')),
  CHECK (after_body_id IS NULL OR after_kind IN ('text', 'bytes')),
  CHECK (removed_at IS NOT NULL OR ((before_body_id IS NULL) = (before_kind IN ('absent', 'too_large', 'unknown')))),
  CHECK (removed_at IS NOT NULL OR ((after_body_id IS NULL) = (after_kind IN ('absent', 'too_large', 'unknown')))),
  CHECK ((patch_size IS NULL) = (before_kind <> 'unknown')),
  CHECK ((patch_size IS NULL) = (after_kind <> 'unknown')),
  CHECK (removed_at IS NOT NULL OR ((patch_body_id IS NULL) = (patch_size IS NULL))),
  CHECK (removed_at IS NULL OR (before_body_id IS NULL AND after_body_id IS NULL AND patch_body_id IS NULL))
);
INSERT INTO checkpoint_entries_new (id, task_id, step_id, path, before_kind, before_size, before_body_id,
    after_kind, after_size, after_body_id, binary, created_at, removed_at, removed_reason)
  SELECT id, task_id, step_id, path, before_kind, before_size, before_body_id,
    after_kind, after_size, after_body_id, binary, created_at, removed_at, removed_reason
  FROM checkpoint_entries;
DROP TABLE checkpoint_entries;
ALTER TABLE checkpoint_entries_new RENAME TO checkpoint_entries;

CREATE INDEX checkpoint_entries_by_task ON checkpoint_entries(task_id, id);
CREATE INDEX checkpoint_entries_by_path ON checkpoint_entries(path, id) WHERE removed_at IS NULL;
CREATE INDEX checkpoint_entries_by_before_body ON checkpoint_entries(before_body_id) WHERE before_body_id IS NOT NULL;
CREATE INDEX checkpoint_entries_by_after_body ON checkpoint_entries(after_body_id) WHERE after_body_id IS NOT NULL;
CREATE INDEX checkpoint_entries_by_patch_body ON checkpoint_entries(patch_body_id) WHERE patch_body_id IS NOT NULL;
CREATE INDEX checkpoint_entries_by_step ON checkpoint_entries(step_id) WHERE step_id IS NOT NULL;

-- Migration 2's refcounts, the patch counted like a side.
CREATE TRIGGER checkpoint_entries_ref_insert AFTER INSERT ON checkpoint_entries BEGIN
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.before_body_id;
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.after_body_id;
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.patch_body_id;
END;
CREATE TRIGGER checkpoint_entries_ref_update AFTER UPDATE OF before_body_id, after_body_id, patch_body_id ON checkpoint_entries BEGIN
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.before_body_id;
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.after_body_id;
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.patch_body_id;
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.before_body_id;
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.after_body_id;
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.patch_body_id;
END;
CREATE TRIGGER checkpoint_entries_ref_delete AFTER DELETE ON checkpoint_entries BEGIN
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.before_body_id;
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.after_body_id;
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.patch_body_id;
END;

-- Migration 3's counters: live entries per task, and the (task, body) uses of their sides and patch.
CREATE TRIGGER checkpoint_count_entry_insert AFTER INSERT ON checkpoint_entries BEGIN
  INSERT INTO checkpoint_task_bytes (task_id) VALUES (NEW.task_id) ON CONFLICT (task_id) DO NOTHING;
  UPDATE checkpoint_task_bytes SET entries = entries + (NEW.removed_at IS NULL) WHERE task_id = NEW.task_id;
  UPDATE checkpoint_totals SET live_entries = live_entries + (NEW.removed_at IS NULL) WHERE id = 1;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.before_body_id, 1 WHERE NEW.before_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.after_body_id, 1 WHERE NEW.after_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.patch_body_id, 1 WHERE NEW.patch_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
END;
CREATE TRIGGER checkpoint_count_entry_update AFTER UPDATE OF task_id, before_body_id, after_body_id, patch_body_id, removed_at ON checkpoint_entries BEGIN
  UPDATE checkpoint_task_bytes SET entries = entries - (OLD.removed_at IS NULL) WHERE task_id = OLD.task_id;
  INSERT INTO checkpoint_task_bytes (task_id) VALUES (NEW.task_id) ON CONFLICT (task_id) DO NOTHING;
  UPDATE checkpoint_task_bytes SET entries = entries + (NEW.removed_at IS NULL) WHERE task_id = NEW.task_id;
  UPDATE checkpoint_totals SET live_entries = live_entries - (OLD.removed_at IS NULL) + (NEW.removed_at IS NULL) WHERE id = 1;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.before_body_id;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.after_body_id;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.patch_body_id;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.before_body_id, 1 WHERE NEW.before_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.after_body_id, 1 WHERE NEW.after_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
  INSERT INTO checkpoint_task_bodies (task_id, body_id, uses) SELECT NEW.task_id, NEW.patch_body_id, 1 WHERE NEW.patch_body_id IS NOT NULL
    ON CONFLICT (task_id, body_id) DO UPDATE SET uses = uses + 1;
END;
CREATE TRIGGER checkpoint_count_entry_delete AFTER DELETE ON checkpoint_entries BEGIN
  UPDATE checkpoint_task_bytes SET entries = entries - (OLD.removed_at IS NULL) WHERE task_id = OLD.task_id;
  UPDATE checkpoint_totals SET live_entries = live_entries - (OLD.removed_at IS NULL) WHERE id = 1;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.before_body_id;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.after_body_id;
  UPDATE checkpoint_task_bodies SET uses = uses - 1 WHERE task_id = OLD.task_id AND body_id = OLD.patch_body_id;
END;

-- Migration 5's guard: an entry id once given out never names another entry.
CREATE TRIGGER checkpoint_entries_fresh_id AFTER INSERT ON checkpoint_entries
  WHEN NEW.id <= (SELECT max(last_entry_id) FROM checkpoint_removals)
BEGIN
  SELECT RAISE(ABORT, 'A checkpoint entry may not reuse the id of a removed entry.');
END;
`;
