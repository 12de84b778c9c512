/**
 * The WAL's read-ahead (src/storage/sqlite/vfs/read-ahead.ts, in the coalescing VFS), in real Chromium on real OPFS:
 * a WAL checkpoint and a recovery after a kill read the log in a few chunk reads instead of one OPFS call per frame,
 * and read it right. The control runs the same with the read-ahead off and counts the frame-by-frame reads.
 */
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import type { CoalescingWorkerApi } from './coalescing-vfs.worker';
import { BLOB_SCHEMA, coalescingFiles } from './coalescing-files';
import { untilReleased } from './settle';

const { uniqueName, opened: openedWith } = coalescingFiles('wal-read-ahead');

async function fileSize(name: string): Promise<number> {
  const root = await navigator.storage.getDirectory();
  return (await (await root.getFileHandle(name)).getFile()).size;
}

const opened = (name: string, walReadAhead?: false) =>
  openedWith(name, walReadAhead === false ? { walReadAhead } : {});

/** Twelve commits of 40 rows of 1–21 KB: a log of ~5 MB, over a thousand frames, none checkpointed yet. */
async function fillLog(api: Comlink.Remote<CoalescingWorkerApi>): Promise<void> {
  await api.exec(BLOB_SCHEMA);
  for (let t = 0; t < 12; t++) expect(await api.insertBlobs(t * 40, 40)).toBeNull();
}

describe("the WAL's read-ahead", () => {
  for (const readAhead of [true, false]) {
    it(`a WAL checkpoint reads the log ${readAhead ? 'in a few chunks' : 'frame by frame (control: read-ahead off)'}, and right`, async () => {
      const name = uniqueName();
      const { api } = await opened(name, readAhead ? undefined : false);
      await fillLog(api);
      const log = await fileSize(`${name}-wal`);
      const frames = Math.floor(log / (4096 + 24));
      expect(frames).toBeGreaterThan(1000);
      const readsBefore = await api.opfsReads();
      const chunksBefore = (await api.stats())!.walChunkReads;
      expect(await api.all('PRAGMA wal_checkpoint(TRUNCATE)')).toEqual([
        { busy: 0, log: 0, checkpointed: 0 },
      ]);
      const reads = (await api.opfsReads()) - readsBefore;
      const chunks = (await api.stats())!.walChunkReads - chunksBefore;
      if (readAhead) {
        // Every MiB of the log read once or a few times (eight chunks are kept), never a call per frame.
        expect(chunks).toBeGreaterThanOrEqual(Math.ceil(log / 2 ** 20));
        expect(reads).toBeLessThan(frames / 20);
      } else {
        // A read per page the log holds (its latest frame; pages written by several commits are copied once).
        expect(chunks).toBe(0);
        expect(reads).toBeGreaterThan(frames / 2);
      }
      expect(await fileSize(`${name}-wal`)).toBe(0);
      expect(await api.verifyBlobs()).toEqual({ rows: 480, wrong: [] });
      expect(await api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    });
  }

  it('a recovery after a kill reads the log in chunks, and every committed row is there', async () => {
    const name = uniqueName();
    const first = await opened(name);
    await fillLog(first.api);
    first.worker.terminate();
    await untilReleased(name);
    const log = await fileSize(`${name}-wal`);
    expect(log).toBeGreaterThan(4 * 2 ** 20);

    const again = await opened(name);
    // Opening rebuilt the WAL's index from the log (every frame read, in order) and checkpointed it.
    const chunks = (await again.api.stats())!.walChunkReads;
    expect(chunks).toBeGreaterThanOrEqual(Math.ceil(log / 2 ** 20));
    expect(await again.api.opfsReads()).toBeLessThan(log / (4096 + 24) / 20);
    expect(await again.api.verifyBlobs()).toEqual({ rows: 480, wrong: [] });
    expect(await again.api.all("SELECT value FROM meta WHERE key = 'inserted'")).toEqual([{ value: 480 }]);
    expect(await again.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });
});
