/**
 * A page cache capped for the length of one piece of work. An import writes far more than it reads back (rows
 * appended in one transaction, spilled to the file as the cache fills), so the 32 MiB a search wants
 * (PAGE_CACHE_KIB, open.ts) is mostly pages it never reads again — and SQLite's wasm memory, which never shrinks,
 * grows by all of it. Measured on the 500 MB import bench: the same speed with 8 MiB, and 22 MiB less worker memory
 * (test/bench/README.md, "Importing agent transcripts").
 */
import type { SqlDriver } from './driver';

/** The page cache an import runs with, in KiB. */
export const IMPORT_PAGE_CACHE_KIB = 8 * 1024;

/**
 * Runs `work` with the connection's page cache at most `kib` KiB, then puts the setting back (whether `work`
 * resolves or throws). A cache already that small is left as it is.
 */
export async function withPageCacheAtMost<T>(db: SqlDriver, kib: number, work: () => Promise<T>): Promise<T> {
  const row = await db.get<{ cache_size: number }>('PRAGMA cache_size');
  const previous = row?.cache_size;
  // cache_size is pages when positive, KiB when negative: compare in KiB only when it is given so.
  if (previous === undefined || (previous < 0 && -previous <= kib)) return work();
  await db.exec(`PRAGMA cache_size = -${Math.floor(kib)}`);
  try {
    return await work();
  } finally {
    await db.exec(`PRAGMA cache_size = ${Math.trunc(previous)}`);
  }
}
