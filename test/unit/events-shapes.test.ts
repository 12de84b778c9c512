/**
 * The event objects the engine hands out, every key and its order (they become SESSION.jsonl lines and cross the
 * worker as they are): as `recordEvent` returns them (parseEventInput → eventFromRecord) and as `listEvents`
 * reads them back from their rows (toEvent), for each kind, its optional fields present and absent.
 */
import { describe, expect, it } from 'vitest';
import { eventFromRecord, parseEventInput, type SessionEvent } from '../../src/core/events/model';
import { asEventId, asSessionId } from '../../src/core/ids';
import { memoryBrain } from './engine-helpers';

const common = [
  'id',
  'sessionId',
  'taskId',
  'stepId',
  'planStepId',
  'text',
  'createdAt',
  'compressedAt',
  'kind',
];

/** The keys, in order, with their values: toEqual alone would not see the order. */
const entries = (event: SessionEvent) => Object.entries(event);

describe('event shapes', () => {
  it('records and reads back each kind with the same keys in the same order', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 's' });
    const { id: taskId } = await api.startTask({ sessionId, title: 't' });
    const question = await api.askQuestion({ sessionId, text: 'Which?' });
    const blocker = await api.raiseBlocker({ sessionId, text: 'Down' });
    const decision = await api.recordDecision({ sessionId, text: 'First' });
    const todos = { mode: 'replace', items: [{ text: 'Fix it', state: 'started', id: 'a' }] } as const;
    const cases: [object, string[]][] = [
      [{ kind: 'instruction', text: 'Do it' }, []],
      [{ kind: 'note', text: 'plain' }, []],
      [{ kind: 'note', text: 'said', said: true }, ['said']],
      [{ kind: 'note', text: 'todo', todos }, ['todos']],
      [{ kind: 'note', text: 'both', said: true, todos }, ['said', 'todos']],
      [{ kind: 'note', text: 'not said', said: false, todos: null }, []],
      [
        { kind: 'decision', text: 'Second', why: ' because ', supersedes: decision.id },
        ['why', 'supersedes'],
      ],
      [{ kind: 'decision', text: 'Third', why: '  ' }, ['why', 'supersedes']],
      [{ kind: 'file_change', path: ' src/a.ts ' }, ['path', 'change', 'checkpointEntryId']],
      [
        { kind: 'file_change', path: '/etc/x', change: 'deleted', outside: true },
        ['path', 'change', 'checkpointEntryId', 'outside'],
      ],
      [
        { kind: 'file_change', path: 'b.ts', change: 'created', outside: false },
        ['path', 'change', 'checkpointEntryId'],
      ],
      [{ kind: 'file_change', path: 'c.ts', shown: true }, ['path', 'change', 'checkpointEntryId', 'shown']],
      [{ kind: 'file_change', path: 'd.ts', shown: false }, ['path', 'change', 'checkpointEntryId']],
      [{ kind: 'validation', name: 'npm test', result: 'failed' }, ['name', 'result']],
      [{ kind: 'blocker_resolved', resolves: blocker.id, text: 'Up' }, ['resolves']],
      [{ kind: 'answer', answers: question.id }, ['answers']],
      [{ kind: 'progress', text: 'Half', next: 'rest' }, ['next']],
      [{ kind: 'progress', text: 'Done', next: ' ' }, ['next']],
      [{ kind: 'question', text: 'Why?' }, []],
    ];
    for (const [input, extra] of cases) {
      const recorded = (await api.recordEvent({ sessionId, taskId, ...input } as never)).event;
      expect(Object.keys(recorded), JSON.stringify(input)).toEqual([...common, ...extra]);
      const [read] = await api.listEvents(sessionId, {
        afterId: asEventId(recorded.id - 1),
        limit: 1,
      } as never);
      expect(entries(read as SessionEvent), JSON.stringify(input)).toEqual(entries(recorded));
    }
    const said = (await api.listEvents(sessionId)).find((e) => e.text === 'both');
    expect(said).toMatchObject({
      said: true,
      todos: { mode: 'replace', items: [{ text: 'Fix it', id: 'a' }] },
    });
    const outside = (await api.listEvents(sessionId)).find(
      (e) => e.kind === 'file_change' && e.path === '/etc/x',
    );
    expect(outside).toMatchObject({ change: 'deleted', outside: true, checkpointEntryId: null });
    expect((await api.listEvents(sessionId)).find((e) => e.text === 'Third')).toMatchObject({ why: null });
  });

  it('parses a file change and a note into the stored record, key by key', () => {
    const base = { sessionId: 3, taskId: 4, stepId: 5 };
    expect(
      Object.entries(parseEventInput({ ...base, kind: 'file_change', path: 'a.ts', outside: true })),
    ).toEqual([
      ['sessionId', 3],
      ['taskId', 4],
      ['stepId', 5],
      ['planStepId', null],
      ['kind', 'file_change'],
      ['text', ''],
      ['refEventId', null],
      ['path', 'a.ts'],
      ['checkpointEntryId', null],
      ['data', { change: 'modified', outside: true }],
    ]);
    const note = parseEventInput({ ...base, kind: 'note', text: ' hi ', said: true });
    expect(Object.entries(note.data)).toEqual([['said', true]]);
    const event = eventFromRecord({ ...note, id: asEventId(9), createdAt: 1, compressedAt: null });
    expect(Object.entries(event)).toEqual([
      ['id', 9],
      ['sessionId', asSessionId(3)],
      ['taskId', 4],
      ['stepId', 5],
      ['planStepId', null],
      ['text', 'hi'],
      ['createdAt', 1],
      ['compressedAt', null],
      ['kind', 'note'],
      ['said', true],
    ]);
  });
});
