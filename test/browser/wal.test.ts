/**
 * agent.db on OPFS in write-ahead-log mode (src/storage/sqlite/vfs/open.ts), in real Chromium on real OPFS: a commit is
 * one append to agent.db-wal; what is committed survives a killed worker; the whole-file port (export, install)
 * never works on a file whose WAL holds frames; the engine runs a WAL checkpoint at idle, after its deferred search
 * indexing; export and import through the engine see every transaction and leave no stale frame.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain, type BrainWorker, type ImportProgress } from '../../src/lib/index';
import { bashSession } from '../fixtures/bash-session';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import type { CoalescingWorkerApi } from './coalescing-vfs.worker';
import { integrityOf, queryOf } from './page-sqlite';
import { untilReleased } from './settle';

let counter = 0;
const names: string[] = [];
const uniqueName = () => {
  const name = `wal-${Date.now().toString(36)}-${++counter}.db`;
  names.push(name);
  return name;
};
const workers: Worker[] = [];
const brains: Brain[] = [];

afterEach(async () => {
  await Promise.all(brains.splice(0).map((brain) => brain.close().catch(() => undefined)));
  for (const worker of workers.splice(0)) worker.terminate();
  const root = await navigator.storage.getDirectory();
  for (const name of names.splice(0)) {
    await untilReleased(name);
    for (const suffix of ['', '-journal', '-wal', '.brain'])
      await root.removeEntry(name + suffix).catch(() => undefined);
  }
});

/** An OPFS file's size (0 when absent); readable while a worker holds the file's sync access handle. */
async function fileSize(name: string): Promise<number> {
  const root = await navigator.storage.getDirectory();
  try {
    return (await (await root.getFileHandle(name)).getFile()).size;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return 0;
    throw error;
  }
}

async function fileBytes(name: string): Promise<Uint8Array> {
  const root = await navigator.storage.getDirectory();
  return new Uint8Array(await (await (await root.getFileHandle(name)).getFile()).arrayBuffer());
}

/** The production OPFS engine on a worker of its own (coalescing-vfs.worker.ts), nothing open yet. */
async function sqliteWorker() {
  const worker = new Worker(new URL('./coalescing-vfs.worker.ts', import.meta.url), { type: 'module' });
  workers.push(worker);
  const api = Comlink.wrap<CoalescingWorkerApi>(worker);
  return { worker, api };
}

/** The same, with `name` open. */
async function openSqlite(name: string) {
  const spawned = await sqliteWorker();
  await spawned.api.open(name, { coalesce: true });
  return spawned;
}

const SCHEMA =
  'CREATE TABLE IF NOT EXISTS blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL);' +
  'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);' +
  "INSERT OR IGNORE INTO meta VALUES ('inserted', 0);";

/** The brain's own worker, started bare (the test opens it over Comlink and may terminate it). */
function brainWorker(): Worker {
  const worker = new Worker(new URL('../../src/worker/brain.worker.ts', import.meta.url), { type: 'module' });
  workers.push(worker);
  return worker;
}

async function brainNamed(dbName: string) {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  brains.push(brain);
  return brain;
}

async function closeBrain(brain: Brain) {
  await brain.close();
  brains.splice(brains.indexOf(brain), 1);
}

describe('agent.db in WAL mode, at the SQLite level', () => {
  it('is in WAL mode with exclusive locking; a commit is one write to the WAL, agent.db written at a WAL checkpoint', async () => {
    const name = uniqueName();
    const { api } = await openSqlite(name);
    expect(await api.all('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(await api.all('PRAGMA locking_mode')).toEqual([{ locking_mode: 'exclusive' }]);
    expect(await api.all('PRAGMA wal_autocheckpoint')).toEqual([{ wal_autocheckpoint: 8192 }]);
    await api.exec(SCHEMA);
    expect(await api.insertBlobs(0, 5)).toBeNull();
    const dbSize = await fileSize(name);

    for (let round = 1; round <= 3; round++) {
      const before = (await api.stats())!;
      const walBefore = await fileSize(`${name}-wal`);
      // 40 rows of 1–21 KB in one transaction: a few hundred pages, several hundred frame writes by SQLite.
      expect(await api.insertBlobs(round * 100, 40)).toBeNull();
      const after = (await api.stats())!;
      expect(after.writes - before.writes).toBeGreaterThan(200);
      expect(after.flushedWrites - before.flushedWrites, `OPFS writes of commit ${round}`).toBe(1);
      expect(await fileSize(`${name}-wal`)).toBeGreaterThan(walBefore + 40 * 1000);
      expect(await fileSize(name)).toBe(dbSize);
    }

    expect(await api.all('PRAGMA wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
    expect(await fileSize(`${name}-wal`)).toBe(0);
    expect(await fileSize(name)).toBeGreaterThan(dbSize + 3 * 40 * 1000);
    expect(await api.verifyBlobs()).toEqual({ rows: 125, wrong: [] });
  });

  it('a commit that rewrites its frames’ checksums (pages spilled twice) stays a few OPFS writes, and whole', async () => {
    const name = uniqueName();
    const first = await sqliteWorker();
    // A 64 KiB bound: the spilled frames reach the file before COMMIT, so the rewrites land between them.
    await first.api.open(name, { coalesce: true, maxBufferedBytes: 64 * 1024 });
    await first.api.exec(SCHEMA);
    // A 20-page cache: the transaction spills its pages into the WAL, then spills the first ones again (SQLite
    // overwrites those frames in place), so at COMMIT it rewrites the checksum of every frame after them.
    await first.api.exec('PRAGMA cache_size = 20; BEGIN');
    await first.api.insertRows(0, 300, 3000);
    await first.api.run('DELETE FROM blobs WHERE id < 20');
    await first.api.insertRows(0, 20, 3000);
    await first.api.run("UPDATE meta SET value = 300 WHERE key = 'inserted'");
    const before = (await first.api.stats())!;
    await first.api.exec('COMMIT');
    const after = (await first.api.stats())!;
    // Several hundred frame headers rewritten by SQLite; a handful of runs reach OPFS.
    expect(after.writes - before.writes).toBeGreaterThan(200);
    expect(after.flushedWrites - before.flushedWrites).toBeLessThan(30);
    first.worker.terminate();
    await untilReleased(name);

    const again = await openSqlite(name);
    expect(await again.api.verifyBlobs()).toEqual({ rows: 300, wrong: [] });
    expect(await again.api.all("SELECT value FROM meta WHERE key = 'inserted'")).toEqual([{ value: 300 }]);
    expect(await again.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('what was committed survives the worker being killed before any WAL checkpoint', async () => {
    const name = uniqueName();
    const first = await openSqlite(name);
    await first.api.exec(SCHEMA);
    for (let t = 0; t < 10; t++) expect(await first.api.insertBlobs(t * 10, 10)).toBeNull();
    const mainSize = await fileSize(name);
    first.worker.terminate();
    await untilReleased(name);
    // The kill left the ten transactions in the WAL alone: agent.db does not hold them.
    expect(await fileSize(`${name}-wal`)).toBeGreaterThan(100 * 1000);
    expect(await fileSize(name)).toBe(mainSize);

    const again = await openSqlite(name);
    expect(await again.api.verifyBlobs()).toEqual({ rows: 100, wrong: [] });
    expect(await again.api.all("SELECT value FROM meta WHERE key = 'inserted'")).toEqual([{ value: 100 }]);
    expect(await again.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    await again.api.close();
    expect(await fileSize(`${name}-wal`)).toBe(0);
  });

  it('the whole-file port refuses a file whose WAL holds frames, for a read and for an install, and loses nothing', async () => {
    const name = uniqueName();
    const other = uniqueName();
    // A whole other database to install, written and closed cleanly.
    const donor = await openSqlite(other);
    await donor.api.exec(SCHEMA);
    expect(await donor.api.insertBlobs(5000, 3)).toBeNull();
    await donor.api.close();
    const donorBytes = await donor.api.read(other);
    if (!(donorBytes instanceof Uint8Array)) throw new Error(donorBytes.message);

    const first = await openSqlite(name);
    await first.api.exec(SCHEMA);
    expect(await first.api.insertBlobs(0, 30)).toBeNull();
    first.worker.terminate();
    await untilReleased(name);
    const wal = await fileSize(`${name}-wal`);
    expect(wal).toBeGreaterThan(0);
    const main = await fileBytes(name);

    const port = await sqliteWorker();
    expect(await port.api.read(name)).toMatchObject({
      code: 'Internal',
      message: expect.stringMatching(/-wal/),
    });
    expect(await port.api.install(name, donorBytes)).toMatchObject({ code: 'Internal' });
    // Nothing was touched: the database and its log as the kill left them.
    expect(await fileSize(`${name}-wal`)).toBe(wal);
    expect(await fileBytes(name)).toEqual(main);
    await port.api.open(name, { coalesce: true });
    expect(await port.api.verifyBlobs()).toEqual({ rows: 30, wrong: [] });

    // Control: once a clean close has emptied the log, the same port reads and installs.
    await port.api.close();
    expect(await fileSize(`${name}-wal`)).toBe(0);
    const read = await port.api.read(name);
    if (!(read instanceof Uint8Array)) throw new Error(read.message);
    expect(await queryOf(read, 'SELECT count(*) AS n FROM blobs')).toEqual([{ n: 30 }]);
    expect(await port.api.install(name, donorBytes)).toBeNull();
    await port.api.open(name, { coalesce: true });
    expect(await port.api.all('SELECT id FROM blobs ORDER BY id')).toEqual([
      { id: 5000 },
      { id: 5001 },
      { id: 5002 },
    ]);
    expect(await port.api.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });
});

/** 69 SWE-bench-shaped bash calls. */
const steps = bashSession(7).steps;

async function recordCalls(brain: Brain, count: number) {
  const { id: sessionId } = await brain.startSession({ title: 'wal' });
  const { id: taskId } = await brain.startTask({ sessionId, title: 'wal', makeCurrent: false });
  await brain.recordToolCalls(
    steps.slice(0, count).map((s) => ({
      sessionId,
      taskId,
      root: '/testbed',
      call: { tool: 'bash', input: { command: s.command }, output: s.output, exitCode: s.exitCode },
    })),
  );
  return sessionId;
}

describe('agent.db in WAL mode, through the engine', () => {
  it('a brand-new brain is in its file at once: a kill right after the first open is no BrainMissing', async () => {
    const dbName = uniqueName();
    const worker = brainWorker();
    const remote = Comlink.wrap<BrainWorker>(worker);
    await remote.open({ dbName });
    // The migrations' pages are in agent.db, not only in the log: the file alone holds the whole schema.
    const [schema] = await queryOf<{ tables: number }>(
      await fileBytes(dbName),
      `SELECT count(*) AS tables FROM sqlite_schema WHERE type = 'table'`,
    );
    expect(schema!.tables).toBeGreaterThan(10);
    // Set before the switch to WAL wrote the first page (which fixes it): free pages can be given back.
    expect(await queryOf(await fileBytes(dbName), 'PRAGMA auto_vacuum')).toEqual([{ auto_vacuum: 2 }]);
    worker.terminate();
    await untilReleased(dbName);
    const brain = await brainNamed(dbName);
    expect(await brain.listSessions()).toEqual([]);
    expect(await brain.integrityCheck()).toEqual(['ok']);
  });

  it('checkpoints the WAL once the engine is idle, after the search indexing behind the writes caught up', async () => {
    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    await recordCalls(brain, steps.length);
    // Control: right after the call the steps are in the log only (the WAL checkpoint waits for a quiet time).
    expect(await fileSize(`${dbName}-wal`)).toBeGreaterThan(0);
    await expect.poll(() => fileSize(`${dbName}-wal`), { timeout: 20_000 }).toBe(0);
    // agent.db alone now holds every step and its search document: the indexing came before the WAL checkpoint.
    const file = await fileBytes(dbName);
    expect(
      await queryOf(
        file,
        `SELECT (SELECT count(*) FROM steps) AS steps,
                (SELECT count(*) FROM history_docs WHERE source = 'step') AS docs,
                (SELECT pending_from FROM history_backfill) AS pending`,
      ),
    ).toEqual([{ steps: steps.length, docs: steps.length, pending: null }]);
    expect(await integrityOf(file)).toEqual(['ok']);
  });

  it('an export right after writes holds them all, as a rollback-journal file', async () => {
    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    const sessionId = await recordCalls(brain, 50);
    await brain.recordMessage({ sessionId, role: 'user', content: 'the last word' });
    expect(await fileSize(`${dbName}-wal`)).toBeGreaterThan(0);
    const exported = await brain.exportDatabase();
    expect([exported[18], exported[19]]).toEqual([1, 1]);
    expect(await integrityOf(exported)).toEqual(['ok']);
    expect(
      await queryOf(
        exported,
        `SELECT (SELECT count(*) FROM steps) AS steps,
                (SELECT content FROM messages ORDER BY id DESC LIMIT 1) AS last`,
      ),
    ).toEqual([{ steps: 50, last: 'the last word' }]);
    // The brain goes on in WAL mode after the export reopened it.
    await brain.recordMessage({ sessionId, role: 'user', content: 'after' });
    expect(await fileSize(`${dbName}-wal`)).toBeGreaterThan(0);
  });

  it('an import over a brain whose WAL holds frames leaves no stale frame, before and after a kill', async () => {
    const source = await brainNamed(uniqueName());
    for (const title of ['a', 'b', 'c']) await source.startSession({ title });
    const imported = await source.exportDatabase();
    await closeBrain(source);

    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    await recordCalls(brain, 100);
    for (let i = 0; i < 5; i++) await brain.startSession({ title: `old ${i}` });
    expect(await fileSize(`${dbName}-wal`)).toBeGreaterThan(0);
    await brain.importDatabase(imported.slice());
    expect((await brain.listSessions()).map((s) => s.title).sort()).toEqual(['a', 'b', 'c']);
    expect(await brain.integrityCheck()).toEqual(['ok']);
    // Written after the import, then the worker killed: the next open replays the new brain's frames only.
    await brain.startSession({ title: 'd' });
    const worker = brainWorker();
    await closeBrain(brain);
    const remote = Comlink.wrap<BrainWorker>(worker);
    await remote.open({ dbName });
    await remote.startSession({ title: 'e' });
    expect(await fileSize(`${dbName}-wal`)).toBeGreaterThan(0);
    worker.terminate();
    await untilReleased(dbName);
    const after = await brainNamed(dbName);
    expect((await after.listSessions()).map((s) => s.title).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await after.integrityCheck()).toEqual(['ok']);
    const { counts } = await after.audit();
    expect(counts.steps).toBe(0);
  });
});

/** A write after the import lands in the WAL, not in agent.db: the brain is in WAL mode again. */
async function expectWalMode(brain: Brain, dbName: string) {
  const main = await fileSize(dbName);
  const wal = await fileSize(`${dbName}-wal`);
  await brain.startSession({ title: 'after the import' });
  expect(await fileSize(`${dbName}-wal`)).toBeGreaterThan(wal);
  expect(await fileSize(dbName)).toBe(main);
}

const transcript = () => {
  const { main } = generateClaudeCodeSession(15, 120);
  return { files: [{ name: main.name, data: main.bytes }] };
};

/*
 * A transcript import on a WAL brain runs with a rollback journal (src/storage/sqlite/journal-mode.ts: its one large
 * transaction of new pages is written once, not to the log and again at a WAL checkpoint) and leaves the brain in WAL
 * mode — also when the worker is killed in the middle of it: the hot journal is rolled back at the next open, which
 * puts the brain in WAL mode again, with nothing of the import and everything from before.
 */
describe('a transcript import on a WAL brain', () => {
  it('runs with a rollback journal and leaves the brain in WAL mode', async () => {
    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    await brain.startSession({ title: 'before the import' });
    const before = await fileSize(dbName);
    const input = transcript();
    const { sessions } = await brain.importTranscript(input);
    expect(sessions).toHaveLength(1);
    // Its pages went into agent.db at once, not through the log (in WAL mode they would sit in agent.db-wal until
    // the idle WAL checkpoint, 200 ms after the last call); the log holds only what came after the commit (the
    // imported session's compression).
    const grown = (await fileSize(dbName)) - before;
    // (The import's history is stored compactly since migration 15: 512 KiB here, where it was several MiB.)
    expect(grown).toBeGreaterThan(256 * 1024);
    expect(await fileSize(`${dbName}-wal`)).toBeLessThan(grown / 2);
    await expectWalMode(brain, dbName);
    expect(await brain.listImportedSessions()).toHaveLength(1);
    expect(await brain.integrityCheck()).toEqual(['ok']);
  });

  it('killed in the middle, leaves the brain as it was, in WAL mode, at the next open', async () => {
    const dbName = uniqueName();
    const worker = brainWorker();
    const remote = Comlink.wrap<BrainWorker>(worker);
    await remote.open({ dbName });
    const { id: sessionId } = await remote.startSession({ title: 'kept' });
    await remote.recordNote({ sessionId, text: 'written before the import' });
    const input = transcript();
    const total = input.files[0]!.data.byteLength;
    let killedAt: ImportProgress | null = null;
    const importing = remote.importTranscript(
      input,
      Comlink.proxy((progress: ImportProgress) => {
        // Past half of the transcript the transaction has written pages: the kill leaves a hot journal.
        if (killedAt === null && progress.bytesDone >= total / 2 && progress.phase === 'reading') {
          killedAt = progress;
          worker.terminate();
        }
      }),
    );
    void importing.catch(() => undefined); // never answered: the worker is gone
    await expect.poll(() => killedAt, { timeout: 20_000 }).not.toBeNull();
    expect(killedAt!.toolCalls).toBeGreaterThan(0);
    await untilReleased(dbName);
    expect(await fileSize(`${dbName}-journal`)).toBeGreaterThan(0);

    const again = await brainNamed(dbName);
    expect(await again.listImportedSessions()).toEqual([]);
    const events = await again.listEvents(sessionId);
    expect(events.some((e) => 'text' in e && e.text === 'written before the import')).toBe(true);
    expect(await again.integrityCheck()).toEqual(['ok']);
    await expectWalMode(again, dbName);
    // And the import, done again, is whole.
    expect((await again.importTranscript(transcript())).sessions).toHaveLength(1);
  });
});
