/**
 * Write coalescing over OPFSCoopSyncVFS (src/storage/sqlite/vfs/coalescing-vfs.ts), in real Chromium on real OPFS:
 * the production engine runs in a dedicated worker (test/browser/coalescing-vfs.worker.ts) that a test can
 * terminate mid-transaction, as a killed tab would.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { createRandom } from '../helpers/random';
import { untilReleased } from './settle';
import type { CoalescingWorkerApi } from './coalescing-vfs.worker';

interface Spawned {
  worker: Worker;
  api: Comlink.Remote<CoalescingWorkerApi>;
  messages: Record<string, unknown>[];
}

let counter = 0;
const uniqueName = () => `coalescing-${Date.now().toString(36)}-${++counter}.db`;
const workers: Worker[] = [];
const names: string[] = [];

function spawn(): Spawned {
  const worker = new Worker(new URL('./coalescing-vfs.worker.ts', import.meta.url), { type: 'module' });
  workers.push(worker);
  const messages: Record<string, unknown>[] = [];
  worker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as Record<string, unknown> | null;
    if (data && ('progress' in data || 'committing' in data || 'committed' in data)) messages.push(data);
  });
  return { worker, api: Comlink.wrap<CoalescingWorkerApi>(worker), messages };
}

async function openDb(options: { coalesce?: boolean; maxBufferedBytes?: number; name?: string } = {}) {
  const name = options.name ?? uniqueName();
  if (!names.includes(name)) names.push(name);
  const spawned = spawn();
  const { maxBufferedBytes } = options;
  await spawned.api.open(name, {
    coalesce: options.coalesce ?? true,
    ...(maxBufferedBytes ? { maxBufferedBytes } : {}),
  });
  return { ...spawned, name };
}

const SCHEMA =
  'CREATE TABLE IF NOT EXISTS blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL);' +
  'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);' +
  "INSERT OR IGNORE INTO meta VALUES ('inserted', 0);";

async function fileBytes(name: string): Promise<Uint8Array> {
  const root = await navigator.storage.getDirectory();
  const file = await (await root.getFileHandle(name)).getFile();
  return new Uint8Array(await file.arrayBuffer());
}

async function fileSize(name: string): Promise<number> {
  const root = await navigator.storage.getDirectory();
  try {
    return (await (await root.getFileHandle(name)).getFile()).size;
  } catch {
    return 0;
  }
}

function until(
  spawned: Spawned,
  test: (m: Record<string, unknown>) => boolean,
  ms = 30_000,
): Promise<Record<string, unknown>> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const poll = () => {
      const hit = spawned.messages.find(test);
      if (hit) resolve(hit);
      else if (Date.now() - started > ms)
        reject(new Error(`no matching message from the worker in ${ms} ms`));
      else setTimeout(poll, 2);
    };
    poll();
  });
}

/** Reopens on a fresh worker (after a terminate, the old one's Web Lock and access handles take a moment). */
async function reopen(name: string, maxBufferedBytes?: number) {
  for (let attempt = 0; ; attempt++) {
    const spawned = spawn();
    try {
      await spawned.api.open(name, { coalesce: true, ...(maxBufferedBytes ? { maxBufferedBytes } : {}) });
      return { ...spawned, name };
    } catch (error) {
      spawned.worker.terminate();
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Removes an OPFS file once no access handle holds it any more: a terminated worker lets go of its locks and
 * handles a moment after `terminate()` returns (until then the removal fails with NoModificationAllowedError).
 * Waits on the locks' release, then polls the removal itself; any other error fails the test.
 */
async function removeOnceReleased(root: FileSystemDirectoryHandle, name: string): Promise<void> {
  await untilReleased(name);
  await expect
    .poll(
      async () => {
        try {
          await root.removeEntry(name);
          return 'removed';
        } catch (error) {
          if (error instanceof DOMException && error.name === 'NotFoundError') return 'removed';
          if (error instanceof DOMException && error.name === 'NoModificationAllowedError') return 'held';
          throw error;
        }
      },
      { timeout: 10_000, message: `${name} is still held by a stopped worker.` },
    )
    .toBe('removed');
}

afterEach(async () => {
  for (const worker of workers.splice(0)) worker.terminate();
  const root = await navigator.storage.getDirectory();
  for (const name of names.splice(0)) {
    for (const suffix of ['', '-journal', '-wal']) await removeOnceReleased(root, name + suffix);
  }
});

describe('write coalescing on OPFS', () => {
  it('writes byte-identical database files with and without coalescing, in far fewer OPFS writes', async () => {
    const on = await openDb({ coalesce: true });
    const off = await openDb({ coalesce: false });
    const random = createRandom(7, 'xorshift32');
    const script: [string, unknown[]][] = [];
    for (let t = 0; t < 40; t++) {
      const statements: [string, unknown[]][] = [];
      for (let s = 0; s < 12; s++) {
        const id = random.int(0, 300);
        const r = random.next();
        // Sizes from a few bytes to several pages (overflow chains), odd lengths included.
        const size = Math.floor(random.next() * random.next() * 40_000) + 1;
        if (r < 0.6)
          statements.push(['INSERT OR REPLACE INTO blobs (id, data) VALUES (?, zeroblob(?))', [id, size]]);
        else if (r < 0.8)
          statements.push([
            'UPDATE blobs SET data = substr(data, 1, ?) || zeroblob(?) WHERE id = ?',
            [size >> 1, size >> 2, id],
          ]);
        else statements.push(['DELETE FROM blobs WHERE id = ?', [id]]);
      }
      script.push(['BEGIN', []], ...statements, [t % 7 === 3 ? 'ROLLBACK' : 'COMMIT', []]);
    }
    for (const side of [on, off]) {
      await side.api.exec(SCHEMA);
      for (const [sql, params] of script) await side.api.run(sql, params as never);
      // Real bytes too (zeroblob pages compress nothing away in SQLite; these make the pages differ).
      expect(await side.api.insertBlobs(1000, 60)).toBeNull();
      await side.api.exec('VACUUM');
      expect(await side.api.insertBlobs(2000, 30)).toBeNull();
      expect(await side.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    }
    const stats = await on.api.stats();
    expect(await off.api.stats()).toBeNull();
    await on.api.close();
    await off.api.close();

    const a = await fileBytes(on.name);
    const b = await fileBytes(off.name);
    expect(a.byteLength).toBeGreaterThan(100_000);
    expect(a.byteLength).toBe(b.byteLength);
    let firstDifference = -1;
    for (let i = 0; i < a.byteLength && firstDifference === -1; i++) if (a[i] !== b[i]) firstDifference = i;
    expect(firstDifference).toBe(-1);
    // The journal (3 writes per page) and runs of adjacent pages collapse into single write() calls.
    expect(stats!.writes).toBeGreaterThan(1000);
    expect(stats!.flushedWrites * 4).toBeLessThan(stats!.writes);
  });

  it('serves reads from buffered writes: spilled pages inside a transaction, the journal on rollback', async () => {
    const db = await openDb();
    await db.api.exec(SCHEMA);
    expect(await db.api.insertBlobs(0, 20)).toBeNull();
    // A 20-page cache forces SQLite to spill dirty pages to the file mid-transaction and read them back later.
    await db.api.exec('PRAGMA cache_size = 20; BEGIN');
    await db.api.insertRows(100, 60, 10_000);
    const before = (await db.api.stats())!.bufferedReads;
    expect(await db.api.verifyBlobs()).toEqual({ rows: 80, wrong: [] });
    expect((await db.api.stats())!.bufferedReads).toBeGreaterThan(before);
    await db.api.exec('ROLLBACK');
    expect(await db.api.all('SELECT count(*) AS n FROM blobs')).toEqual([{ n: 20 }]);

    // No spill: the journal is still only in the buffer when ROLLBACK plays it back.
    await db.api.exec('PRAGMA cache_size = -32768; BEGIN');
    await db.api.run('UPDATE blobs SET data = zeroblob(5) WHERE id < 10');
    expect(await db.api.all('SELECT sum(length(data)) AS n FROM blobs WHERE id < 10')).toEqual([{ n: 50 }]);
    await db.api.exec('ROLLBACK');
    expect(await db.api.verifyBlobs()).toEqual({ rows: 20, wrong: [] });
    expect(await db.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('keeps the database whole over many transactions, with a small buffer bound too, and after reopening', async () => {
    for (const maxBufferedBytes of [undefined, 64 * 1024]) {
      const db = await openDb({ ...(maxBufferedBytes ? { maxBufferedBytes } : {}) });
      await db.api.exec(SCHEMA);
      const model = new Map<number, number>();
      const random = createRandom(11, 'xorshift32');
      for (let t = 0; t < 150; t++) {
        await db.api.exec('BEGIN');
        for (let s = 0; s < 5; s++) {
          const id = random.int(0, 400);
          if (random.next() < 0.75) {
            const size = random.int(0, 30_000);
            await db.api.run('INSERT OR REPLACE INTO blobs (id, data) VALUES (?, zeroblob(?))', [id, size]);
            model.set(id, size);
          } else {
            await db.api.run('DELETE FROM blobs WHERE id = ?', [id]);
            model.delete(id);
          }
        }
        await db.api.exec('COMMIT');
      }
      const stats = (await db.api.stats())!;
      if (maxBufferedBytes) expect(stats.boundFlushes).toBeGreaterThan(0);
      expect(await db.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      await db.api.close();
      db.worker.terminate();

      const again = await reopen(db.name);
      const rows = await again.api.all('SELECT id, length(data) AS n FROM blobs ORDER BY id');
      expect(rows).toEqual([...model].sort((x, y) => x[0] - y[0]).map(([id, n]) => ({ id, n })));
      expect(await again.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      await again.api.close();
    }
  });

  it('survives the worker being killed in the middle of a large transaction that spilled', async () => {
    const name = uniqueName();
    names.push(name);
    let committed = 0;
    // Default bound: spilled pages wait in the buffer (agent.db untouched); small bounds: they reach agent.db.
    const rounds: [number, number | undefined][] = [
      [200, undefined],
      [450, 256 * 1024],
      [900, 64 * 1024],
    ];
    for (const [round, [stopAfter, maxBufferedBytes]] of rounds.entries()) {
      const db = await reopen(name, maxBufferedBytes);
      await db.api.exec(SCHEMA);
      expect(await db.api.insertBlobs(committed, 25)).toBeNull();
      committed += 25;
      await db.api.close();
      const dbSize = await fileSize(name);
      await db.api.open(name, { coalesce: true, ...(maxBufferedBytes ? { maxBufferedBytes } : {}) });
      // A small cache: SQLite syncs the journal and hands pages to the VFS long before COMMIT.
      await db.api.exec('PRAGMA cache_size = 50');
      void db.api.endlessTransaction(100_000 * (round + 1), 3000, 50).catch(() => undefined);
      await until(db, (m) => typeof m['progress'] === 'number' && m['progress'] >= stopAfter);
      db.worker.terminate();
      // What a killed tab leaves (WAL mode): agent.db as it was and, past the bound, frames of the unfinished
      // transaction in agent.db-wal (no commit frame among them).
      expect(await fileSize(name)).toBe(dbSize);
      if (maxBufferedBytes) expect(await fileSize(`${name}-wal`)).toBeGreaterThan(maxBufferedBytes);

      const after = await reopen(name);
      expect(await after.api.verifyBlobs()).toEqual({ rows: committed, wrong: [] });
      expect(await after.api.all("SELECT value FROM meta WHERE key = 'inserted'")).toEqual([
        { value: committed },
      ]);
      expect(await after.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(await after.api.insertBlobs(committed, 5)).toBeNull();
      committed += 5;
      await after.api.close();
      after.worker.terminate();
    }
  });

  it('a commit cut off by killing the worker is all or nothing', async () => {
    const name = uniqueName();
    names.push(name);
    let committed = 0;
    const outcomes: string[] = [];
    for (const [round, delay] of [0, 1, 3, 8, 20].entries()) {
      const db = await reopen(name);
      await db.api.exec(SCHEMA);
      expect(await db.api.insertBlobs(committed, 10)).toBeNull();
      committed += 10;
      const from = 1_000_000 * (round + 1);
      const count = 150;
      void db.api.bigCommit(from, count, 20_000).catch(() => undefined);
      await until(db, (m) => m['committing'] === true);
      await new Promise((resolve) => setTimeout(resolve, delay));
      db.worker.terminate();

      const after = await reopen(name);
      const { rows, wrong } = await after.api.verifyBlobs();
      expect(wrong).toEqual([]);
      expect([committed, committed + count]).toContain(rows);
      const inserted = await after.api.all("SELECT value FROM meta WHERE key = 'inserted'");
      expect(inserted).toEqual([{ value: rows }]);
      expect(await after.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      outcomes.push(rows === committed ? 'absent' : 'whole');
      committed = rows;
      await after.api.close();
      after.worker.terminate();
    }
    // Both outcomes are valid; what matters is that none is partial (checked above).
    expect(outcomes).toHaveLength(5);
  });

  it('a commit refused over a full quota keeps what earlier commits wrote: every page reads, then and after', async () => {
    // A WAL commit is padded to a sector boundary with copies of its commit frame; the part past the boundary is
    // written after the commit's sync, so it waits in the buffer until the next transaction's sync. When that sync
    // failed, the layer dropped the whole buffer with it: the wal-index named a frame the file lacked — the page
    // read as "disk I/O error" until a reload, then as zeros in agent.db (issue 29).
    const session = cdp();
    const origin = location.origin;
    const db = await openDb();
    await db.api.exec(SCHEMA);
    for (let t = 0; t < 4; t++) expect(await db.api.insertBlobs(t * 5, 5, 20_000)).toBeNull();
    const usage = (await navigator.storage.estimate()).usage ?? 0;
    await session.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage });
    try {
      expect((await db.api.insertBlobs(100, 1, 100))?.code).toBe('QuotaExceeded');
      // Pages read from the log again, not from SQLite's cache.
      await db.api.exec('PRAGMA cache_size = 2');
      expect(await db.api.verifyBlobs()).toEqual({ rows: 20, wrong: [] });
      expect(await db.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      await session.send('Storage.overrideQuotaForOrigin', { origin });
    }
    expect(await db.api.insertBlobs(200, 3, 1000)).toBeNull();
    await db.api.close();
    db.worker.terminate();
    const again = await reopen(db.name);
    expect(await again.api.verifyBlobs()).toEqual({ rows: 23, wrong: [] });
    expect(await again.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    await again.api.close();
  });

  it('a full quota raises QuotaExceeded at the flush and leaves nothing half-written', async () => {
    const session = cdp();
    const origin = location.origin;
    for (const maxBufferedBytes of [undefined, 256 * 1024]) {
      const db = await openDb({ ...(maxBufferedBytes ? { maxBufferedBytes } : {}) });
      await db.api.exec(SCHEMA);
      expect(await db.api.insertBlobs(0, 20, 4000)).toBeNull();
      const usage = (await navigator.storage.estimate()).usage ?? 0;
      await session.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 512 * 1024 });
      try {
        // 6 MiB of incompressible rows in one transaction: far past the room left.
        const error = await db.api.insertBlobs(100, 300, 20_000);
        expect(error?.code, error?.message).toBe('QuotaExceeded');
        expect(error?.message).toMatch(/quota/i);
        expect(await db.api.verifyBlobs()).toEqual({ rows: 20, wrong: [] });
        expect(await db.api.all("SELECT value FROM meta WHERE key = 'inserted'")).toEqual([{ value: 20 }]);
        expect(await db.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      } finally {
        await session.send('Storage.overrideQuotaForOrigin', { origin });
      }
      // With room again the same connection writes on, and a fresh worker sees the same whole database.
      expect(await db.api.insertBlobs(100, 30, 20_000)).toBeNull();
      await db.api.close();
      db.worker.terminate();
      const again = await reopen(db.name);
      expect(await again.api.verifyBlobs()).toEqual({ rows: 50, wrong: [] });
      expect(await again.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      await again.api.close();
    }
  });
});
