import { describe, expect, it } from 'vitest';
import { eventFromLine, eventToLine } from '../../src/core/events/lines';
import { parseEventInput } from '../../src/core/events/model';
import { toFtsQuery } from '../../src/core/events/search';
import { asSessionId } from '../../src/core/ids';
import { memoryBrain } from './engine-helpers';
import { fakeMemoryFiles } from './memory-files-fake';

async function setUp() {
  const folder = fakeMemoryFiles();
  const { api } = await memoryBrain({ memoryFiles: folder.provider });
  const { id: sessionId } = await api.startSession({ title: 'CSV' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Add CSV export' });
  return { api, folder, sessionId, taskId };
}

describe('structured session events', () => {
  it('records every kind through the typed helpers and lists them in order', async () => {
    const { api, sessionId, taskId } = await setUp();
    const instruction = await api.recordInstruction({ sessionId, text: 'Add CSV export' });
    const first = await api.recordDecision({ sessionId, text: 'Hand-written parser', why: 'no dependency' });
    const second = await api.recordDecision({ sessionId, text: 'Use papaparse', supersedes: first.id });
    const change = await api.recordFileChange({
      sessionId,
      path: 'src/csv.ts',
      change: 'created',
      checkpointEntryId: 42 as never,
    });
    const run = await api.recordValidation({
      sessionId,
      name: 'npm test',
      result: 'failed',
      text: '1 failing',
    });
    const blocker = await api.raiseBlocker({ sessionId, text: 'Registry down' });
    await api.resolveBlocker({ sessionId, blockerId: blocker.id, text: 'Back up' });
    const question = await api.askQuestion({ sessionId, text: 'Semicolons?' });
    await api.answerQuestion({ sessionId, questionId: question.id, text: 'Yes' });
    await api.recordNote({ sessionId, text: 'thinking' });

    const events = await api.listEvents(sessionId);
    expect(events.map((e) => e.kind)).toEqual([
      'instruction',
      'decision',
      'decision',
      'file_change',
      'validation',
      'blocker',
      'blocker_resolved',
      'question',
      'answer',
      'note',
    ]);
    expect(events.every((e) => e.taskId === taskId)).toBe(true);
    expect(await api.getEvent(second.id)).toMatchObject({
      kind: 'decision',
      supersedes: first.id,
      why: null,
    });
    expect(await api.getEvent(first.id)).toMatchObject({ why: 'no dependency' });
    expect(change.event).toMatchObject({
      kind: 'file_change',
      path: 'src/csv.ts',
      change: 'created',
      checkpointEntryId: 42,
    });
    expect(run.event).toMatchObject({
      kind: 'validation',
      name: 'npm test',
      result: 'failed',
      text: '1 failing',
    });
    expect(instruction.sessionFile).toBe('appended');
    expect((await api.listEvents(sessionId, { kinds: ['decision'] })).map((e) => e.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect((await api.listEvents(sessionId, { afterId: run.id, limit: 2 })).map((e) => e.kind)).toEqual([
      'blocker',
      'blocker_resolved',
    ]);
  });

  it('appends one line per event to SESSION.jsonl that reads back as the same event', async () => {
    const { api, folder, sessionId } = await setUp();
    await api.recordInstruction({ sessionId, text: 'Go ✓' });
    await api.recordFileChange({ sessionId, path: 'a.ts' });
    const lines = (folder.texts.get('.agent/SESSION.jsonl') ?? '').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const events = await api.listEvents(sessionId);
    expect(lines.map((l) => eventFromLine(JSON.parse(l)))).toEqual(events);
  });

  it('keeps the event when the folder write fails, and says so', async () => {
    const { api, folder, sessionId } = await setUp();
    folder.setFailing(true);
    const recorded = await api.recordNote({ sessionId, text: 'still recorded' });
    expect(recorded.sessionFile).toBe('failed');
    expect(recorded.sessionFileError).toContain('PermissionDenied');
    expect(await api.getEvent(recorded.id)).toMatchObject({ text: 'still recorded' });
  });

  it('checks what an event points at', async () => {
    const { api, sessionId } = await setUp();
    const note = await api.recordNote({ sessionId, text: 'n' });
    await expect(api.recordDecision({ sessionId, text: 'x', supersedes: note.id })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(
      api.recordDecision({ sessionId, text: 'x', supersedes: 999 as never }),
    ).rejects.toMatchObject({ code: 'NotFound' });
    const blocker = await api.raiseBlocker({ sessionId, text: 'b' });
    await api.resolveBlocker({ sessionId, blockerId: blocker.id });
    await expect(api.resolveBlocker({ sessionId, blockerId: blocker.id })).rejects.toMatchObject({
      code: 'Conflict',
    });
    const other = await api.startSession({ title: 'other' });
    await expect(api.resolveBlocker({ sessionId: other.id, blockerId: blocker.id })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(api.recordInstruction({ sessionId, text: '   ' })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(
      api.recordValidation({ sessionId, name: 'npm test', result: 'green' as never }),
    ).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(api.recordEvent({ sessionId, kind: 'gossip' } as never)).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(api.recordNote({ sessionId: 404 as never, text: 'x' })).rejects.toMatchObject({
      code: 'NotFound',
    });
    await expect(api.recordNote({ sessionId, stepId: 77 as never, text: 'x' })).rejects.toMatchObject({
      code: 'NotFound',
    });
    await expect(api.listEvents(sessionId, { kinds: ['nope' as never] })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
  });

  it('refuses a task of another session', async () => {
    const { api, sessionId } = await setUp();
    const other = await api.startSession({ title: 'other' });
    const { id: foreign } = await api.startTask({ sessionId: other.id, title: 't' });
    await expect(api.recordNote({ sessionId, taskId: foreign, text: 'x' })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
  });
});

describe('event lines', () => {
  it('round-trip every field and refuse what is not an event', () => {
    const record = parseEventInput({
      sessionId: 3,
      taskId: 4,
      kind: 'validation',
      name: 'tsc',
      result: 'passed',
      text: 'ok',
    });
    expect(record.data).toEqual({ name: 'tsc', result: 'passed' });
    expect(() => eventFromLine({ v: 1, id: 1, ts: 5, kind: 'decision', session: 1 })).toThrow(/text/);
    expect(() => eventFromLine([1])).toThrow();
    expect(() => eventFromLine({ v: 99, id: 1, ts: 5, kind: 'note', session: 1, text: 'x' })).toThrow(
      /version/,
    );
    const event = eventFromLine({
      v: 1,
      id: 9,
      ts: 5,
      kind: 'decision',
      session: 1,
      text: 'B',
      supersedes: 2,
      why: 'w',
    });
    expect(eventToLine(event)).toEqual({
      v: 1,
      ts: 5,
      kind: 'decision',
      id: 9,
      session: asSessionId(1),
      text: 'B',
      supersedes: 2,
      why: 'w',
    });
  });

  it('turn free text into a safe FTS query', () => {
    expect(toFtsQuery('papaparse "quoting" OR x*')).toEqual({
      all: '"papaparse" AND "quoting" AND "OR" AND "x"*',
      any: '"papaparse" OR "quoting" OR "OR" OR "x"*',
      terms: ['"papaparse"', '"quoting"', '"OR"', '"x"*'],
    });
    expect(toFtsQuery('src/csv.ts')?.all).toBe('"src/csv.ts"');
    expect(toFtsQuery('  ** ()  ')).toBeNull();
  });
});
