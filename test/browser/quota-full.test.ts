/**
 * A full disk never poisons the brain (issue 29), on real OPFS in Chromium with the quota filled the way the
 * other quota tests fill it (DevTools' `Storage.overrideQuotaForOrigin`: writes past it fail, the storage estimate
 * does not see it, so checks made ahead from the estimate pass and the write itself is what fails). For every
 * operation that writes — compact, maintain, the idle WAL checkpoint, cleanup, a transcript import, `.agent` file
 * writes, the whole-brain archive — over a full quota: the operation is refused with `QuotaExceeded` (never `Busy`,
 * never `Internal`); meanwhile the brain answers every call and `integrityCheck()` is ok; once room is made the
 * same brain writes again and the same operation succeeds (the control: the quota was what refused it); and a
 * fresh connection reads the same whole brain from disk (what SQLite's page cache could hide).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { openBrain, type Brain, type SessionId, type TaskId } from '../../src/lib/index';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { createRandom } from '../helpers/random';

const MiB = 1024 * 1024;
const open: Brain[] = [];
const created: string[] = [];
let counter = 0;
const unique = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

const session = cdp();
const origin = location.origin;

/** Leaves `room` bytes of quota above what the origin uses now. */
async function fillQuota(room: number): Promise<void> {
  const { usage = 0 } = await navigator.storage.estimate();
  await session.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + room });
}

const makeRoom = () => session.send('Storage.overrideQuotaForOrigin', { origin });

async function fileSize(name: string): Promise<number> {
  const root = await navigator.storage.getDirectory();
  try {
    return (await (await root.getFileHandle(name)).getFile()).size;
  } catch {
    return 0;
  }
}

async function brainNamed(dbName: string): Promise<Brain> {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  open.push(brain);
  await brain.setAutoCleanup({ enabled: false });
  return brain;
}

async function closeBrain(brain: Brain): Promise<void> {
  open.splice(open.indexOf(brain), 1);
  await brain.close();
}

afterEach(async () => {
  await makeRoom();
  await Promise.all(open.splice(0).map((brain) => brain.close()));
  const root = await navigator.storage.getDirectory();
  for (const name of created.splice(0)) {
    for (const suffix of ['', '-wal', '-journal', '.brain', '-install', '-install.commit'])
      await root.removeEntry(`${name}${suffix}`).catch(() => undefined);
  }
});

/**
 * `bytes` pseudo-random bytes as base64 (4/3 as many characters): text that zlib cannot pack below `bytes` (steps
 * are stored packed; hex of random bytes packed to about half).
 */
function noise(seed: number, bytes: number): string {
  const random = createRandom(seed, 'xorshift32');
  const raw = new Uint8Array(bytes);
  const view = new DataView(raw.buffer);
  for (let at = 0; at + 4 <= bytes; at += 4) view.setUint32(at, random.uint32());
  let text = '';
  for (let at = 0; at < bytes; at += 8192) text += String.fromCharCode(...raw.subarray(at, at + 8192));
  return btoa(text);
}

interface Seeded {
  readonly brain: Brain;
  readonly dbName: string;
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
  /** Each step's output, in order. */
  readonly outputs: string[];
}

/** A brain holding `steps` steps of `stepBytes` each in one task; its WAL emptied into agent.db when `settle`. */
async function seeded(steps = 8, stepBytes = 512 * 1024, settle = true): Promise<Seeded> {
  const dbName = `${unique('quota')}.db`;
  created.push(dbName);
  const brain = await brainNamed(dbName);
  const { id: sessionId } = await brain.startSession({ title: 'kept' });
  const { id: taskId } = await brain.startTask({ sessionId, title: 'kept task' });
  const outputs: string[] = [];
  for (let i = 0; i < steps; i++) {
    const output = noise(i + 1, stepBytes);
    outputs.push(output);
    await brain.recordStep({ taskId, tool: 'run', params: { i }, result: { output }, status: 'ok' });
  }
  // The idle WAL checkpoint (and the indexing before it) has run: the next write starts a fresh log.
  if (settle) await untilWalEmpty(dbName);
  return { brain, dbName, sessionId, taskId, outputs };
}

const untilWalEmpty = (dbName: string) =>
  expect.poll(() => fileSize(`${dbName}-wal`), { timeout: 20_000 }).toBe(0);

/** A task beside the kept one, with 1 MiB of steps, marked superseded: what a cleanup cleans. */
async function oldTask(seed: Seeded, noiseSeed: number): Promise<TaskId> {
  const { id } = await seed.brain.startTask({ sessionId: seed.sessionId, title: 'old', makeCurrent: false });
  for (let i = 0; i < 4; i++) {
    const output = noise(noiseSeed + i, 256 * 1024);
    await seed.brain.recordStep({ taskId: id, tool: 'run', params: {}, result: { output }, status: 'ok' });
  }
  await seed.brain.setTaskState(id, 'superseded');
  return id;
}

/**
 * A commit right before the quota is filled: a WAL commit is padded to a sector boundary and the padding's
 * tail is written after its sync, so it still waits in the coalescing VFS when the next write fails — what a failed
 * flush used to drop (a frame the wal-index names but the file lacks).
 */
async function commitRightBefore(seed: Seeded): Promise<void> {
  // Pages of its own (overflow pages of a long output): nothing written later covers its commit frame.
  const output = noise(1000 + seed.outputs.length, 64 * 1024);
  seed.outputs.push(output);
  await seed.brain.recordStep({
    taskId: seed.taskId,
    tool: 'run',
    params: {},
    result: { output },
    status: 'ok',
  });
}

/** Every step reads back as written, and SQLite finds nothing wrong. */
async function expectWhole(brain: Brain, seed: Pick<Seeded, 'taskId' | 'outputs'>): Promise<void> {
  expect(await brain.integrityCheck()).toEqual(['ok']);
  const steps = await brain.listSteps(seed.taskId);
  const outputs = steps.slice(0, seed.outputs.length).map((s) => (s.result as { output?: string }).output);
  expect(outputs.length).toBe(seed.outputs.length);
  expect(outputs.every((output, i) => output === seed.outputs[i])).toBe(true);
}

/** While the quota is still full: every kind of call is answered, and the brain is whole. */
async function expectAnswering(brain: Brain, seed: Seeded): Promise<void> {
  const info = await brain.info();
  expect(info.dbName).toBe(seed.dbName);
  expect((await brain.listSessions()).map((s) => s.title)).toContain('kept');
  await brain.audit();
  await brain.searchHistory('run');
  await expectWhole(brain, seed);
}

/**
 * Room again: the same brain writes (no reload), and a fresh connection reads the same whole brain from disk (what
 * SQLite's page cache could hide; a control that writes every page, as a compaction does, could mend it first).
 * Returns the brain opened again.
 */
async function expectWritesAgainAndWholeOnDisk(seed: Seeded): Promise<Brain> {
  const { id } = await seed.brain.recordStep({
    taskId: seed.taskId,
    tool: 'run',
    params: {},
    result: { output: 'after the room was made' },
    status: 'ok',
  });
  expect(id).toBeGreaterThan(0);
  await closeBrain(seed.brain);
  const again = await brainNamed(seed.dbName);
  await expectWhole(again, seed);
  expect((await again.listSteps(seed.taskId)).at(-1)?.result).toEqual({ output: 'after the room was made' });
  return again;
}

describe('a full disk never poisons the brain', () => {
  // No room at all; room for small commits, not for the VACUUM's rewrite of the whole file.
  for (const room of [0, 1 * MiB]) {
    it(`compact (${room / MiB} MiB of room): refused with QuotaExceeded; the brain goes on; with room it compacts`, async () => {
      const seed = await seeded();
      await seed.brain.deleteSession((await seed.brain.startSession({ title: 'gone' })).id);
      await commitRightBefore(seed);
      // The estimate says there is room (DevTools' override does not show there): the writes themselves are refused.
      await fillQuota(room);
      await expect(seed.brain.compact()).rejects.toMatchObject({ code: 'QuotaExceeded' });
      await expect(seed.brain.compact()).rejects.toMatchObject({ code: 'QuotaExceeded' });
      await expectAnswering(seed.brain, seed);
      await makeRoom();
      const again = await expectWritesAgainAndWholeOnDisk(seed);
      // Control: with room it compacts.
      const compacted = await again.compact();
      expect(compacted.bytesAfter).toBeLessThanOrEqual(compacted.bytesBefore);
      await expectWhole(again, seed);
    });
  }

  it('maintain: refused with QuotaExceeded when its log does not fit; the brain goes on; with room it frees the pages', async () => {
    const seed = await seeded();
    // A second task's steps cleaned up: free pages for maintain to give back.
    await oldTask(seed, 50);
    expect((await seed.brain.cleanup()).cleaned).toHaveLength(1);
    const free = (await seed.brain.audit()).freelistCount;
    expect(free).toBeGreaterThan(100);
    await untilWalEmpty(seed.dbName);
    await commitRightBefore(seed);
    await fillQuota(0);
    await expect(seed.brain.maintain({ force: true, budgetMs: 5_000 })).rejects.toMatchObject({
      code: 'QuotaExceeded',
    });
    await expectAnswering(seed.brain, seed);
    await makeRoom();
    const again = await expectWritesAgainAndWholeOnDisk(seed);
    // Control: with room it gives the free pages back (those the write since has not reused).
    const left = (await again.audit()).freelistCount;
    expect(left).toBeGreaterThan(100);
    const maintained = await again.maintain({ force: true, budgetMs: 5_000 });
    expect(maintained.pagesFreed).toBeGreaterThanOrEqual(left);
    expect(maintained.freelistCount).toBe(0);
    await expectWhole(again, seed);
  });

  it('the idle WAL checkpoint: fails over a full quota without a word, the brain goes on; with room it empties the log', async () => {
    const seed = await seeded(1, 1024);
    const dbBefore = await fileSize(seed.dbName);
    // Room for the log of the write below, not for agent.db to grow by as much again at the WAL checkpoint. One
    // call: the idle WAL checkpoint (200 ms after the last call) cannot come in between.
    const output = noise(100, 2 * MiB);
    await fillQuota(3 * MiB);
    seed.outputs.push(output);
    await seed.brain.recordStep({
      taskId: seed.taskId,
      tool: 'run',
      params: {},
      result: { output },
      status: 'ok',
    });
    // The idle WAL checkpoint ran (it wrote into agent.db as far as the quota let it) and failed: the log is kept.
    await expect.poll(() => fileSize(seed.dbName), { timeout: 20_000 }).not.toBe(dbBefore);
    expect(await fileSize(`${seed.dbName}-wal`)).toBeGreaterThan(1.5 * MiB);
    await expectAnswering(seed.brain, seed);
    await makeRoom();
    // Control: with room the next idle WAL checkpoint empties the log into agent.db.
    await seed.brain.info();
    await untilWalEmpty(seed.dbName);
    await expectWritesAgainAndWholeOnDisk(seed);
  });

  it('cleanup: a task it cannot clean over a full quota is reported failed with QuotaExceeded; with room it is cleaned', async () => {
    const seed = await seeded();
    const old = await oldTask(seed, 70);
    await untilWalEmpty(seed.dbName);
    await commitRightBefore(seed);
    await fillQuota(0);
    const refused = await seed.brain.cleanup();
    expect(refused.cleaned).toEqual([]);
    expect(refused.failed).toMatchObject([{ taskId: old, error: { code: 'QuotaExceeded' } }]);
    await expectAnswering(seed.brain, seed);
    expect(await seed.brain.listSteps(old)).toHaveLength(4);
    await makeRoom();
    const again = await expectWritesAgainAndWholeOnDisk(seed);
    // Control: with room the same task is cleaned.
    const report = await again.cleanup();
    expect(report.cleaned.map((c) => c.taskId)).toEqual([old]);
    await expectWhole(again, seed);
  });

  // No room even for the journal's first sync; room for some of the journal, not its commit.
  for (const room of [0, 64 * 1024]) {
    it(`a transcript import (${room / 1024} KiB of room): refused with QuotaExceeded, nothing of it kept, the brain goes on in WAL mode; with room it imports`, async () => {
      const seed = await seeded(2, 64 * 1024);
      const { main } = generateClaudeCodeSession(15, 120);
      const input = () => ({ files: [{ name: main.name, data: main.bytes.slice() }] });
      // It runs with a rollback journal (journal-mode.ts).
      await commitRightBefore(seed);
      await fillQuota(room);
      await expect(seed.brain.importTranscript(input())).rejects.toMatchObject({ code: 'QuotaExceeded' });
      await expectAnswering(seed.brain, seed);
      expect(await seed.brain.listImportedSessions()).toEqual([]);
      await makeRoom();
      // Back in WAL mode: a write goes to the log, not into agent.db.
      const mainBytes = await fileSize(seed.dbName);
      await seed.brain.startSession({ title: 'after' });
      expect(await fileSize(`${seed.dbName}-wal`)).toBeGreaterThan(0);
      expect(await fileSize(seed.dbName)).toBe(mainBytes);
      const again = await expectWritesAgainAndWholeOnDisk(seed);
      // Control: with room the same import goes in.
      expect((await again.importTranscript(input())).sessions).toHaveLength(1);
      await expectWhole(again, seed);
    });
  }

  it('.agent file writes: 8 MiB with 1 MiB of room is QuotaExceeded every time, never Busy; the file stays whole', async () => {
    const seed = await seeded(1, 1024);
    await seed.brain.openProject({ kind: 'opfs', name: unique('project'), create: true });
    await seed.brain.createAgentFolder();
    const path = '.agent/MEMORY.md';
    const original = await seed.brain.readAgentFile(path);
    const big = `# Memory\n\n${noise(7, 8 * MiB)}\n`;
    await fillQuota(1 * MiB);
    const codes: string[] = [];
    for (let i = 0; i < 24; i++) {
      const outcome = await seed.brain.writeAgentFile(path, big, { expectedVersion: original.version }).then(
        () => 'written',
        (error: { code?: string }) => error.code ?? 'none',
      );
      codes.push(outcome);
    }
    expect(new Set(codes)).toEqual(new Set(['QuotaExceeded']));
    expect((await seed.brain.readAgentFile(path)).text).toBe(original.text);
    await expectAnswering(seed.brain, seed);
    await makeRoom();
    // Control: with room the same write goes through.
    await seed.brain.writeAgentFile(path, big, { expectedVersion: original.version });
    expect((await seed.brain.readAgentFile(path)).text).toBe(big);
    await expectWritesAgainAndWholeOnDisk(seed);
  });

  it('the archive: an export whose WAL checkpoint does not fit and an import that does not fit are QuotaExceeded; with room both work', async () => {
    const seed = await seeded(1, 1024);
    await seed.brain.openProject({ kind: 'opfs', name: unique('project'), create: true });
    await seed.brain.createAgentFolder();
    const archive = await seed.brain.exportBrain();
    // A write whose log fits, but not agent.db grown by as much again at the export's WAL checkpoint.
    const output = noise(200, 2 * MiB);
    await fillQuota(3 * MiB);
    seed.outputs.push(output);
    await seed.brain.recordStep({
      taskId: seed.taskId,
      tool: 'run',
      params: {},
      result: { output },
      status: 'ok',
    });
    await expect(seed.brain.exportBrain()).rejects.toMatchObject({ code: 'QuotaExceeded' });
    await expectAnswering(seed.brain, seed);
    await fillQuota(0);
    await expect(seed.brain.importBrain(archive.slice())).rejects.toMatchObject({ code: 'QuotaExceeded' });
    await expectAnswering(seed.brain, seed);
    await makeRoom();
    const again = await expectWritesAgainAndWholeOnDisk(seed);
    // Control: with room the export holds every step, and the import of the older archive replaces the brain.
    const exported = await again.exportBrain();
    expect(exported.byteLength).toBeGreaterThan(1 * MiB);
    await again.importBrain(archive.slice(), { projectName: unique('restored') });
    expect(await again.listSteps(seed.taskId)).toHaveLength(1);
    expect(await again.integrityCheck()).toEqual(['ok']);
  });
});
