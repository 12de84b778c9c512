/**
 * One damaged row (changed outside agent-brain: importDatabase refuses such a file, so these plant it with SQL on
 * the open connection) must not make the rest unreadable: the event reads as a note saying which and why, the
 * step reads with that part null and marked, and the session's other events, resume point, compression and
 * history still work.
 */
import { describe, expect, it } from 'vitest';
import type { EventId, StepId } from '../../src/core/ids';
import { memoryBrain } from './engine-helpers';
import { fakeMemoryFiles } from './memory-files-fake';

async function session() {
  const folder = fakeMemoryFiles();
  const brain = await memoryBrain({ memoryFiles: folder.provider });
  const { api } = brain;
  const { id: sessionId } = await api.startSession({ title: 'CSV' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Add CSV export' });
  const sql = (text: string, params: (string | number)[] = []) => brain.database.driver.run(text, params);
  return { ...brain, folder, sessionId, taskId, sql };
}

describe('an event row that cannot be read', () => {
  it('reads as a note naming it, and the session, resume point, compression and history still work', async () => {
    const { api, sql, sessionId } = await session();
    await api.recordInstruction({ sessionId, text: 'Add CSV export' });
    const bad = await api.recordValidation({ sessionId, name: 'npm test', result: 'failed', text: 'quotes' });
    await api.recordDecision({ sessionId, text: 'Use papaparse', why: 'quoting' });
    await api.recordNote({ sessionId, text: 'tail' });
    await sql('UPDATE events SET data = ? WHERE id = ?', ['{"name":"npm test",', bad.id]);

    const standIn = {
      id: bad.id,
      sessionId,
      kind: 'note',
      text: `Event ${bad.id} could not be read: its data is not valid JSON.`,
      unreadable: { kind: 'validation', text: 'quotes' },
    };
    const events = await api.listEvents(sessionId);
    expect(events.map((e) => e.kind)).toEqual(['instruction', 'note', 'decision', 'note']);
    expect(events[1]).toMatchObject(standIn);
    expect(events[2]).toMatchObject({ kind: 'decision', why: 'quoting' });
    expect(await api.getEvent(bad.id)).toMatchObject(standIn);

    const resume = await api.resumePoint(sessionId);
    expect(resume.load.tail.map((e) => e.id)).toContain(bad.id);
    expect(resume.validationsDone).toEqual([]);
    const preview = await api.activeCheckpoint(sessionId);
    expect(preview.markdown).toContain('Use papaparse');
    const compressed = await api.compressContext(sessionId, { keepTail: 1 });
    expect(compressed.movedToHistory).toBe(3);
    expect(await api.listEvents(sessionId, { activeOnly: true })).toHaveLength(1);
    expect((await api.searchHistory('papaparse', { sessionId })).hits).not.toHaveLength(0);
  });

  it('reads each kind of damage as a note saying what it is, the rest as stored', async () => {
    const { api, sql, sessionId } = await session();
    const blocker = await api.raiseBlocker({ sessionId, text: 'Registry down' });
    const resolved = await api.resolveBlocker({ sessionId, blockerId: blocker.id, text: 'Back up' });
    const change = await api.recordFileChange({ sessionId, path: 'src/csv.ts', change: 'created' });
    const check = await api.recordValidation({ sessionId, name: 'lint', result: 'passed' });
    const decision = await api.recordDecision({ sessionId, text: 'Keep it small' });
    const good = await api.recordNote({ sessionId, text: 'fine' });
    await sql('UPDATE events SET data = ? WHERE id = ?', ['[1,2]', change.id]);
    await sql('UPDATE events SET data = ? WHERE id = ?', ['{"result":"maybe","name":"lint"}', check.id]);
    await sql('UPDATE events SET data = ? WHERE id = ?', ['{"why":7}', decision.id]);
    await sql('UPDATE events SET ref_event_id = NULL WHERE id = ?', [resolved.id]);

    const byId = new Map((await api.listEvents(sessionId)).map((e) => [e.id, e]));
    const text = (id: EventId) => byId.get(id)?.text;
    expect(text(change.id)).toBe(`Event ${change.id} could not be read: its data is not a JSON object.`);
    expect(text(check.id)).toBe(`Event ${check.id} could not be read: its data has an invalid result.`);
    expect(text(decision.id)).toBe(`Event ${decision.id} could not be read: its data has an invalid why.`);
    expect(text(resolved.id)).toBe(`Event ${resolved.id} could not be read: it lost the event it refers to.`);
    expect(byId.get(resolved.id)).toMatchObject({
      unreadable: { kind: 'blocker_resolved', text: 'Back up' },
    });
    expect(byId.get(blocker.id)).toMatchObject({ kind: 'blocker', text: 'Registry down' });
    expect(byId.get(good.id)).toEqual(expect.not.objectContaining({ unreadable: expect.anything() }));

    // A new event that refers to a damaged one is refused, saying so.
    await expect(api.resolveBlocker({ sessionId, blockerId: resolved.id })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await sql('UPDATE events SET data = ? WHERE id = ?', ['{', blocker.id]);
    await expect(api.resolveBlocker({ sessionId, blockerId: blocker.id })).rejects.toMatchObject({
      code: 'CorruptDatabase',
      message: `Event ${blocker.id} could not be read: its data is not valid JSON. The blocker must be one that can be read.`,
    });
  });
});

describe('a step row that cannot be read', () => {
  it('reads with that part null and marked; the task’s other steps read as stored', async () => {
    const { api, sql, taskId } = await session();
    const steps = [];
    for (const tool of ['read', 'edit', 'test', 'lint']) {
      steps.push(
        (await api.recordStep({ taskId, tool, params: { tool }, result: { ok: true }, status: 'ok' })).id,
      );
    }
    const [read, edit, test, lint] = steps as [StepId, StepId, StepId, StepId];
    await sql('UPDATE steps SET params = ? WHERE id = ?', ['{"path": ', edit]);
    await sql('UPDATE steps SET params = ?, result = ? WHERE id = ?', ['nope', '{"a":', test]);
    // Stored before recordStep bounded nesting: 2,000 levels could not be sent out of the worker.
    await sql('UPDATE steps SET result = ? WHERE id = ?', ['['.repeat(2_000) + ']'.repeat(2_000), lint]);

    const listed = await api.listSteps(taskId);
    expect(listed.map((s) => s.id)).toEqual([read, edit, test, lint]);
    expect(listed[0]).toEqual(expect.not.objectContaining({ unreadable: expect.anything() }));
    expect(listed[0]).toMatchObject({ params: { tool: 'read' }, result: { ok: true } });
    expect(listed[1]).toMatchObject({
      tool: 'edit',
      params: null,
      result: { ok: true },
      unreadable: { params: 'params is not valid JSON' },
    });
    expect(listed[2]?.unreadable).toEqual({
      params: 'params is not valid JSON',
      result: 'result is not valid JSON',
    });
    expect(listed[3]).toMatchObject({ params: { tool: 'lint' }, result: null });
    expect(listed[3]?.unreadable?.result).toMatch(/^result is nested 2,000 levels deep; the limit is 64 /);
  });
});

describe('recordStep in the engine', () => {
  it('refuses params nested past 64 levels, typed, and stores 64 levels exactly', async () => {
    const { api, taskId } = await session();
    let deep: unknown = 'leaf';
    for (let i = 0; i < 1_500; i++) deep = { a: deep };
    await expect(
      api.recordStep({ taskId, tool: 't', params: deep as never, status: 'ok' }),
    ).rejects.toMatchObject({
      code: 'InvalidArgument',
      message: expect.stringMatching(
        /^params is nested 1,500 levels deep; the limit is 64 \(level 65 is at params\.a\.a\.a\.a….a\.a\.a\)\.$/,
      ),
    });
    let list: unknown = [];
    for (let i = 0; i < 100_000; i++) list = [list];
    await expect(
      api.recordStep({ taskId, tool: 't', result: list as never, status: 'ok' }),
    ).rejects.toMatchObject({
      code: 'InvalidArgument',
      message: expect.stringMatching(/^result is nested 100,001 levels/),
    });

    let ok: unknown = 1;
    for (let i = 0; i < 64; i++) ok = i % 2 ? { k: ok } : [ok];
    await api.recordStep({ taskId, tool: 't', params: ok as never, status: 'ok' });
    expect((await api.listSteps(taskId)).map((s) => s.params)).toEqual([ok]);
  });
});

describe('a cleanup record that cannot be read', () => {
  it('is a typed CorruptDatabase naming the record, not an untyped JSON error', async () => {
    const { api, sql, sessionId, taskId } = await session();
    await api.recordStep({ taskId, tool: 't', params: {}, status: 'ok' });
    await api.setTaskState(taskId, 'superseded');
    await api.setCurrentTask(sessionId, null);
    const report = await api.cleanup();
    const [entry] = report.cleaned;
    expect(entry).toBeDefined();
    await sql('UPDATE cleanup_log SET reason = ? WHERE id = ?', ['{"kind":', entry?.id ?? 0]);
    await expect(api.cleanupLog()).rejects.toMatchObject({
      code: 'CorruptDatabase',
      message: `Cleanup record ${entry?.id} (task ${taskId}) has a reason that is not valid JSON; the database was changed outside agent-brain.`,
    });
  });
});
