/**
 * An imported run is dated by its own records: a finished run's task and session last changed when its last record
 * was written — not when it began (the end-of-run note was written at the start time, and the session's time went
 * back with it), nor when it was imported (the task's state change took the clock). Found on a real Codex rollout
 * (pinouchon/rtchess: its session "updated" 15 hours before its end, its task a year after it).
 */
import { describe, expect, it } from 'vitest';
import { memoryBrain } from './engine-helpers';
import {
  codexAnswer,
  codexCall,
  codexMeta,
  codexOutput,
  codexPrompt,
  jsonLines,
} from '../fixtures/transcripts/codex-records';

const at = (s: number) => new Date(Date.UTC(2026, 10, 3, 9, 0, s)).toISOString();
const lines = [
  codexMeta('0190c0de-0000-7000-8000-00000000abcd', at(0), '/home/dev/shop', '0.60.1'),
  codexPrompt('Run the cart tests.', at(1)),
  codexCall('exec_command', { cmd: 'npm test -- cart' }, 'call_t1', at(2)),
  codexOutput('call_t1', 'Process exited with code 0\nOutput:\n3 passed\n', at(30)),
  codexAnswer('The cart tests pass.', at(42)),
];
const file = {
  name: 'rollout-2026-11-03T09-00-00-0190c0de-0000-7000-8000-00000000abcd.jsonl',
  data: new TextEncoder().encode(`${jsonLines(lines)}\n`),
};

describe("an imported run's times", () => {
  it('a finished run: its end note, its task and its session are dated at its last record', async () => {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({ files: [file] });
    const sessionId = sessions[0]!.sessionId;
    const last = Date.parse(at(42));
    const [task] = await api.listTasks(sessionId);
    expect(task!.state).toBe('done');
    expect(task!.createdAt).toBe(Date.parse(at(1)));
    expect(task!.updatedAt).toBe(last);
    const session = await api.getSession(sessionId);
    expect(session.updatedAt).toBe(last);
    const note = (await api.listEvents(sessionId)).find((e) => e.kind === 'progress');
    expect(note?.createdAt).toBe(last);
    // Imported again: nothing new, nothing moves.
    await api.importTranscript({ files: [file] });
    expect((await api.getSession(sessionId)).updatedAt).toBe(last);
    expect((await api.listTasks(sessionId))[0]!.updatedAt).toBe(last);
  });
});
