/**
 * Imports that cannot destroy the brain (issue 13, findings 1–6) on real OPFS in Chromium: a file past the free
 * quota is refused before anything is written; a kill at any instant of an import leaves the old or the new
 * database, whole; a database that is not exactly ours (planted trigger or view, missing table, wrong column,
 * unparsable JSON) is refused naming what differs, and the brain after each refusal is as it was; a WAL-mode file
 * is accepted; an emptied agent.db is reported, never opened as a new brain.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { openBrain, type Brain, type BrainWorker } from '../../src/lib/index';
import { createRandom } from '../helpers/random';
import { alterDatabase, integrityOf } from './page-sqlite';
import { untilReleased } from './settle';

const open: Brain[] = [];
const created: string[] = [];
let counter = 0;
const uniqueName = () => {
  const name = `import-${Date.now().toString(36)}-${++counter}.db`;
  created.push(name);
  return name;
};

/** These tests write hundreds of MiB: each database's files go once its brain is closed (the quota is shared). */
async function removeFiles(dbName: string) {
  const root = await navigator.storage.getDirectory();
  for (const suffix of ['', '-journal', '.brain', '-install', '-install.commit']) {
    await root.removeEntry(`${dbName}${suffix}`).catch(() => undefined);
  }
  await root.removeEntry(`${dbName}-install.files`, { recursive: true }).catch(() => undefined);
}

async function brainNamed(dbName: string, options: { startEmpty?: boolean } = {}) {
  const brain = await openBrain({ dbName, closeOnPageHide: false, ...options });
  open.push(brain);
  return brain;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((brain) => brain.close()));
  for (const name of created.splice(0)) await removeFiles(name);
});

/** A brain holding `sessions` sessions, exported; a fingerprint to tell it from another. */
async function makeBrain(sessions: number, bigSummaries = 0) {
  const dbName = uniqueName();
  const brain = await brainNamed(dbName);
  for (let i = 0; i < sessions; i++) await brain.startSession({ title: `s${i}` });
  let bytes = await brain.exportDatabase();
  if (bigSummaries > 0) {
    // 4 MiB of incompressible text per row, inserted on the page's own SQLite: a large, valid agent.db.
    bytes = await alterDatabase(
      bytes,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${bigSummaries})
       INSERT INTO summaries (session_id, kind, content, created_at)
       SELECT 1, 'bulk', hex(randomblob(2 * 1024 * 1024)), 0 FROM n`,
    );
  }
  await brain.close();
  open.splice(open.indexOf(brain), 1);
  return bytes;
}

/** Which brain this is: its sessions and summaries counted (the bulk summaries' 4 MiB texts not fetched). */
async function fingerprint(brain: Brain) {
  const sessions = await brain.listSessions();
  const { counts } = await brain.audit();
  return { sessions: sessions.length, summaries: counts.summaries };
}

/** The old brain, put in place as its file (what an earlier session of the app left), without a worker. */
async function placeDatabase(dbName: string, bytes: Uint8Array) {
  const root = await navigator.storage.getDirectory();
  const writable = await (await root.getFileHandle(dbName, { create: true })).createWritable();
  await writable.write(bytes as Uint8Array<ArrayBuffer>);
  await writable.close();
}

describe('imports that cannot lose the brain', () => {
  it('refuses a database bigger than the free quota before writing anything (finding 1)', async () => {
    const big = await makeBrain(1, 6); // ~24 MiB
    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    await brain.startSession({ title: 'mine' });
    const before = await fingerprint(brain);
    const session = cdp();
    const usage = (await navigator.storage.estimate()).usage ?? 0;
    await session.send('Storage.overrideQuotaForOrigin', {
      origin: location.origin,
      quotaSize: usage + big.byteLength / 2,
    });
    try {
      await expect(brain.importDatabase(big.slice())).rejects.toMatchObject({ code: 'QuotaExceeded' });
    } finally {
      await session.send('Storage.overrideQuotaForOrigin', { origin: location.origin });
    }
    expect(await fingerprint(brain)).toEqual(before);
    expect(await brain.integrityCheck()).toEqual(['ok']);
    await brain.close();
    const again = await brainNamed(dbName);
    expect(await fingerprint(again)).toEqual(before);
    // Nothing of the refused candidate stays behind.
    const root = await navigator.storage.getDirectory();
    const names: string[] = [];
    for await (const key of (root as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(key);
    expect(names.filter((n) => n.startsWith(`${dbName}-install`))).toEqual([]);
  });

  // 32 MiB: twice the write-coalescing bound (16 MiB), so the copy flushes mid-way as a larger one does; a kill lands
  // in each phase (staging, the commit record, the copy) as often, as the instants are spread over the call.
  it('a kill at 20 random instants of a 32 MiB import leaves the old or the new database, whole (finding 2)', async () => {
    const next = await makeBrain(2, 8); // ~32 MiB, 8 bulk summaries
    const old = { sessions: 5, summaries: 0 };
    const oldBytes = await makeBrain(old.sessions);
    const fresh = { sessions: 2, summaries: 8 };
    expect(next.byteLength).toBeGreaterThan(32 * 1024 * 1024);

    // How long one whole import takes here, to spread the kills over it.
    const timed = uniqueName();
    const timer = await brainNamed(timed);
    await timer.importDatabase(oldBytes.slice());
    const started = performance.now();
    await timer.importDatabase(next.slice());
    const duration = performance.now() - started;
    await timer.close();

    const random = createRandom(13);
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      const dbName = uniqueName();
      await placeDatabase(dbName, oldBytes);

      const worker = new Worker(new URL('../../src/worker/brain.worker.ts', import.meta.url), {
        type: 'module',
      });
      const remote = Comlink.wrap<BrainWorker>(worker);
      await remote.open({ dbName });
      // Half the kills anywhere in the call, half in its last part, where the file is replaced.
      const at = round % 2 === 0 ? random.next() * duration * 1.1 : duration * (0.5 + random.next() * 0.6);
      const call = remote.importDatabase(next).then(
        () => 'finished',
        () => 'failed',
      );
      await new Promise((resolve) => setTimeout(resolve, at));
      worker.terminate();
      void call;
      await untilReleased(dbName);

      const after = await brainNamed(dbName);
      expect(await integrityOf(await after.exportDatabase())).toEqual(['ok']);
      const seen = await fingerprint(after);
      expect([old, fresh]).toContainEqual(seen);
      outcomes.push(seen.sessions === old.sessions ? 'old' : 'new');
      await after.close();
      open.splice(open.indexOf(after), 1);
      await removeFiles(dbName);
    }
    // Both outcomes are valid; none may be partial (checked above). Report the mix for the record.
    expect(outcomes).toHaveLength(20);
    console.info(`kills during a 32 MiB import (${Math.round(duration)} ms): ${outcomes.join(' ')}`);
  }, 600_000);

  it('a kill at 20 random instants of an importBrain leaves the old brain or the new one, files included', async () => {
    // The new brain: 2 sessions, 2 bulk summaries (~8 MiB) and a MEMORY.md that says "new".
    const source = await brainNamed(uniqueName());
    await source.openProject({ kind: 'opfs', name: `src-${uniqueName()}`, create: true });
    await source.createAgentFolder();
    const memory = async (b: Brain, text: string) =>
      b.writeAgentFile('.agent/MEMORY.md', text, {
        expectedVersion: (await b.readAgentFile('.agent/MEMORY.md')).version,
      });
    await memory(source, '# Memory\n\n- new\n');
    await source.importDatabase(await makeBrain(2, 2));
    const archive = await source.exportBrain();
    const fresh = await fingerprint(source);
    await source.close();
    open.splice(open.indexOf(source), 1);
    const old = { sessions: 4, summaries: 0 };
    const oldBytes = await makeBrain(old.sessions);

    const prepare = async () => {
      const dbName = uniqueName();
      const project = `p-${dbName}`;
      const seed = await brainNamed(dbName);
      await seed.importDatabase(oldBytes.slice());
      await seed.openProject({ kind: 'opfs', name: project, create: true });
      await seed.createAgentFolder();
      await memory(seed, '# Memory\n\n- old\n');
      await seed.close();
      open.splice(open.indexOf(seed), 1);
      return { dbName, project };
    };
    const timedTarget = await prepare();
    const timer = await brainNamed(timedTarget.dbName);
    await timer.openProject({ kind: 'opfs', name: timedTarget.project });
    const started = performance.now();
    await timer.importBrain(archive.slice());
    const duration = performance.now() - started;
    await timer.close();
    open.splice(open.indexOf(timer), 1);

    const random = createRandom(14);
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      const { dbName, project } = await prepare();
      const worker = new Worker(new URL('../../src/worker/brain.worker.ts', import.meta.url), {
        type: 'module',
      });
      const remote = Comlink.wrap<BrainWorker>(worker);
      await remote.open({ dbName });
      await remote.openProject({ kind: 'opfs', name: project });
      const at = round % 2 === 0 ? random.next() * duration * 1.1 : duration * (0.5 + random.next() * 0.6);
      void remote.importBrain(archive.slice()).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, at));
      worker.terminate();
      await untilReleased(dbName);

      const after = await brainNamed(dbName);
      expect(await integrityOf(await after.exportDatabase())).toEqual(['ok']);
      const seen = await fingerprint(after);
      expect([old, fresh]).toContainEqual(seen);
      await after.openProject({ kind: 'opfs', name: project });
      const text = (await after.readAgentFile('.agent/MEMORY.md')).text;
      const outcome = seen.sessions === old.sessions ? 'old' : 'new';
      expect(text).toContain(`- ${outcome}`);
      outcomes.push(outcome);
      await after.closeProject();
      await after.deleteProject(project);
      await after.close();
      open.splice(open.indexOf(after), 1);
      await removeFiles(dbName);
    }
    expect(outcomes).toHaveLength(20);
    console.info(`kills during an importBrain (${Math.round(duration)} ms): ${outcomes.join(' ')}`);
  }, 600_000);

  it('an emptied agent.db where a brain was kept is reported, not opened as a new brain (finding 2, item 4)', async () => {
    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    await brain.startSession({ title: 'precious' });
    await brain.close();
    open.splice(open.indexOf(brain), 1);
    await untilReleased(dbName);
    const root = await navigator.storage.getDirectory();
    const writable = await (await root.getFileHandle(dbName)).createWritable();
    await writable.truncate(0);
    await writable.close();

    await expect(openBrain({ dbName, closeOnPageHide: false })).rejects.toMatchObject({
      code: 'BrainMissing',
      message: expect.stringMatching(/empty, though a brain was kept here/),
    });
    // Control: a database that never existed opens as a new brain.
    const brandNew = await brainNamed(uniqueName());
    expect(await brandNew.listSessions()).toEqual([]);
    // The person chose to start over: then it opens, empty, and stays openable.
    const restarted = await brainNamed(dbName, { startEmpty: true });
    expect(await restarted.listSessions()).toEqual([]);
    await restarted.startSession({ title: 'again' });
    await restarted.close();
    const reopened = await brainNamed(dbName);
    expect((await reopened.listSessions()).map((s) => s.title)).toEqual(['again']);
  });
});

describe('a database held to the schema (findings 3, 4, 6)', () => {
  const planted: readonly [what: string, sql: string, names: RegExp][] = [
    [
      'a planted trigger',
      `CREATE TABLE loot (t TEXT);
       CREATE TRIGGER adv_wipe AFTER INSERT ON events BEGIN DELETE FROM sessions; END;`,
      /unexpected trigger adv_wipe on events/,
    ],
    [
      'a view with an INSTEAD OF trigger in place of a table',
      `ALTER TABLE messages RENAME TO messages_real;
       CREATE VIEW messages AS SELECT * FROM messages_real;
       CREATE TRIGGER swallow INSTEAD OF INSERT ON messages BEGIN SELECT 1; END;`,
      /messages is a view where the schema has a table/,
    ],
    ['a missing table', 'DROP TABLE events;', /missing table events/],
    ['a wrong column', 'ALTER TABLE tasks DROP COLUMN pinned;', /table tasks differs from the schema/],
  ];

  for (const [what, sql, names] of planted) {
    it(`refuses ${what} with SchemaMismatch naming it, and the brain stays as it was`, async () => {
      const source = await makeBrain(1);
      const bad = await alterDatabase(source, sql);
      const brain = await brainNamed(uniqueName());
      await brain.startSession({ title: 'mine' });
      await brain.recordMessage({
        sessionId: (await brain.listSessions())[0]!.id,
        role: 'user',
        content: 'hi',
      });
      const before = await fingerprint(brain);
      const error = await brain.importDatabase(bad).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'SchemaMismatch', message: expect.stringMatching(names) });
      expect(await fingerprint(brain)).toEqual(before);
      const sessionId = (await brain.listSessions())[0]!.id;
      await brain.recordMessage({ sessionId, role: 'user', content: 'after' });
      expect((await brain.listMessages(sessionId)).map((m) => m.content)).toEqual(['hi', 'after']);
    });
  }

  it('refuses rows whose JSON does not parse, naming them', async () => {
    const source = await makeBrain(1);
    const bad = await alterDatabase(
      source,
      `INSERT INTO events (session_id, kind, text, data, created_at) VALUES (1, 'note', 'x', '{oops', 0)`,
    );
    const brain = await brainNamed(uniqueName());
    await expect(brain.importDatabase(bad)).rejects.toMatchObject({
      code: 'CorruptDatabase',
      message: expect.stringMatching(/events 1 \(data\)/),
    });
  });

  it('accepts its own export unchanged (control) and a WAL-mode file, converting it', async () => {
    const source = await makeBrain(3);
    const brain = await brainNamed(uniqueName());
    await brain.importDatabase(source.slice());
    expect((await fingerprint(brain)).sessions).toBe(3);
    const wal = await alterDatabase(source, 'PRAGMA journal_mode = WAL');
    expect([wal[18], wal[19]]).toEqual([2, 2]);
    await brain.importDatabase(wal);
    expect((await fingerprint(brain)).sessions).toBe(3);
    const exported = await brain.exportDatabase();
    expect([exported[18], exported[19]]).toEqual([1, 1]);
    expect(await brain.integrityCheck()).toEqual(['ok']);
  });
});
