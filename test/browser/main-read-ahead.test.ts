/**
 * The main database's read-ahead (src/storage/sqlite/vfs/coalescing-vfs.ts `mainReadAhead`), in real Chromium on
 * real OPFS: a cold connection reads a large body's overflow pages in a few chunk reads instead of one OPFS call a
 * page (the control, read-ahead off, counts the page-by-page reads), and never serves a page the file no longer
 * holds: what a WAL checkpoint writes into the file drops the chunks read before it.
 */
import { describe, expect, it } from 'vitest';
import { BLOB_SCHEMA, coalescingFiles } from './coalescing-files';
import { untilReleased } from './settle';

const { uniqueName, opened: openedWith } = coalescingFiles('main-read-ahead');

const opened = (name: string, mainReadAhead?: false) =>
  openedWith(name, mainReadAhead === false ? { mainReadAhead } : {});

/** Four rows of 1 MiB (~1,000 overflow pages), written into the file and the connection closed (a cold start next). */
async function bigRows(name: string): Promise<void> {
  const { worker, api } = await opened(name);
  await api.exec(BLOB_SCHEMA);
  expect(await api.insertBlobs(0, 4, 1024 * 1024)).toBeNull();
  await api.close();
  worker.terminate();
  await untilReleased(name);
}

describe("the main database's read-ahead", () => {
  for (const readAhead of [true, false]) {
    it(`a cold read of 4 MiB of rows reads the file ${readAhead ? 'in chunks' : 'page by page (control: read-ahead off)'}, and right`, async () => {
      const name = uniqueName();
      await bigRows(name);
      const { api } = await opened(name, readAhead ? undefined : false);
      const readsBefore = await api.opfsReads();
      const chunksBefore = (await api.stats())!.mainChunkReads;
      expect(await api.verifyBlobs()).toEqual({ rows: 4, wrong: [] });
      const reads = (await api.opfsReads()) - readsBefore;
      const chunks = (await api.stats())!.mainChunkReads - chunksBefore;
      const pages = (4 * 1024 * 1024) / 4096;
      if (readAhead) {
        // 64 KiB chunks: 16 pages a read.
        expect(chunks).toBeGreaterThanOrEqual(pages / 16);
        expect(reads).toBeLessThan(pages / 8);
      } else {
        expect(chunks).toBe(0);
        expect(reads).toBeGreaterThan(pages);
      }
      expect(await api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    });
  }

  it('reads what a WAL checkpoint wrote, not the chunks read before it', async () => {
    const name = uniqueName();
    await bigRows(name);
    const { api } = await opened(name);
    // A page cache of 8 pages: reading the rows evicts everything, so each read below goes to the VFS.
    await api.exec('PRAGMA cache_size = 8');
    expect(await api.all("SELECT value FROM meta WHERE key = 'inserted'")).toEqual([{ value: 4 }]);
    expect(await api.verifyBlobs()).toEqual({ rows: 4, wrong: [] });
    const chunks = (await api.stats())!.mainChunkReads;
    expect(chunks).toBeGreaterThan(0);
    // Rewrite the meta row and a row's bytes (into the WAL), then copy the WAL into the file.
    await api.run("UPDATE meta SET value = 41 WHERE key = 'inserted'");
    await api.run('DELETE FROM blobs WHERE id = 1');
    expect(await api.insertBlobs(1, 1, 512 * 1024)).toBeNull();
    expect(await api.all('PRAGMA wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
    // Evict, then read both from the file again: the new bytes, through chunks read anew.
    expect(await api.verifyBlobs()).toEqual({ rows: 4, wrong: [] });
    expect(await api.all("SELECT value FROM meta WHERE key = 'inserted'")).toEqual([{ value: 42 }]);
    expect(await api.all('SELECT length(data) AS n FROM blobs WHERE id = 1')).toEqual([{ n: 512 * 1024 }]);
    expect((await api.stats())!.mainChunkReads).toBeGreaterThan(chunks);
    expect(await api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });
});
