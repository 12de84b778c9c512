/**
 * Sessions imported from other agents' transcripts (src/engine/importers). `imports`: one row per imported agent
 * session — which agent, its own session id, the brain session and main task it became, the file's size and
 * last line read, counts. `import_items`: the source ids of the items already recorded (a re-import adds nothing;
 * a longer version adds only what is new), with the task a thread became. Both go with their session.
 */
export default `
CREATE TABLE imports (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  agent TEXT NOT NULL,
  source_session TEXT NOT NULL,
  task_id INTEGER NOT NULL,
  format TEXT NOT NULL,
  file_name TEXT NOT NULL,
  file_bytes INTEGER NOT NULL,
  last_line INTEGER NOT NULL,
  items INTEGER NOT NULL,
  imported_at INTEGER NOT NULL,
  UNIQUE (agent, source_session)
);
CREATE TABLE import_items (
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  item_key TEXT NOT NULL,
  task_id INTEGER,
  PRIMARY KEY (session_id, item_key)
) WITHOUT ROWID;
`;
