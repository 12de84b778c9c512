/**
 * Checkpoint entries and the content-addressed bodies they point at.
 *
 * - checkpoint_bodies: one row per distinct body (SHA-256 of its raw bytes) with everything needed to verify
 *   it: codec, raw and stored size, CRC-32 of the stored bytes, delta base and chain depth. `refs` counts the
 *   entry sides that use the body; triggers keep it exact whatever code changes entries.
 * - checkpoint_body_data: the stored bytes, apart, so sizes and counts are summed without reading blob pages.
 * - checkpoint_entries: one file change (path, before, after). Cleanup keeps the row and its sizes, drops the
 *   body references and records when and why. task_id has no foreign key on purpose: deleting a task must not
 *   cascade into thousands of entries (and their bodies) in one statement; entries of a vanished task are
 *   orphans that cleanup removes a few at a time.
 */
export default `
CREATE TABLE checkpoint_bodies (
  id INTEGER PRIMARY KEY,
  hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
  codec TEXT NOT NULL CHECK (codec IN ('plain', 'zlib', 'delta')),
  raw_size INTEGER NOT NULL CHECK (raw_size >= 0),
  stored_size INTEGER NOT NULL CHECK (stored_size >= 0),
  stored_crc INTEGER NOT NULL,
  base_id INTEGER REFERENCES checkpoint_bodies(id),
  depth INTEGER NOT NULL CHECK (depth >= 0),
  refs INTEGER NOT NULL DEFAULT 0 CHECK (refs >= 0),
  created_at INTEGER NOT NULL,
  CHECK ((codec = 'delta') = (base_id IS NOT NULL)),
  CHECK ((base_id IS NULL) = (depth = 0))
);
CREATE INDEX checkpoint_bodies_by_base ON checkpoint_bodies(base_id) WHERE base_id IS NOT NULL;
CREATE INDEX checkpoint_bodies_unreferenced ON checkpoint_bodies(id) WHERE refs = 0;

CREATE TABLE checkpoint_body_data (
  body_id INTEGER PRIMARY KEY REFERENCES checkpoint_bodies(id) ON DELETE CASCADE,
  bytes BLOB NOT NULL
);

CREATE TABLE checkpoint_entries (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL,
  step_id INTEGER REFERENCES steps(id) ON DELETE SET NULL,
  path TEXT NOT NULL,
  -- absent: no file; text: went in as a string; bytes: went in as a Uint8Array; too_large: over the cap, not kept.
  before_kind TEXT NOT NULL CHECK (before_kind IN ('absent', 'text', 'bytes', 'too_large')),
  before_size INTEGER CHECK ((before_size IS NULL) = (before_kind = 'absent')),
  before_body_id INTEGER REFERENCES checkpoint_bodies(id),
  after_kind TEXT NOT NULL CHECK (after_kind IN ('absent', 'text', 'bytes', 'too_large')),
  after_size INTEGER CHECK ((after_size IS NULL) = (after_kind = 'absent')),
  after_body_id INTEGER REFERENCES checkpoint_bodies(id),
  binary INTEGER NOT NULL CHECK (binary IN (0, 1)),
  created_at INTEGER NOT NULL,
  removed_at INTEGER,
  removed_reason TEXT,
  CHECK ((removed_at IS NULL) = (removed_reason IS NULL)),
  CHECK (before_body_id IS NULL OR before_kind IN ('text', 'bytes')),
  CHECK (after_body_id IS NULL OR after_kind IN ('text', 'bytes')),
  CHECK (removed_at IS NOT NULL OR ((before_body_id IS NULL) = (before_kind IN ('absent', 'too_large')))),
  CHECK (removed_at IS NOT NULL OR ((after_body_id IS NULL) = (after_kind IN ('absent', 'too_large')))),
  CHECK (removed_at IS NULL OR (before_body_id IS NULL AND after_body_id IS NULL))
);
CREATE INDEX checkpoint_entries_by_task ON checkpoint_entries(task_id, id);
CREATE INDEX checkpoint_entries_by_path ON checkpoint_entries(path, id) WHERE removed_at IS NULL;
-- For the foreign keys: deleting a body or a step must not scan every entry.
CREATE INDEX checkpoint_entries_by_before_body ON checkpoint_entries(before_body_id) WHERE before_body_id IS NOT NULL;
CREATE INDEX checkpoint_entries_by_after_body ON checkpoint_entries(after_body_id) WHERE after_body_id IS NOT NULL;
CREATE INDEX checkpoint_entries_by_step ON checkpoint_entries(step_id) WHERE step_id IS NOT NULL;

CREATE TRIGGER checkpoint_entries_ref_insert AFTER INSERT ON checkpoint_entries BEGIN
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.before_body_id;
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.after_body_id;
END;
CREATE TRIGGER checkpoint_entries_ref_update AFTER UPDATE OF before_body_id, after_body_id ON checkpoint_entries BEGIN
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.before_body_id;
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.after_body_id;
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.before_body_id;
  UPDATE checkpoint_bodies SET refs = refs + 1 WHERE id = NEW.after_body_id;
END;
CREATE TRIGGER checkpoint_entries_ref_delete AFTER DELETE ON checkpoint_entries BEGIN
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.before_body_id;
  UPDATE checkpoint_bodies SET refs = refs - 1 WHERE id = OLD.after_body_id;
END;
`;
