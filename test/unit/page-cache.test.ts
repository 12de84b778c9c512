/**
 * The page cache an import runs with: capped for the work, put back after it whether it resolves or throws, left
 * alone when already smaller — and importTranscript runs under the cap and leaves the setting as it found it.
 */
import { describe, expect, it, vi } from 'vitest';
import { IMPORT_PAGE_CACHE_KIB, withPageCacheAtMost } from '../../src/storage/sqlite/page-cache';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { memoryBrain } from './engine-helpers';

type Driver = Awaited<ReturnType<typeof memoryBrain>>['database']['driver'];
const cacheSize = async (db: Driver) =>
  (await db.get<{ cache_size: number }>('PRAGMA cache_size'))?.cache_size;

describe('page cache for one piece of work', () => {
  it('caps the cache while the work runs and puts it back after, also when the work throws', async () => {
    const { database } = await memoryBrain();
    const db = database.driver;
    expect(await cacheSize(db)).toBe(-32768);
    expect(await withPageCacheAtMost(db, 8192, () => cacheSize(db))).toBe(-8192);
    expect(await cacheSize(db)).toBe(-32768);
    await expect(
      withPageCacheAtMost(db, 8192, async () => {
        expect(await cacheSize(db)).toBe(-8192);
        throw new Error('cancelled');
      }),
    ).rejects.toThrow('cancelled');
    expect(await cacheSize(db)).toBe(-32768);
  });

  it('leaves a smaller cache as it is, and restores a cache given in pages', async () => {
    const { database } = await memoryBrain();
    const db = database.driver;
    await db.exec('PRAGMA cache_size = -4096');
    expect(await withPageCacheAtMost(db, 8192, () => cacheSize(db))).toBe(-4096);
    await db.exec('PRAGMA cache_size = 20000');
    expect(await withPageCacheAtMost(db, 8192, () => cacheSize(db))).toBe(-8192);
    expect(await cacheSize(db)).toBe(20000);
  });

  it('runs an import under the cap and leaves the setting as it was', async () => {
    const { api, database } = await memoryBrain();
    const claude = generateClaudeCodeSession();
    const exec = vi.spyOn(database.driver, 'exec');
    const result = await api.importTranscript({
      files: [{ name: claude.main.name, data: claude.main.bytes }],
    });
    expect(result.sessions[0]?.added.toolCalls).toBeGreaterThan(10);
    const pragmas = exec.mock.calls.map(([sql]) => sql).filter((sql) => sql.includes('cache_size'));
    expect(pragmas).toEqual([`PRAGMA cache_size = -${IMPORT_PAGE_CACHE_KIB}`, 'PRAGMA cache_size = -32768']);
    expect(await cacheSize(database.driver)).toBe(-32768);
  });
});
