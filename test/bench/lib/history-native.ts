/**
 * The history section's native anchor: the engine's own search code — the history feature's `searchHistory`
 * (validation, FTS query building, hit mapping) over the history repo (src/storage/sqlite/repos/history-repo.ts) —
 * on a native SQLite (better-sqlite3, through the driver port) instead of wa-sqlite in a worker on OPFS. Loaded
 * from Node with Vite's `runnerImport`, so the repository's TypeScript runs unchanged.
 */
import { createHistoryRepo } from '../../../src/storage/sqlite/repos/history-repo';
import { PAGE_CACHE_KIB } from '../../../src/storage/sqlite/vfs/open';
import { createHistoryFeature } from '../../../src/engine/history/feature';
import { createBetterSqlite3Driver, type NativeDatabase } from './better-sqlite3-driver';
import { timeSearches, type SearchTiming } from './history-timing';

export interface NativeHistoryOptions {
  readonly queries: readonly string[];
  readonly warmup: readonly string[];
  readonly rounds: number;
  readonly limit: number;
}

/** Times the queries on `db` (a better-sqlite3 connection to the engine's exported database); closes it. */
export async function nativeHistoryBench(
  db: NativeDatabase,
  options: NativeHistoryOptions,
): Promise<SearchTiming & { sqliteVersion: string }> {
  const driver = createBetterSqlite3Driver(db);
  try {
    // The connection settings the engine's open.ts gives every connection that matter to a read-only search.
    await driver.exec(`PRAGMA temp_store = MEMORY; PRAGMA cache_size = -${PAGE_CACHE_KIB};`);
    const version = await driver.get<{ v: string }>('SELECT sqlite_version() AS v');
    // The feature needs only the connection and the history repo of the event log (HistoryDeps).
    const { searchHistory } = createHistoryFeature({
      ctx: { db: driver },
      repos: { history: createHistoryRepo(driver) },
    });
    const timing = await timeSearches(
      (query) => searchHistory(query, { limit: options.limit }),
      options.queries,
      options.warmup,
      options.rounds,
    );
    return { ...timing, sqliteVersion: version?.v ?? '?' };
  } finally {
    await driver.close();
  }
}
