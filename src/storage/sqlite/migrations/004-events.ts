/**
 * Structured session events, plans, compressions and the history search index.
 *
 * - `events`: what an agent did, typed (see src/core/events). Never deleted by compression: a compression stamps
 *   `compressed_at` (the event left the active context and went to HISTORY.jsonl); the row stays for resume and
 *   recall. Light data: it goes with its session.
 * - `plans` / `plan_steps`: one ordered checklist per task (PLAN.md is rendered from it). Step ids are stable, so
 *   events keep pointing at the right step when a plan is edited.
 * - `compressions`: each compressContext run, with the structured checkpoint it built (JSON) and its budget.
 * - `history_docs` + `history_fts`: what searchHistory searches (events, summaries, step results), one document
 *   per source row, in an external-content FTS5 index kept in step by triggers (so a cascade delete of a session
 *   also leaves the index).
 */
export default `
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  step_id INTEGER REFERENCES steps(id) ON DELETE SET NULL,
  plan_step_id INTEGER,
  kind TEXT NOT NULL CHECK (kind IN ('instruction', 'decision', 'file_change', 'validation', 'blocker',
    'blocker_resolved', 'question', 'answer', 'plan_step_started', 'plan_step_done', 'progress', 'note')),
  text TEXT NOT NULL,
  -- What a decision supersedes, a resolution resolves, an answer answers.
  ref_event_id INTEGER,
  path TEXT,
  -- The checkpoint entry of a file change (no foreign key: cleanup may remove the entry; diffCheckpoint then says so).
  checkpoint_entry_id INTEGER,
  -- Kind-specific fields without a column (decision why, file change kind, validation name and result, next).
  data TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  compressed_at INTEGER
);
CREATE INDEX events_by_session ON events(session_id, id);
CREATE INDEX events_active ON events(session_id, id) WHERE compressed_at IS NULL;
CREATE INDEX events_by_task ON events(task_id);
CREATE INDEX events_by_step ON events(step_id);
CREATE INDEX events_by_ref ON events(ref_event_id);

CREATE TABLE plans (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL UNIQUE REFERENCES tasks(id) ON DELETE CASCADE,
  goal TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE plan_steps (
  id INTEGER PRIMARY KEY,
  plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  what TEXT NOT NULL,
  why TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('todo', 'started', 'done', 'skipped')),
  started_at INTEGER,
  finished_at INTEGER,
  UNIQUE (plan_id, position)
);

CREATE TABLE compressions (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  summary_id INTEGER REFERENCES summaries(id) ON DELETE SET NULL,
  -- The last event this compression saw; events up to it (but the kept tail) were compressed away.
  upto_event_id INTEGER,
  checkpoint TEXT NOT NULL,
  budget TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX compressions_by_session ON compressions(session_id, id);

CREATE TABLE history_docs (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL CHECK (source IN ('event', 'summary', 'step')),
  source_id INTEGER NOT NULL,
  session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  step_id INTEGER REFERENCES steps(id) ON DELETE SET NULL,
  plan_step_id INTEGER,
  kind TEXT NOT NULL,
  path TEXT,
  checkpoint_entry_id INTEGER,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX history_docs_by_session ON history_docs(session_id);
CREATE INDEX history_docs_by_task ON history_docs(task_id);
CREATE INDEX history_docs_by_step ON history_docs(step_id);

CREATE VIRTUAL TABLE history_fts USING fts5(
  title, body, content = 'history_docs', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER history_docs_ai AFTER INSERT ON history_docs BEGIN
  INSERT INTO history_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
CREATE TRIGGER history_docs_ad AFTER DELETE ON history_docs BEGIN
  INSERT INTO history_fts (history_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;
CREATE TRIGGER history_docs_au AFTER UPDATE OF title, body ON history_docs BEGIN
  INSERT INTO history_fts (history_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
  INSERT INTO history_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
`;
