/**
 * What an agent's own compaction summary left out that the brain holds (issue 30), on a Claude Code session read
 * by the engine: every file changed, check run, decision, the failing check and the last command the summary does
 * not name are listed, each with the event or step that holds it; a summary that names them all leaves nothing
 * (the control), and naming one takes that one off.
 */
import { describe, expect, it } from 'vitest';
import { leftOutOfSummary } from '../../src/core/compression/left-out';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { memoryBrain } from './engine-helpers';

async function checkpoint() {
  const { api } = await memoryBrain();
  const file = generateClaudeCodeSession().main;
  const { sessions } = await api.importTranscript({ files: [{ name: file.name, data: file.bytes }] });
  const sessionId = sessions[0]!.sessionId;
  const agentSummary = (await api.listSummaries(sessionId)).find((s) => s.kind === 'agent-compaction');
  return {
    cp: (await api.activeCheckpoint(sessionId)).checkpoint,
    agentSummary: agentSummary?.content ?? null,
  };
}

describe('leftOutOfSummary', () => {
  it('lists what the summary does not name, each with where it is held', async () => {
    const { cp } = await checkpoint();
    expect(cp.files.length).toBeGreaterThan(0);
    const all = leftOutOfSummary('We worked on things.', cp);
    const files = all.filter((l) => l.kind === 'file');
    expect(files.map((f) => f.text.split(' (')[0])).toEqual(
      cp.files.filter((f) => !f.transient).map((f) => f.path),
    );
    for (const l of all) expect(l.eventId !== null || l.stepId !== null).toBe(true);
    if (cp.lastAction !== null)
      expect(all.some((l) => l.kind === 'last_command' && l.stepId === cp.lastAction!.stepId)).toBe(true);
    const checks = all.filter((l) => l.kind === 'check' || l.kind === 'failing_check');
    expect(checks).toHaveLength(cp.validations.length);
  });

  it('a summary naming every fact leaves nothing out; naming one file takes that one off', async () => {
    const { cp } = await checkpoint();
    const everything = [
      ...cp.files.map((f) => f.path),
      ...cp.validations.map((v) => v.name),
      ...cp.decisions.map((d) => d.text),
      cp.blocker?.text ?? '',
      cp.lastAction?.command ?? '',
    ].join('\n');
    expect(leftOutOfSummary(everything, cp)).toEqual([]);
    const first = cp.files[0]!;
    const named = leftOutOfSummary(`I edited ${first.path.split('/').pop()} so far.`, cp);
    expect(named.some((l) => l.kind === 'file' && l.text.startsWith(first.path))).toBe(false);
    expect(named.filter((l) => l.kind === 'file')).toHaveLength(
      cp.files.filter((f) => !f.transient).length - 1,
    );
  });

  it("on the session's own compaction summary, the facts it left out are found", async () => {
    const { cp, agentSummary } = await checkpoint();
    expect(agentSummary).not.toBeNull();
    const left = leftOutOfSummary(agentSummary!, cp);
    // The generated summary names some work, not all of it: a proper subset is left out.
    expect(left.length).toBeGreaterThan(0);
  });
});
