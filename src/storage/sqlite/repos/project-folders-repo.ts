import type { SqlDriver } from '../driver';

/** The folder the person said is the project at an agent's working directory (migration 13). */
export function createProjectFoldersRepo(db: SqlDriver) {
  return {
    async get(path: string): Promise<string | null> {
      const row = await db.get<{ folder: string }>('SELECT folder FROM project_folders WHERE path = ?', [
        path,
      ]);
      return row?.folder ?? null;
    },
    /** Every confirmed working folder, by path. */
    async list(): Promise<{ path: string; folder: string }[]> {
      return db.all<{ path: string; folder: string }>(
        'SELECT path, folder FROM project_folders ORDER BY path',
      );
    },
    async set(path: string, folder: string, now: number): Promise<void> {
      await db.run(
        `INSERT INTO project_folders (path, folder, confirmed_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (path) DO UPDATE SET folder = ?2, confirmed_at = ?3`,
        [path, folder, now],
      );
    },
  };
}
