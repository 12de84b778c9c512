/**
 * Sessions, tasks and what they record. Light data (task rows, references, messages, summaries) is kept for
 * as long as the session exists; heavy data (steps; checkpoint bodies in 002) lives in its own tables so that
 * cleanup can delete it per task without touching the light rows.
 */
export default `
CREATE TABLE sessions (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  -- The task the session works on now (a protected root for cleanup). Kept consistent by the engine.
  current_task_id INTEGER
);

CREATE TABLE tasks (
  id INTEGER PRIMARY KEY,
  -- NULL once the session is deleted: such orphans are cleaned a few at a time, never in one huge cascade.
  session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  parent_task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  title TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('running', 'waiting_user', 'done', 'failed', 'superseded')),
  pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  heavy_removed_at INTEGER
);
CREATE INDEX tasks_by_session ON tasks(session_id, id);
CREATE INDEX tasks_by_parent ON tasks(parent_task_id);

-- "from" still needs "to": a parent its child agent (child), a task what it builds on (reference).
CREATE TABLE task_refs (
  from_task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  to_task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('child', 'reference')),
  PRIMARY KEY (from_task_id, to_task_id, kind)
) WITHOUT ROWID;
CREATE INDEX task_refs_by_target ON task_refs(to_task_id);

CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX messages_by_session ON messages(session_id, id);
CREATE INDEX messages_by_task ON messages(task_id);

CREATE TABLE summaries (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  task_id INTEGER REFERENCES tasks(id) ON DELETE SET NULL,
  kind TEXT NOT NULL,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX summaries_by_session ON summaries(session_id, id);
CREATE INDEX summaries_by_task ON summaries(task_id);

-- Heavy: what the agent did, with full params and results.
CREATE TABLE steps (
  id INTEGER PRIMARY KEY,
  task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  tool TEXT NOT NULL,
  params TEXT NOT NULL,
  result TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok', 'error', 'running', 'cancelled')),
  created_at INTEGER NOT NULL,
  UNIQUE (task_id, seq)
);
`;
