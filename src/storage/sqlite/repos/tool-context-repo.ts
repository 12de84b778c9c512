import type { SessionId } from '../../../core/ids';
import type { SqlDriver } from '../driver';

/** The tool-call recorder's per-session context (migration 9): JSON text, read and written whole. */
export function createToolContextRepo(db: SqlDriver) {
  return {
    async get(sessionId: SessionId): Promise<string | null> {
      const row = await db.get<{ data: string }>('SELECT data FROM tool_context WHERE session_id = ?', [
        sessionId,
      ]);
      return row?.data ?? null;
    },
    async save(sessionId: SessionId, data: string, now: number): Promise<void> {
      await db.run(
        `INSERT INTO tool_context (session_id, data, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (session_id) DO UPDATE SET data = ?2, updated_at = ?3`,
        [sessionId, data, now],
      );
    },
  };
}
