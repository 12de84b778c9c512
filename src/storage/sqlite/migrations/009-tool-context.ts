/**
 * What the tool-call recorder knows of a session between calls (src/engine/tool-calls): the ad-hoc scripts it ran
 * with the file changes since each one's last run (a script run again after edits is a check), and the project
 * root its paths are relative to. One row per session, JSON in `data` (core/tool-calls ClassifyContext + the root),
 * bounded by the recorder; it goes with its session. `events_by_path`: the recorder looks up the latest change of
 * a path in a session (whether the session saw the file, and the checkpoint entry with its last body).
 */
export default `
CREATE TABLE tool_context (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  data TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX events_by_path ON events(session_id, path, id) WHERE path IS NOT NULL;
`;
