import type { SessionId, TaskId } from '../../../core/ids';
import { asSessionId, asTaskId } from '../../../core/ids';
import type { SqlDriver } from '../driver';

/** One imported agent session (migration 10). */
export interface ImportRow {
  readonly sessionId: SessionId;
  readonly agent: string;
  readonly sourceSession: string;
  readonly taskId: TaskId;
  readonly format: string;
  readonly fileName: string;
  readonly fileBytes: number;
  readonly lastLine: number;
  readonly items: number;
  readonly importedAt: number;
}

interface Raw {
  session_id: number;
  agent: string;
  source_session: string;
  task_id: number;
  format: string;
  file_name: string;
  file_bytes: number;
  last_line: number;
  items: number;
  imported_at: number;
}

const toRow = (r: Raw): ImportRow => ({
  sessionId: asSessionId(r.session_id),
  agent: r.agent,
  sourceSession: r.source_session,
  taskId: asTaskId(r.task_id),
  format: r.format,
  fileName: r.file_name,
  fileBytes: r.file_bytes,
  lastLine: r.last_line,
  items: r.items,
  importedAt: r.imported_at,
});

/** Imported sessions and the source ids of what they recorded (a re-import skips those). */
export function createImportsRepo(db: SqlDriver) {
  return {
    async find(agent: string, sourceSession: string): Promise<ImportRow | null> {
      const row = await db.get<Raw>('SELECT * FROM imports WHERE agent = ? AND source_session = ?', [
        agent,
        sourceSession,
      ]);
      return row ? toRow(row) : null;
    },
    async bySession(sessionId: SessionId): Promise<ImportRow | null> {
      const row = await db.get<Raw>('SELECT * FROM imports WHERE session_id = ?', [sessionId]);
      return row ? toRow(row) : null;
    },
    async list(): Promise<ImportRow[]> {
      return (await db.all<Raw>('SELECT * FROM imports ORDER BY imported_at DESC, session_id DESC')).map(
        toRow,
      );
    },
    async save(row: ImportRow): Promise<void> {
      await db.run(
        `INSERT INTO imports (session_id, agent, source_session, task_id, format, file_name, file_bytes, last_line,
           items, imported_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (session_id) DO UPDATE SET file_name = ?6, file_bytes = MAX(file_bytes, ?7),
           last_line = MAX(last_line, ?8), items = ?9, imported_at = ?10`,
        [
          row.sessionId,
          row.agent,
          row.sourceSession,
          row.taskId,
          row.format,
          row.fileName,
          row.fileBytes,
          row.lastLine,
          row.items,
          row.importedAt,
        ],
      );
    },
    async has(sessionId: SessionId, key: string): Promise<boolean> {
      const row = await db.get('SELECT 1 AS x FROM import_items WHERE session_id = ? AND item_key = ?', [
        sessionId,
        key,
      ]);
      return row !== undefined;
    },
    /** The task recorded with an item (a thread's child task), or null. */
    async taskOf(sessionId: SessionId, key: string): Promise<TaskId | null> {
      const row = await db.get<{ task_id: number | null }>(
        'SELECT task_id FROM import_items WHERE session_id = ? AND item_key = ?',
        [sessionId, key],
      );
      return row?.task_id == null ? null : asTaskId(row.task_id);
    },
    async addWithTask(sessionId: SessionId, key: string, taskId: TaskId): Promise<void> {
      await db.run('INSERT OR REPLACE INTO import_items (session_id, item_key, task_id) VALUES (?, ?, ?)', [
        sessionId,
        key,
        taskId,
      ]);
    },
    /** An imported session's title, once the transcript named it (a Claude Code title comes last). */
    async retitle(
      sessionId: SessionId,
      sessionTitle: string,
      taskId: TaskId,
      taskTitle: string,
    ): Promise<void> {
      await db.run('UPDATE sessions SET title = ? WHERE id = ?', [sessionTitle, sessionId]);
      await db.run('UPDATE tasks SET title = ? WHERE id = ?', [taskTitle, taskId]);
    },
    /** Records that these items were imported (keys already there are left as they are). */
    async add(sessionId: SessionId, keys: readonly string[]): Promise<void> {
      for (let i = 0; i < keys.length; i += 400) {
        const chunk = keys.slice(i, i + 400);
        await db.run(
          `INSERT OR IGNORE INTO import_items (session_id, item_key) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
          chunk.flatMap((key) => [sessionId, key]),
        );
      }
    },
  };
}

export type ImportsRepo = ReturnType<typeof createImportsRepo>;
