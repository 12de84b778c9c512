import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain } from '../../src/lib/index';

const open: Brain[] = [];
let counter = 0;
const uniqueName = () => `browser-${Date.now().toString(36)}-${++counter}.db`;

async function brainNamed(dbName: string, takeOver = false) {
  const brain = await openBrain({ dbName, takeOver, closeOnPageHide: false });
  open.push(brain);
  return brain;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((brain) => brain.close()));
});

describe('the engine in a worker on OPFS', () => {
  it('records sessions, tasks, messages and steps in a real agent.db', async () => {
    const brain = await brainNamed(uniqueName());
    const info = await brain.info();
    expect(info.storage).toBe('opfs');
    expect(info.schemaVersion).toBeGreaterThanOrEqual(1);

    const { id: sessionId } = await brain.startSession({ title: 'Fix the parser' });
    const { id: parent } = await brain.startTask({ sessionId, title: 'Parser' });
    const { id: child } = await brain.startTask({
      sessionId,
      title: 'Sub-agent',
      parentTaskId: parent,
      makeCurrent: false,
    });
    await brain.recordMessage({
      sessionId,
      taskId: parent,
      role: 'user',
      content: 'Please fix the parser ✓',
    });
    await brain.recordStep({
      taskId: parent,
      tool: 'run_tests',
      params: { cmd: 'npm test' },
      result: { passed: 3 },
      status: 'ok',
    });

    const tasks = await brain.listTasks(sessionId);
    expect(tasks.map((t) => [t.title, t.state, t.parentTaskId])).toEqual([
      ['Parser', 'running', null],
      ['Sub-agent', 'running', parent],
    ]);
    expect(tasks[0]?.references).toEqual([{ to: child, kind: 'child' }]);
    expect((await brain.getSession(sessionId)).currentTaskId).toBe(parent);
    expect((await brain.listMessages(sessionId))[0]?.content).toBe('Please fix the parser ✓');
    expect(await brain.listSteps(parent)).toMatchObject([
      { seq: 1, tool: 'run_tests', params: { cmd: 'npm test' }, result: { passed: 3 } },
    ]);
    expect(await brain.integrityCheck()).toEqual(['ok']);
  });

  it('rejects bad input with typed errors that cross the worker', async () => {
    const brain = await brainNamed(uniqueName());
    await expect(brain.setTaskState(12345 as never, 'done')).rejects.toMatchObject({ code: 'NotFound' });
    const { id: sessionId } = await brain.startSession();
    const { id: taskId } = await brain.startTask({ sessionId, title: 't' });
    await expect(brain.setTaskState(taskId, 'exploded' as never)).rejects.toMatchObject({
      code: 'InvalidArgument',
      name: 'BrainError',
    });
  });

  it('keeps data across close and reopen', async () => {
    const dbName = uniqueName();
    const first = await brainNamed(dbName);
    const { id } = await first.startSession({ title: 'survives' });
    await first.close();
    const second = await brainNamed(dbName);
    expect((await second.getSession(id)).title).toBe('survives');
  });

  it('lets one owner hold a database: a second opener is refused, a take-over stops the first', async () => {
    const dbName = uniqueName();
    const events: string[] = [];
    const first = await openBrain({
      dbName,
      closeOnPageHide: false,
      onOwnerEvent: (e) => events.push(e.kind),
    });
    open.push(first);
    await first.startSession({ title: 'first' });
    await expect(openBrain({ dbName, closeOnPageHide: false })).rejects.toMatchObject({
      code: 'OpenElsewhere',
    });

    const second = await brainNamed(dbName, true);
    await expect.poll(() => events).toEqual(['taken-over']);
    await expect(first.listSessions()).rejects.toMatchObject({ code: 'OpenElsewhere' });
    const sessions = await second.listSessions();
    expect(sessions.map((s) => s.title)).toEqual(['first']);
    await second.startSession({ title: 'second' });
    expect(await second.integrityCheck()).toEqual(['ok']);
  });

  it('exports a valid SQLite file and imports it back; junk is refused and loses nothing', async () => {
    const source = await brainNamed(uniqueName());
    const { id } = await source.startSession({ title: 'exported' });
    const bytes = await source.exportDatabase();
    expect(new TextDecoder().decode(bytes.subarray(0, 15))).toBe('SQLite format 3');
    await source.startSession({ title: 'still works after export' });

    const target = await brainNamed(uniqueName());
    await target.startSession({ title: 'will be replaced' });
    // importDatabase moves its bytes to the worker (the array is empty afterwards): keep `bytes` with a copy.
    const report = await target.importDatabase(bytes.slice());
    expect(report.bytes).toBe(bytes.byteLength);
    expect((await target.listSessions()).map((s) => s.title)).toEqual(['exported']);
    expect((await target.getSession(id)).title).toBe('exported');

    const junk = new TextEncoder().encode('not a database at all'.repeat(100));
    await expect(target.importDatabase(junk)).rejects.toMatchObject({ code: 'NotSqlite' });
    const truncated = bytes.slice(0, bytes.byteLength - 100);
    await expect(target.importDatabase(truncated)).rejects.toMatchObject({ code: 'CorruptDatabase' });
    const damaged = bytes.slice();
    damaged.fill(0xff, 4096 + 8, 4096 + 400);
    await expect(target.importDatabase(damaged)).rejects.toMatchObject({ code: 'CorruptDatabase' });
    expect((await target.listSessions()).map((s) => s.title)).toEqual(['exported']);
    expect(await target.integrityCheck()).toEqual(['ok']);
  });

  /**
   * Subscribes, records a session and a task, then (when `unsubscribeFirst`) unsubscribes and records one more
   * session; returns the topics the listener saw once that last change has had its chance to reach it. The signal
   * is a witness listener subscribed after it: the worker calls listeners in the order they subscribed, so by the
   * time the witness has a change, the listener's call for it (had it still been subscribed) was made before.
   */
  async function topicsSeen(unsubscribeFirst: boolean): Promise<string[]> {
    const brain = await brainNamed(uniqueName());
    const topics: string[] = [];
    const unsubscribe = await brain.subscribe((change) => topics.push(change.topic));
    const witnessed: string[] = [];
    await brain.subscribe((change) => void witnessed.push(change.topic));
    const { id: sessionId } = await brain.startSession();
    await brain.startTask({ sessionId, title: 'x' });
    await expect.poll(() => topics).toEqual(['sessions', 'tasks']);
    if (unsubscribeFirst) await unsubscribe();
    await brain.startSession();
    await expect.poll(() => witnessed).toEqual(['sessions', 'tasks', 'sessions']);
    return topics;
  }

  it('notifies subscribers after committed changes, and stops once they unsubscribe', async () => {
    expect(await topicsSeen(true)).toEqual(['sessions', 'tasks']);
  });

  it('control: a listener still subscribed does see that last change', async () => {
    expect(await topicsSeen(false)).toEqual(['sessions', 'tasks', 'sessions']);
  });
});
