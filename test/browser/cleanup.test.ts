import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain, type BrainWorker, type TaskId } from '../../src/lib/index';
import { installErrorTransfer } from '../../src/worker/error-transfer';

const open: Brain[] = [];
let counter = 0;
const uniqueName = () => `cleanup-${Date.now().toString(36)}-${++counter}.db`;

async function brainNamed(dbName: string) {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  open.push(brain);
  await brain.setAutoCleanup({ enabled: false });
  return brain;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((brain) => brain.close()));
});

const text = (task: number, version: number, lines = 300) =>
  Array.from(
    { length: lines },
    (_, i) =>
      `export const v${i} = ${i % 11 === version % 11 ? `'t${task} edit ${version}'` : `'same ${i}'`};\n`,
  ).join('');

type Api = Pick<Brain, 'recordStep' | 'checkpointFile'>;

/** `bytes` random bytes as base64: a step output that zlib cannot pack below `bytes` (steps are stored packed). */
function noise(bytes: number): string {
  const raw = new Uint8Array(bytes);
  for (let at = 0; at < bytes; at += 65_536) crypto.getRandomValues(raw.subarray(at, at + 65_536));
  let text = '';
  for (const byte of raw) text += String.fromCharCode(byte);
  return btoa(text);
}

async function makeHeavy(api: Api, taskId: TaskId, steps: number, edits: number, stepBytes = 2_000) {
  for (let i = 0; i < steps; i++) {
    await api.recordStep({
      taskId,
      tool: 'edit',
      params: { i },
      result: { output: `${taskId}:${i}:${noise(stepBytes)}` },
      status: 'ok',
    });
  }
  for (let v = 0; v < edits; v++) {
    await api.checkpointFile({
      taskId,
      path: `src/t${taskId}.ts`,
      before: v === 0 ? null : text(taskId, v - 1),
      after: text(taskId, v),
    });
  }
}

describe('cleanup in the worker on OPFS', () => {
  it('plans, cleans, audits and gives space back on a real agent.db', async () => {
    const brain = await brainNamed(uniqueName());
    const { id: sessionId } = await brain.startSession({ title: 'cleanup' });
    const { id: parent } = await brain.startTask({ sessionId, title: 'parent' });
    const { id: child } = await brain.startTask({
      sessionId,
      title: 'child',
      parentTaskId: parent,
      makeCurrent: false,
    });
    const { id: old } = await brain.startTask({ sessionId, title: 'old', makeCurrent: false });
    for (const id of [parent, child, old]) await makeHeavy(brain, id, 30, 4, 20_000);
    await brain.recordMessage({ sessionId, taskId: old, role: 'assistant', content: 'old work' });
    await brain.setTaskState(child, 'done');
    await brain.setTaskState(old, 'superseded');

    const audit = await brain.audit();
    expect(audit.bytes.steps).toBeGreaterThan(3 * 30 * 20_000);
    expect(audit.reclaimable.tasks).toBe(1);
    const plan = await brain.planCleanup();
    expect(plan.tasks.map((t) => [t.taskId, t.verdict, t.reasonText])).toEqual([
      [parent, 'keep', `current task of session ${sessionId}`],
      [child, 'keep', `child task of task ${parent} (kept via ${parent} → ${child})`],
      [old, 'clean', 'marked superseded and not needed by any kept task'],
    ]);

    const report = await brain.cleanup();
    expect(report.cleaned).toMatchObject([{ taskId: old, stepsRemoved: 30, checkpointEntriesRemoved: 4 }]);
    const [entry] = await brain.listCheckpoints(old);
    await expect(brain.readCheckpoint(entry?.id as never)).rejects.toMatchObject({
      code: 'CheckpointRemoved',
    });
    for (const e of await brain.listCheckpoints(child))
      expect((await brain.readCheckpoint(e.id)).after).toMatch(/t\d+ edit/);
    expect((await brain.listMessages(sessionId, old)).map((m) => m.content)).toEqual(['old work']);

    const afterCleanup = await brain.audit();
    expect(afterCleanup.freelistCount).toBeGreaterThan(0);
    const maintained = await brain.maintain({ budgetMs: 5_000, force: true });
    // Every free page goes back; with auto_vacuum, truncating the file past a pointer-map page frees that page
    // too, so the count may exceed the freelist by the pointer-map pages the shorter file no longer needs.
    expect(maintained.freelistCount).toBe(0);
    expect(maintained.pagesFreed).toBeGreaterThanOrEqual(afterCleanup.freelistCount);
    expect(maintained.pagesFreed - afterCleanup.freelistCount).toBeLessThanOrEqual(2);
    expect((await brain.info()).fileBytes).toBe(afterCleanup.fileBytes - maintained.bytesFreed);

    const compacted = await brain.compact();
    expect(compacted.quota).not.toBeNull();
    expect(compacted.bytesAfter).toBeLessThanOrEqual(compacted.bytesBefore);
    expect(await brain.integrityCheck()).toEqual(['ok']);
    expect((await brain.cleanupLog()).map((r) => r.taskId)).toEqual([old]);
  });

  it('runs automatically after a task state change', async () => {
    const brain = await brainNamed(uniqueName());
    await brain.setAutoCleanup({ enabled: true, debounceMs: 20, idleMs: 60_000 });
    const { id: sessionId } = await brain.startSession();
    const { id: first } = await brain.startTask({ sessionId, title: 'first' });
    await makeHeavy(brain, first, 5, 2);
    await brain.startTask({ sessionId, title: 'second' });
    const seen: number[] = [];
    await brain.subscribe((change) => {
      if (change.topic === 'cleanup' && change.taskId !== undefined) seen.push(change.taskId);
    });
    await brain.setTaskState(first, 'superseded');
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual([first]);
    expect((await brain.getTask(first)).heavyRemovedAt).not.toBeNull();
    expect(await brain.listSteps(first)).toEqual([]);
  });

  it('answers a call made during a long cleanup before the cleanup ends, with progress after each task', async () => {
    const brain = await brainNamed(uniqueName());
    const { id: sessionId } = await brain.startSession();
    const tasks = 40;
    const ids: TaskId[] = [];
    for (let i = 0; i < tasks; i++) {
      const { id } = await brain.startTask({ sessionId, title: `t${i}`, makeCurrent: false });
      await makeHeavy(brain, id, 3, 3, 20_000);
      await brain.setTaskState(id, 'done');
      ids.push(id);
    }
    // Each done task is superseded by the next one of its session; the last by this one.
    await brain.startTask({ sessionId, title: 'next' });
    const progress: { done: number; total: number }[] = [];
    let cleanupEnded = false;
    let firstProgress!: () => void;
    const started = new Promise<void>((resolve) => (firstProgress = resolve));
    const cleaning = brain
      .cleanup(undefined, ({ done, total }) => {
        progress.push({ done, total });
        firstProgress();
      })
      .finally(() => (cleanupEnded = true));
    await started;
    // Made while the cleanup runs: it waits for the task being cleaned, not for the whole pass.
    const audit = await brain.audit();
    const heardByThen = progress.length;
    expect(cleanupEnded).toBe(false);
    expect(audit.counts.tasksCleaned).toBeGreaterThan(0);
    expect(audit.counts.tasksCleaned).toBeLessThan(tasks);

    const report = await cleaning;
    expect(report.cleaned.map((r) => r.taskId)).toEqual(ids);
    // Progress reports cross the worker as messages of their own: let the last ones land.
    await expect.poll(() => progress.length).toBe(tasks);
    expect(heardByThen).toBeLessThan(tasks);
    expect(progress.map((p) => p.done)).toEqual(ids.map((_, i) => i + 1));
    expect(progress.every((p) => p.total === tasks)).toBe(true);
    expect(await brain.integrityCheck()).toEqual(['ok']);
  }, 120_000);
});

/**
 * Resolves once no Web Lock naming the database is held: the killed worker is really gone. Chromium lets a busy
 * worker run on for up to ~2 s after terminate() before it stops it by force, mid-statement.
 */
async function untilReleased(dbName: string): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const { held = [] } = await navigator.locks.query();
    if (!held.some((lock) => lock.name?.includes(dbName))) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`The killed worker still holds ${dbName}.`);
}

/** The size of an OPFS file, once no access handle holds it any more. */
async function opfsFileSize(name: string): Promise<number | null> {
  const root = await navigator.storage.getDirectory();
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const handle = await root.getFileHandle(name);
      return (await handle.getFile()).size;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotFoundError') return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`${name} stayed locked`);
}

async function reopen(dbName: string): Promise<Brain> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await brainNamed(dbName);
    } catch (error) {
      // The killed worker's locks go a moment after it does.
      if (attempt > 100 || (error as { code?: string }).code !== 'OpenElsewhere') throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

describe('a tab killed in the middle of a cleanup', () => {
  it('leaves every task fully cleaned or untouched, and a sound database', async () => {
    const tasks = 24;
    const steps = 10;
    const edits = 3;
    // Chromium stops a terminated worker when its running task ends (by force after ~2 s). cleanup() runs in turns
    // with the event loop in between, so the kill lands at the end of a turn, or inside a task's transaction when
    // one task holds the turn long enough; either way no task may be half cleaned. (Failures inside a task's
    // transaction: test/unit/cleanup-atomic.test.ts. With the write-coalescing VFS a transaction cut short before
    // its commit leaves nothing on disk; one cut short during its commit leaves a hot journal.)
    const dbName = uniqueName();
    installErrorTransfer();
    const worker = new Worker(new URL('../../src/worker/brain.worker.ts', import.meta.url), {
      type: 'module',
    });
    const remote = Comlink.wrap<BrainWorker>(worker);
    await remote.open({ dbName });
    await remote.setAutoCleanup({ enabled: false });
    const { id: sessionId } = await remote.startSession({ title: 'doomed' });
    const ids: TaskId[] = [];
    for (let i = 0; i < tasks; i++) {
      const { id } = await remote.startTask({ sessionId, title: `t${i}` });
      await makeHeavy(remote as unknown as Api, id, steps, edits, 120_000);
      ids.push(id);
    }
    await remote.startTask({ sessionId, title: 'current' });
    for (const id of ids) await remote.setTaskState(id, 'superseded');

    let cleaned = 0;
    const killAfter = 2;
    const killed = new Promise<void>((resolve) => {
      void remote.subscribe(
        Comlink.proxy((change: { topic: string }) => {
          if (change.topic !== 'cleanup' || ++cleaned !== killAfter) return;
          worker.terminate();
          resolve();
        }),
      );
    });
    void remote.cleanup().catch(() => undefined);
    await killed;
    await untilReleased(dbName);

    // DELETE journal mode empties the journal at every commit: a non-empty one is a transaction cut short.
    const journal = await opfsFileSize(`${dbName}-journal`);

    const brain = await reopen(dbName);
    expect(await brain.integrityCheck()).toEqual(['ok']);
    const log = await brain.cleanupLog({ limit: 1000 });
    const loggedIds = new Set(log.map((r) => r.taskId));
    let fullyCleaned = 0;
    for (const id of ids) {
      const task = await brain.getTask(id);
      const taskSteps = await brain.listSteps(id);
      const entries = await brain.listCheckpoints(id);
      expect(entries.length).toBe(edits);
      const reads = await Promise.all(
        entries.map((e) =>
          brain.readCheckpoint(e.id).then(
            () => 'ok',
            (error: { code?: string }) => error.code,
          ),
        ),
      );
      if (task.heavyRemovedAt === null) {
        expect([taskSteps.length, reads, loggedIds.has(id)]).toEqual([steps, Array(edits).fill('ok'), false]);
      } else {
        fullyCleaned++;
        expect([taskSteps.length, reads, loggedIds.has(id)]).toEqual([
          0,
          Array(edits).fill('CheckpointRemoved'),
          true,
        ]);
      }
    }
    expect(fullyCleaned).toBeGreaterThanOrEqual(killAfter);
    // The kill ended the pass: the turns after it never ran.
    expect(fullyCleaned).toBeLessThan(tasks);
    if ((journal ?? 0) > 0)
      console.info('The kill cut a task’s commit short (hot journal); it was rolled back.');
    const audit = await brain.audit();
    expect(audit.counts.tasksCleaned).toBe(fullyCleaned);

    // A later pass finishes the job.
    const report = await brain.cleanup();
    expect(report.cleaned.length).toBe(tasks - fullyCleaned);
    expect(await brain.integrityCheck()).toEqual(['ok']);
    await brain.close();
    open.splice(open.indexOf(brain), 1);
  }, 240_000);
});
