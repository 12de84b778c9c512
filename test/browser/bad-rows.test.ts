/**
 * Issue 13, finding 5, on real OPFS: one event with malformed JSON made the whole session unreadable (listEvents,
 * resumePoint, compressContext → CorruptDatabase) and a step with malformed params failed listSteps. Such rows
 * can only come from outside the engine (import refuses them), so the database file is put in place as a tool
 * left it; the brain opens it and every read still works, the bad rows marked with their ids.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain } from '../../src/lib/index';
import { alterDatabase } from './page-sqlite';

const open: Brain[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

describe('a database with one bad event row and one bad step row', () => {
  it('still lists, resumes, compresses and searches; the bad rows are marked', async () => {
    const source = await openBrain({ dbName: `bad-src-${Date.now()}.db`, closeOnPageHide: false });
    open.push(source);
    const { id: sessionId } = await source.startSession({ title: 'with a bad row' });
    const { id: taskId } = await source.startTask({ sessionId, title: 'work' });
    await source.recordInstruction({ sessionId, taskId, text: 'Fix the paginator' });
    const bad = await source.recordDecision({ sessionId, taskId, text: 'Use a cursor', why: 'stable order' });
    await source.recordValidation({
      sessionId,
      taskId,
      name: 'npm test',
      result: 'failed',
      text: '2 failed',
    });
    await source.recordStep({ taskId, tool: 'bash', params: { command: 'ls' }, result: 'a b', status: 'ok' });
    const step = await source.recordStep({
      taskId,
      tool: 'bash',
      params: { command: 'npm test' },
      result: 'ok',
      status: 'ok',
    });
    const bytes = await alterDatabase(
      await source.exportDatabase(),
      `UPDATE events SET data = '{not json' WHERE id = ${bad.event.id};
       UPDATE steps SET params = '{"command": ' WHERE id = ${step.id};`,
    );
    await source.close();
    open.splice(0);

    const dbName = `bad-${Date.now()}.db`;
    const root = await navigator.storage.getDirectory();
    const writable = await (await root.getFileHandle(dbName, { create: true })).createWritable();
    await writable.write(bytes as Uint8Array<ArrayBuffer>);
    await writable.close();

    const brain = await openBrain({ dbName, closeOnPageHide: false });
    open.push(brain);
    const events = await brain.listEvents(sessionId);
    expect(events).toHaveLength(3);
    const marked = events.find((e) => e.id === bad.event.id);
    expect(marked).toMatchObject({
      kind: 'note',
      text: expect.stringMatching(new RegExp(`Event ${bad.event.id} could not be read`)),
    });
    expect(events.filter((e) => e.kind !== 'note').map((e) => e.kind)).toEqual(['instruction', 'validation']);
    const resume = await brain.resumePoint(sessionId);
    expect(JSON.stringify(resume.checkpoint)).toContain('Fix the paginator');
    expect(JSON.stringify(resume.checkpoint)).toContain('npm test');
    await expect(brain.compressContext(sessionId)).resolves.toBeDefined();
    const steps = await brain.listSteps(taskId);
    expect(steps).toHaveLength(2);
    expect(steps[1]).toMatchObject({ id: step.id, params: null, unreadable: { params: expect.any(String) } });
    expect(steps[0]).toMatchObject({ params: { command: 'ls' } });
    expect((await brain.searchHistory('paginator')).hits.length).toBeGreaterThan(0);
  });
});
