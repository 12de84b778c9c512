/**
 * The projects of agents' working folders the person has pointed at a folder (issue 28). A session's project is
 * the folder its agent worked in (`/testbed`, `/home/dev/ledger`); a folder whose name is in that path is it, and
 * one of another name (a checkout called `ledger-work`) is it once the person said so: the name recorded here
 * against the path, so every session of that folder uses it from then on.
 */
export default `
CREATE TABLE project_folders (
  path TEXT PRIMARY KEY,
  folder TEXT NOT NULL,
  confirmed_at INTEGER NOT NULL
) WITHOUT ROWID;
`;
