import { describe, expect, it } from 'vitest';
import {
  createProgressThrottle,
  headerPageSize,
  importDatabaseProgress,
  vacuumProgress,
} from '../../src/core/progress-reports';
import { createIoMeter, ioMeter } from '../../src/storage/sqlite/vfs/io-meter';
import type { EngineProgress } from '../../src/core/api';
import { memoryBrain } from './engine-helpers';
import { freshDb } from './helpers';

const file = { pageSize: 4096, pageCount: 1000, freelistCount: 400 };

describe('vacuum progress (pure)', () => {
  it('counts live pages read, then pages written', () => {
    expect(vacuumProgress({ mainRead: 0, mainWritten: 0 }, file)).toEqual({
      phase: 'reading',
      done: 0,
      total: 600,
    });
    expect(vacuumProgress({ mainRead: 300 * 4096, mainWritten: 0 }, file)).toEqual({
      phase: 'reading',
      done: 300,
      total: 600,
    });
    // Never past the total while reading (pages re-read by the copy-back are not counted twice).
    expect(vacuumProgress({ mainRead: 900 * 4096, mainWritten: 0 }, file).done).toBe(600);
    expect(vacuumProgress({ mainRead: 900 * 4096, mainWritten: 150 * 4096 }, file)).toEqual({
      phase: 'writing',
      done: 150,
      total: 600,
    });
    // The estimate grows rather than showing more than 100 %.
    expect(vacuumProgress({ mainRead: 0, mainWritten: 650 * 4096 }, file)).toEqual({
      phase: 'writing',
      done: 650,
      total: 650,
    });
  });

  it('counts an import as one read of every page', () => {
    expect(importDatabaseProgress({ mainRead: 0 }, { byteLength: 40 * 4096, pageSize: 4096 })).toEqual({
      phase: 'checking',
      done: 0,
      total: 40,
    });
    expect(
      importDatabaseProgress({ mainRead: 25 * 4096 }, { byteLength: 40 * 4096, pageSize: 4096 }).done,
    ).toBe(25);
    expect(
      importDatabaseProgress({ mainRead: 99 * 4096 }, { byteLength: 40 * 4096, pageSize: 4096 }).done,
    ).toBe(40);
    const header = new Uint8Array(100);
    header.set([0x10, 0x00], 16);
    expect(headerPageSize(header)).toBe(4096);
    header.set([0x00, 0x01], 16);
    expect(headerPageSize(header)).toBe(65536);
    header.set([0x03, 0x00], 16);
    expect(headerPageSize(header)).toBeNull();
    expect(headerPageSize(new Uint8Array(10))).toBeNull();
  });

  it('reports at most once per interval, and at each phase change', () => {
    let t = 0;
    const throttle = createProgressThrottle(() => t, 100);
    expect(throttle.due('reading')).toBe(true);
    t = 50;
    expect(throttle.due('reading')).toBe(false);
    t = 60;
    expect(throttle.due('writing')).toBe(true);
    t = 159;
    expect(throttle.due('writing')).toBe(false);
    t = 160;
    expect(throttle.due('writing')).toBe(true);
  });
});

describe('I/O meter and compact progress (Node, real SQLite in memory)', () => {
  it("counts SQLite's page reads and writes of main databases and their journals", async () => {
    const db = await freshDb();
    await db.exec('CREATE TABLE t (x TEXT)');
    const before = ioMeter.counts();
    await db.transaction(async () => {
      for (let i = 0; i < 50; i++) await db.run('INSERT INTO t VALUES (?)', ['y'.repeat(4000)]);
    });
    const after = ioMeter.counts();
    const page = (await db.get<{ page_size: number }>('PRAGMA page_size'))!.page_size;
    // ~50 pages of rows reached the file, and the journal got the header plus the pages it saved.
    expect(after.mainWritten - before.mainWritten).toBeGreaterThanOrEqual(50 * page);
    expect(after.journalWritten).toBeGreaterThan(before.journalWritten);
    await db.close();
  });

  it('a throwing listener is dropped without failing the I/O', async () => {
    const meter = createIoMeter();
    const vfs: { log?: (...args: unknown[]) => void } = {};
    meter.attach(vfs);
    let calls = 0;
    meter.watch(() => {
      calls++;
      throw new Error('listener bug');
    });
    vfs.log?.('jOpen', 'x.db', 7, '0x106');
    vfs.log?.('jRead', 7, 4096, 0);
    vfs.log?.('jRead', 7, 4096, 4096);
    expect(calls).toBe(1);
    expect(meter.counts().mainRead).toBe(8192);
  });

  it('counts the pages a WAL database writes as frames, without the frame and log headers', () => {
    const meter = createIoMeter();
    const vfs: { log?: (...args: unknown[]) => void } = {};
    meter.attach(vfs);
    // ('jOpen', name, fileId, flags): SQLITE_OPEN_WAL | READWRITE | CREATE.
    vfs.log?.('jOpen', 'x.db-wal', 8, '0x80006');
    vfs.log?.('jWrite', 8, new Uint8Array(32), 0);
    vfs.log?.('jWrite', 8, new Uint8Array(24), 32);
    vfs.log?.('jWrite', 8, new Uint8Array(4096), 56);
    expect(meter.counts()).toEqual({ mainRead: 0, mainWritten: 4096, journalWritten: 0 });
  });

  it('compact reports reading then writing, in pages, while it runs', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'vacuum' });
    const big = 'z'.repeat(30_000);
    for (let t = 0; t < 6; t++) {
      const { id: taskId } = await api.startTask({ sessionId, title: `t${t}` });
      for (let s = 0; s < 20; s++)
        await api.recordStep({ taskId, tool: 'dump', result: `${t}${s}${big}`, status: 'ok' });
      await api.setTaskState(taskId, t < 5 ? 'superseded' : 'running');
    }
    await api.cleanup();
    const audit = await api.audit();
    const live = audit.pageCount - audit.freelistCount;
    const reports: EngineProgress[] = [];
    // Rate-limited to one report per 100 ms, but each phase change is reported: both phases show on any machine.
    const stop = await api.watchProgress((p) => void reports.push(p));
    const report = await api.compact();
    await stop();
    expect(report.bytesAfter).toBeLessThan(report.bytesBefore);
    expect(reports[0]).toEqual({
      operation: 'compact',
      phase: 'reading',
      done: 0,
      total: live,
      unit: 'pages',
    });
    const phases = [...new Set(reports.map((r) => r.phase))];
    expect(phases).toEqual(['reading', 'writing']);
    const lastWriting = reports.filter((r) => r.phase === 'writing').at(-1)!;
    expect(lastWriting.done).toBeGreaterThan(0);
    expect(lastWriting.done).toBeLessThanOrEqual(lastWriting.total);
    // Stopped: a later compact reports nothing.
    const count = reports.length;
    await api.compact();
    expect(reports).toHaveLength(count);
    // importDatabase: the pages its two checks read, in one phase.
    const imports: EngineProgress[] = [];
    const stopImports = await api.watchProgress((p) => void imports.push(p));
    const bytes = await api.exportDatabase();
    const filePages = bytes.byteLength / 4096;
    const readBefore = ioMeter.counts().mainRead;
    await api.importDatabase(bytes);
    const pagesRead = (ioMeter.counts().mainRead - readBefore) / 4096;
    await stopImports();
    expect(imports[0]).toEqual({
      operation: 'importDatabase',
      phase: 'checking',
      done: 0,
      total: filePages,
      unit: 'pages',
    });
    // The model behind the total: the import reads every page about once (the candidate's check).
    expect(pagesRead).toBeGreaterThan(0.9 * filePages);
    expect(pagesRead).toBeLessThan(1.2 * filePages);
    await expect(api.watchProgress('nope' as never)).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});
