import { describe, expect, it } from 'vitest';
import { memoryBrain } from './engine-helpers';

describe('the core engine API (Node, real SQLite in memory)', () => {
  it('runs a session with nested child tasks, references, messages, steps and summaries', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'Refactor' });
    const { id: root } = await api.startTask({ sessionId, title: 'Root' });
    const { id: child } = await api.startTask({
      sessionId,
      title: 'Child',
      parentTaskId: root,
      makeCurrent: false,
    });
    const { id: other } = await api.startTask({
      sessionId,
      title: 'Other',
      references: [{ to: child, kind: 'reference' }],
    });
    expect((await api.getSession(sessionId)).currentTaskId).toBe(other);
    expect((await api.getTask(root)).references).toEqual([{ to: child, kind: 'child' }]);
    expect((await api.getTask(other)).references).toEqual([{ to: child, kind: 'reference' }]);

    await api.recordMessage({ sessionId, taskId: root, role: 'assistant', content: 'On it' });
    await api.recordStep({
      taskId: child,
      tool: 'read',
      params: { path: 'a.ts' },
      result: 'text',
      status: 'ok',
    });
    await api.recordStep({ taskId: child, tool: 'write', status: 'error' });
    await api.recordSummary({ sessionId, taskId: root, kind: 'task', content: 'Root did things' });
    expect((await api.listSteps(child)).map((s) => [s.seq, s.tool, s.status, s.params])).toEqual([
      [1, 'read', 'ok', { path: 'a.ts' }],
      [2, 'write', 'error', null],
    ]);
    expect((await api.listMessages(sessionId, root)).map((m) => m.content)).toEqual(['On it']);
    expect((await api.listSummaries(sessionId)).map((s) => s.content)).toEqual(['Root did things']);
    await api.setTaskState(root, 'waiting_user');
    await api.pinTask(child, true);
    const tasks = await api.listTasks(sessionId);
    expect(tasks.map((t) => [t.title, t.state, t.pinned])).toEqual([
      ['Root', 'waiting_user', false],
      ['Child', 'running', true],
      ['Other', 'running', false],
    ]);
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('refuses invalid input with typed errors and writes nothing', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: otherSession } = await api.startSession();
    const { id: taskId } = await api.startTask({ sessionId, title: 't' });
    await expect(api.startTask({ sessionId, title: 'x', parentTaskId: 999 as never })).rejects.toMatchObject({
      code: 'NotFound',
    });
    await expect(
      api.startTask({ sessionId, title: 'x', references: [{ to: 999 as never, kind: 'child' }] }),
    ).rejects.toMatchObject({
      code: 'NotFound',
    });
    expect((await api.listTasks(sessionId)).length).toBe(1);
    await expect(api.startTask({ sessionId, title: 42 as never })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(api.startTask({ sessionId, title: 'x'.repeat(501) })).rejects.toMatchObject({
      code: 'TooLarge',
    });
    await expect(
      api.recordMessage({ sessionId: otherSession, taskId, role: 'user', content: 'x' }),
    ).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(
      api.recordMessage({ sessionId, role: 'robot' as never, content: 'x' }),
    ).rejects.toMatchObject({ code: 'InvalidArgument' });
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    await expect(
      api.recordStep({ taskId, tool: 't', params: cyclic as never, status: 'ok' }),
    ).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(api.addTaskReference(taskId, taskId, 'reference')).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(api.getSession(-1 as never)).rejects.toMatchObject({ code: 'InvalidArgument' });
    expect(await api.listMessages(sessionId)).toEqual([]);
  });

  it('keeps tasks as orphans when their session is deleted (cleanup removes them gradually)', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: taskId } = await api.startTask({ sessionId, title: 't' });
    await api.recordMessage({ sessionId, role: 'user', content: 'hello' });
    await api.deleteSession(sessionId);
    expect((await api.getTask(taskId)).sessionId).toBeNull();
    await expect(api.getSession(sessionId)).rejects.toMatchObject({ code: 'NotFound' });
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('serialises concurrent calls so transactions never interleave', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        i % 5 === 4
          ? api.startTask({ sessionId, title: 'bad', parentTaskId: 10_000 as never })
          : api.startTask({ sessionId, title: `t${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(32);
    expect(await api.listTasks(sessionId)).toHaveLength(32);
    expect(await api.integrityCheck()).toEqual(['ok']);
  });

  it('announces committed changes to subscribers', async () => {
    const { api } = await memoryBrain();
    const seen: string[] = [];
    const unsubscribe = await api.subscribe((change) => seen.push(change.topic));
    const { id: sessionId } = await api.startSession();
    await api.startTask({ sessionId, title: 't' }).catch(() => undefined);
    await expect(api.startTask({ sessionId, title: 'x', parentTaskId: 77 as never })).rejects.toThrow();
    unsubscribe();
    await api.startSession();
    // The first call of an opened engine records the size sample of the state it found (topic 'sizes').
    expect(seen).toEqual(['sizes', 'sessions', 'tasks']);
  });
});
