import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain, type EngineProgress } from '../../src/lib/index';

const open: Brain[] = [];
let counter = 0;
const uniqueName = () => `size-history-${Date.now().toString(36)}-${++counter}.db`;

async function brainNamed(dbName: string) {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  open.push(brain);
  await brain.setAutoCleanup({ enabled: false });
  return brain;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((brain) => brain.close()));
});

/** `tasks` superseded tasks of `stepsEach` × ~256 KiB step results, and a running one. */
async function seed(brain: Brain, tasks: number, stepsEach: number) {
  const { id: sessionId } = await brain.startSession({ title: 'growth' });
  // 256 KiB of random bytes as base64: steps are stored packed, and zlib cannot pack these below 256 KiB.
  const raw = new Uint8Array(256 * 1024);
  for (let at = 0; at < raw.length; at += 65_536) crypto.getRandomValues(raw.subarray(at, at + 65_536));
  let binary = '';
  for (const byte of raw) binary += String.fromCharCode(byte);
  const chunk = btoa(binary);
  for (let t = 0; t < tasks; t++) {
    const { id: taskId } = await brain.startTask({ sessionId, title: `attempt ${t}` });
    for (let s = 0; s < stepsEach; s++)
      await brain.recordStep({ taskId, tool: 'dump', result: `${t}:${s}:${chunk}`, status: 'ok' });
    await brain.setTaskState(taskId, 'superseded');
  }
  await brain.startTask({ sessionId, title: 'current' });
  return sessionId;
}

describe('size history on OPFS (real worker)', () => {
  it('samples on open and after a cleanup, with the audit’s figures, and keeps them across a reopen', async () => {
    const dbName = uniqueName();
    let brain = await brainNamed(dbName);
    await seed(brain, 4, 4);
    const before = await brain.audit();
    const report = await brain.cleanup();
    expect(report.cleaned).toHaveLength(4);
    const after = await brain.audit();
    const { samples, lastError } = await brain.sizeHistory();
    expect(lastError).toBeNull();
    expect(samples.map((s) => s.cause)).toEqual(['open', 'cleanup']);
    const [opened, cleaned] = samples as [(typeof samples)[0], (typeof samples)[0]];
    expect(opened.heavyBytes).toBe(0);
    expect(cleaned).toMatchObject({
      fileBytes: after.fileBytes,
      freeBytes: after.freeBytes,
      stepBytes: after.bytes.steps,
      checkpointBytes: after.bytes.checkpointStored,
    });
    expect(before.bytes.steps).toBeGreaterThan(4 * 4 * 256 * 1024);
    expect(cleaned.freeBytes).toBeGreaterThan(before.bytes.steps / 2);

    // Reopening (a new engine) adds no sample while the figures have not changed; the history is on disk.
    await brain.close();
    open.pop();
    brain = await brainNamed(dbName);
    expect((await brain.sizeHistory()).samples).toEqual(samples);
  });

  it('compact reports page counts while it runs: reading, then writing', async () => {
    const brain = await brainNamed(uniqueName());
    await seed(brain, 6, 8);
    const audit = await brain.audit();
    const live = audit.pageCount - audit.freelistCount;
    const reports: (EngineProgress & { pending: boolean })[] = [];
    let pending = true;
    const stop = await brain.watchProgress((p) => void reports.push({ ...p, pending }));
    const compacted = brain.compact().finally(() => {
      pending = false;
    });
    const report = await compacted;
    await stop();
    expect(report.bytesAfter).toBeLessThanOrEqual(report.bytesBefore);
    expect(reports[0]).toMatchObject({
      operation: 'compact',
      phase: 'reading',
      done: 0,
      total: live,
      unit: 'pages',
    });
    expect([...new Set(reports.map((r) => r.phase))]).toEqual(['reading', 'writing']);
    // Reports arrive while the call is still pending (from inside the VACUUM), not after it.
    expect(reports.every((r) => r.pending)).toBe(true);
    const writing = reports.filter((r) => r.phase === 'writing');
    expect(writing.at(-1)!.done).toBeGreaterThan(0);
    expect(writing.every((r) => r.done <= r.total)).toBe(true);

    // importDatabase of the same file: the pages its check of the candidate reads, reported while it runs.
    const bytes = await brain.exportDatabase();
    const pages = bytes.byteLength / audit.pageSize;
    const imports: (EngineProgress & { pending: boolean })[] = [];
    let importing = true;
    const stopImports = await brain.watchProgress((p) => void imports.push({ ...p, pending: importing }));
    await brain.importDatabase(bytes).finally(() => {
      importing = false;
    });
    await stopImports();
    expect(imports[0]).toEqual({
      operation: 'importDatabase',
      phase: 'checking',
      done: 0,
      total: pages,
      unit: 'pages',
      pending: true,
    });
    expect(imports.every((r) => r.pending && r.done <= r.total)).toBe(true);
    console.info(
      `compact of ${(report.bytesBefore / 1048576).toFixed(1)} MiB: ${report.elapsedMs.toFixed(0)} ms, ${reports.length} progress reports`,
    );
  });
});

describe('importDatabase moves its bytes to the worker', () => {
  it('detaches an array that spans its buffer, and imports it', async () => {
    const source = await brainNamed(uniqueName());
    await source.startSession({ title: 'exported' });
    const bytes = await source.exportDatabase();
    const size = bytes.byteLength;
    const target = await brainNamed(uniqueName());
    const report = await target.importDatabase(bytes);
    expect(report.bytes).toBe(size);
    expect(bytes.byteLength).toBe(0); // detached: documented, pass bytes.slice() to keep a copy
    expect((await target.listSessions()).map((s) => s.title)).toEqual(['exported']);
  });

  it('copies a view into a larger buffer, leaving that buffer intact', async () => {
    const source = await brainNamed(uniqueName());
    await source.startSession({ title: 'inside a bigger buffer' });
    const db = await source.exportDatabase();
    const big = new Uint8Array(db.byteLength + 1024);
    big.set(db, 512);
    const view = big.subarray(512, 512 + db.byteLength);
    const target = await brainNamed(uniqueName());
    await target.importDatabase(view);
    expect(big.byteLength).toBe(db.byteLength + 1024);
    expect(view.byteLength).toBe(db.byteLength);
    expect(view[0]).toBe(0x53); // 'S' of "SQLite format 3"
    expect((await target.listSessions()).map((s) => s.title)).toEqual(['inside a bigger buffer']);
  });

  it('a refused file is detached too, and the database is unchanged', async () => {
    const target = await brainNamed(uniqueName());
    await target.startSession({ title: 'kept' });
    const junk = new TextEncoder().encode('not a database'.repeat(100));
    await expect(target.importDatabase(junk)).rejects.toMatchObject({ code: 'NotSqlite' });
    expect(junk.byteLength).toBe(0);
    expect((await target.listSessions()).map((s) => s.title)).toEqual(['kept']);
  });
});
