/**
 * Followed folders (issue 30): a folder of an agent's histories the person asked the brain to follow, and per file
 * how far it was read — the byte offset after the last complete line, where that line starts and a hash of its
 * end (a file rewritten under the same name is told by it), and the last point a fresh parser can resume from
 * (`resume_*`: an offset, its line number and the item index there, where no call waited for its result, and the
 * agent's text still waiting for its next call, as JSON). Light
 * data with the follow's lifetime: unfollowing deletes the rows, never the sessions they fed.
 */
export default `
CREATE TABLE followed_folders (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  last_poll_at INTEGER,
  bytes_read INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE followed_files (
  folder_id INTEGER NOT NULL REFERENCES followed_folders(id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  format TEXT NOT NULL,
  size INTEGER NOT NULL,
  modified INTEGER NOT NULL,
  read_offset INTEGER NOT NULL,
  lines_read INTEGER NOT NULL,
  last_line_start INTEGER NOT NULL,
  last_line_hash BLOB,
  resume_offset INTEGER NOT NULL,
  resume_line INTEGER NOT NULL,
  resume_index INTEGER NOT NULL,
  resume_thoughts TEXT,
  session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  problem TEXT,
  PRIMARY KEY (folder_id, path)
) WITHOUT ROWID;
CREATE INDEX followed_files_session ON followed_files(session_id) WHERE session_id IS NOT NULL;
`;
