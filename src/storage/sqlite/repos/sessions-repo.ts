import { BrainError } from '../../../core/errors';
import { asSessionId, asTaskId, type SessionId, type TaskId } from '../../../core/ids';
import type { Session } from '../../../core/model';
import type { SqlDriver } from '../driver';

interface SessionRow {
  id: number;
  title: string;
  created_at: number;
  updated_at: number;
  current_task_id: number | null;
}

const toSession = (row: SessionRow): Session => ({
  id: asSessionId(row.id),
  title: row.title,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  currentTaskId: row.current_task_id === null ? null : asTaskId(row.current_task_id),
});

export function createSessionsRepo(db: SqlDriver) {
  return {
    async create(title: string, now: number): Promise<SessionId> {
      const { lastInsertRowid } = await db.run(
        'INSERT INTO sessions (title, created_at, updated_at) VALUES (?, ?, ?)',
        [title, now, now],
      );
      return asSessionId(lastInsertRowid);
    },

    async list(): Promise<Session[]> {
      const rows = await db.all<SessionRow>('SELECT * FROM sessions ORDER BY updated_at DESC, id DESC');
      return rows.map(toSession);
    },

    async get(id: SessionId): Promise<Session> {
      const row = await db.get<SessionRow>('SELECT * FROM sessions WHERE id = ?', [id]);
      if (!row) throw new BrainError('NotFound', `Session ${id} does not exist.`, { sessionId: id });
      return toSession(row);
    },

    /** The session changed at `now`; never moves its time back (an import writes items at their own times). */
    async touch(id: SessionId, now: number): Promise<void> {
      await db.run('UPDATE sessions SET updated_at = max(updated_at, ?) WHERE id = ?', [now, id]);
    },

    async setCurrentTask(id: SessionId, taskId: TaskId | null, now: number): Promise<void> {
      await db.run('UPDATE sessions SET current_task_id = ?, updated_at = ? WHERE id = ?', [taskId, now, id]);
    },

    /** Light rows go with the session; its tasks become orphans that cleanup removes a few at a time. */
    async delete(id: SessionId): Promise<void> {
      const { changes } = await db.run('DELETE FROM sessions WHERE id = ?', [id]);
      if (changes === 0) throw new BrainError('NotFound', `Session ${id} does not exist.`, { sessionId: id });
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
