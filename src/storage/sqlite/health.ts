import type { SqlDriver } from './driver';

/** `['ok']` for a sound database, else SQLite's list of problems (foreign key violations included). */
export async function integrityCheck(db: SqlDriver, quick = false): Promise<string[]> {
  const rows = await db.all<Record<string, string>>(quick ? 'PRAGMA quick_check' : 'PRAGMA integrity_check');
  const problems = rows.map((row) => Object.values(row)[0] ?? '').filter((line) => line !== 'ok');
  const fk = await db.all<{ table: string; rowid: number; parent: string }>('PRAGMA foreign_key_check');
  for (const violation of fk) {
    problems.push(
      `foreign key: ${violation.table} row ${violation.rowid} points to a missing ${violation.parent}`,
    );
  }
  return problems.length === 0 ? ['ok'] : problems;
}

export interface PageStats {
  readonly pageSize: number;
  readonly pageCount: number;
  readonly freelistCount: number;
}

export async function pageStats(db: SqlDriver): Promise<PageStats> {
  const size = await db.get<{ page_size: number }>('PRAGMA page_size');
  const count = await db.get<{ page_count: number }>('PRAGMA page_count');
  const free = await db.get<{ freelist_count: number }>('PRAGMA freelist_count');
  return {
    pageSize: size?.page_size ?? 0,
    pageCount: count?.page_count ?? 0,
    freelistCount: free?.freelist_count ?? 0,
  };
}
