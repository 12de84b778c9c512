import type { SqlDriver } from '../driver';

/** How far a followed file was read (migration 14). */
export interface FollowedFileRow {
  readonly folderId: number;
  readonly path: string;
  readonly format: string;
  readonly size: number;
  readonly modified: number;
  /** The offset after the last complete line read. */
  readonly readOffset: number;
  readonly linesRead: number;
  readonly lastLineStart: number;
  /** SHA-256 of the last complete line's last bytes (≤ 4 KiB), or null before the first line. */
  readonly lastLineHash: Uint8Array | null;
  readonly resumeOffset: number;
  readonly resumeLine: number;
  readonly resumeIndex: number;
  /** JSON: the agent's text waiting for its next call at the resume point, or null. */
  readonly resumeThoughts: string | null;
  readonly sessionId: number | null;
  readonly problem: string | null;
}

export interface FollowedFolderRow {
  readonly id: number;
  readonly name: string;
  readonly startedAt: number;
  readonly lastPollAt: number | null;
  readonly bytesRead: number;
}

interface FileRecord {
  folder_id: number;
  path: string;
  format: string;
  size: number;
  modified: number;
  read_offset: number;
  lines_read: number;
  last_line_start: number;
  last_line_hash: Uint8Array | null;
  resume_offset: number;
  resume_line: number;
  resume_index: number;
  resume_thoughts: string | null;
  session_id: number | null;
  problem: string | null;
}

const fileRow = (r: FileRecord): FollowedFileRow => ({
  folderId: r.folder_id,
  path: r.path,
  format: r.format,
  size: r.size,
  modified: r.modified,
  readOffset: r.read_offset,
  linesRead: r.lines_read,
  lastLineStart: r.last_line_start,
  lastLineHash: r.last_line_hash,
  resumeOffset: r.resume_offset,
  resumeLine: r.resume_line,
  resumeIndex: r.resume_index,
  resumeThoughts: r.resume_thoughts,
  sessionId: r.session_id,
  problem: r.problem,
});

export function createFollowRepo(db: SqlDriver) {
  return {
    async addFolder(name: string, now: number): Promise<number> {
      const { lastInsertRowid } = await db.run(
        'INSERT INTO followed_folders (name, started_at) VALUES (?, ?)',
        [name, now],
      );
      return lastInsertRowid;
    },
    async folder(id: number): Promise<FollowedFolderRow | null> {
      const r = await db.get<{
        id: number;
        name: string;
        started_at: number;
        last_poll_at: number | null;
        bytes_read: number;
      }>('SELECT id, name, started_at, last_poll_at, bytes_read FROM followed_folders WHERE id = ?', [id]);
      return r
        ? {
            id: r.id,
            name: r.name,
            startedAt: r.started_at,
            lastPollAt: r.last_poll_at,
            bytesRead: r.bytes_read,
          }
        : null;
    },
    async folders(): Promise<FollowedFolderRow[]> {
      const rows = await db.all<{
        id: number;
        name: string;
        started_at: number;
        last_poll_at: number | null;
        bytes_read: number;
      }>('SELECT id, name, started_at, last_poll_at, bytes_read FROM followed_folders ORDER BY id');
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        startedAt: r.started_at,
        lastPollAt: r.last_poll_at,
        bytesRead: r.bytes_read,
      }));
    },
    async polled(id: number, at: number, bytes: number): Promise<void> {
      await db.run('UPDATE followed_folders SET last_poll_at = ?, bytes_read = bytes_read + ? WHERE id = ?', [
        at,
        bytes,
        id,
      ]);
    },
    async removeFolder(id: number): Promise<void> {
      await db.run('DELETE FROM followed_files WHERE folder_id = ?', [id]);
      await db.run('DELETE FROM followed_folders WHERE id = ?', [id]);
    },
    async files(folderId: number): Promise<FollowedFileRow[]> {
      const rows = await db.all<FileRecord>(
        'SELECT * FROM followed_files WHERE folder_id = ? ORDER BY path',
        [folderId],
      );
      return rows.map(fileRow);
    },
    async saveFile(f: FollowedFileRow): Promise<void> {
      await db.run(
        `INSERT INTO followed_files (folder_id, path, format, size, modified, read_offset, lines_read,
           last_line_start, last_line_hash, resume_offset, resume_line, resume_index, session_id, problem,
           resume_thoughts)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
         ON CONFLICT (folder_id, path) DO UPDATE SET format = ?3, size = ?4, modified = ?5, read_offset = ?6,
           lines_read = ?7, last_line_start = ?8, last_line_hash = ?9, resume_offset = ?10, resume_line = ?11,
           resume_index = ?12, session_id = ?13, problem = ?14, resume_thoughts = ?15`,
        [
          f.folderId,
          f.path,
          f.format,
          f.size,
          f.modified,
          f.readOffset,
          f.linesRead,
          f.lastLineStart,
          f.lastLineHash,
          f.resumeOffset,
          f.resumeLine,
          f.resumeIndex,
          f.sessionId,
          f.problem,
          f.resumeThoughts,
        ],
      );
    },
  };
}

export type FollowRepo = ReturnType<typeof createFollowRepo>;
