/**
 * An imported session's goal is what the person asked, whole — not its task's title, which is a list label (≤ 80
 * characters, cut, the agent's session id first). Found on a real Claude Code session: the handoff's goal read
 * "624a4a58 · @src/…/ARCHITECTURE-REFACTORING.md review old…" where the person had asked to review the old and
 * current implementation of the metrics sync and make sure it tracks every change. A session made here keeps its
 * task's title as its goal (control).
 */
import { describe, expect, it } from 'vitest';
import { resumePrompt } from '../../src/lib/model-tools/resume-prompt';
import { memoryBrain } from './engine-helpers';
import {
  codexCall,
  codexMeta,
  codexOutput,
  codexPrompt,
  jsonLines,
} from '../fixtures/transcripts/codex-records';

const at = (s: number) => new Date(Date.UTC(2026, 10, 3, 9, 0, s)).toISOString();
const asked =
  '@docs/SYNC.md review the old and the current implementation of the metrics sync: make sure it tracks every ' +
  'change, and that the conversation sync is tracked too, incrementally, from the last message synced.';
const rollout = [
  codexMeta('0190c0de-0000-7000-8000-00000000beef', at(0), '/home/dev/app'),
  codexPrompt(asked, at(1)),
  codexCall('exec_command', { cmd: 'cat docs/SYNC.md' }, 'call_g1', at(2)),
  codexOutput('call_g1', 'Process exited with code 0\nOutput:\n# Sync\n', at(3)),
  codexPrompt('Also keep old clients working.', at(4)),
];
const file = {
  name: 'rollout-2026-11-03T09-00-00-0190c0de-0000-7000-8000-00000000beef.jsonl',
  data: new TextEncoder().encode(`${jsonLines(rollout)}\n`),
};

describe("an imported session's goal", () => {
  it('is the first thing the person asked, whole; its task keeps a short title for lists', async () => {
    const { api } = await memoryBrain();
    const sessionId = (await api.importTranscript({ files: [file] })).sessions[0]!.sessionId;
    const [task] = await api.listTasks(sessionId);
    expect(task!.title.length).toBeLessThanOrEqual(80);
    expect(task!.title).toMatch(/^0190c0de · @docs\/SYNC\.md review.*…$/);
    const point = await api.resumePoint(sessionId);
    expect(point.goal).toBe(asked);
    expect(point.checkpoint.goal).toBe(asked);
    // The latest instruction is still said beside it.
    const prompt = await resumePrompt(api, sessionId);
    expect(prompt).toContain(asked);
    expect(prompt).toContain('Also keep old clients working.');
  });

  it("a session made here: its task's title is its goal (control)", async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'Sync' });
    const { id: taskId } = await api.startTask({ sessionId, title: 'Fix the metrics sync' });
    await api.recordEvent({ sessionId, taskId, kind: 'instruction', text: asked });
    expect((await api.resumePoint(sessionId)).goal).toBe('Fix the metrics sync');
  });
});
