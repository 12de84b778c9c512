/**
 * SWE-agent's windowed editor (its first ACI: `create`, `edit N:M` … `end_of_edit` on the open file), as the
 * runs it published under trajectories/demonstrations/ use it, in our own fixture
 * (test/fixtures/transcripts/swe-agent-windowed.ts): the edited and created files are listed and open as diffs,
 * the edit's text is never read as shell commands, a refused edit changed nothing, a reproduction script deleted
 * before submitting is not what the run delivered, and what ran last is not a line of code from the patch.
 */
import { describe, expect, it } from 'vitest';
import { parseSweAgentTrajectory } from '../../src/core/importers/swe-agent';
import { applyEdit, classifyToolCall } from '../../src/core/tool-calls';
import { resumePrompt } from '../../src/lib/model-tools/resume-prompt';
import { memoryBrain } from './engine-helpers';
import {
  reproduceText,
  windowedDemonstration,
  windowedSteps,
  windowedTrajectory,
} from '../fixtures/transcripts/swe-agent-windowed';

const bash = (i: number) => {
  const s = windowedSteps[i]!;
  return classifyToolCall({
    tool: 'bash',
    input: { command: s.action },
    output: s.observation,
    exitCode: null,
  });
};

describe('the windowed editor, read by the classifier', () => {
  it('create: a new empty file, at the path its window names', () => {
    expect(bash(0).fileEffects).toEqual([
      {
        kind: 'write',
        path: '/pallets__flask/reproduce_issue.py',
        via: 'create',
        change: 'created',
        body: '',
      },
    ]);
  });

  it('edit N:M: the lines replaced in the open file; its text is never run as commands', () => {
    const m = bash(1);
    expect(m.fileEffects).toMatchObject([
      {
        kind: 'edit',
        path: '/pallets__flask/reproduce_issue.py',
        edits: [{ type: 'lines', start: 1, end: 1, text: reproduceText }],
        replayable: true,
      },
    ]);
    expect(m.checks).toEqual([]);
    // Control: the same words as a shell line are a deletion and a check run.
    const asShell = classifyToolCall({
      tool: 'bash',
      input: { command: 'rm -rf build\npytest' },
      output: '',
    });
    expect(asShell.fileEffects.map((e) => e.kind)).toEqual(['delete']);
    expect(asShell.checks).toHaveLength(1);
  });

  it('an edit the linter refused changed nothing', () => {
    expect(bash(4).fileEffects).toEqual([]);
    expect(bash(5).fileEffects).toHaveLength(1);
  });

  it('replays lines N..M as the tool does (split and joined on \\n)', () => {
    const edit = (start: number, end: number, text: string) =>
      applyEdit('a\nb\nc\n', {
        kind: 'edit',
        path: 'f',
        via: 'edit',
        change: 'modified',
        edits: [{ type: 'lines', start, end, text }],
        replayable: true,
      });
    expect(edit(2, 2, 'B1\nB2')).toEqual({ ok: true, after: 'a\nB1\nB2\nc\n' });
    expect(edit(1, 3, '')).toEqual({ ok: true, after: '' });
    expect(edit(3, 2, 'x')).toEqual({ ok: true, after: 'a\nb\nx\nc\n' }); // end before start: an insertion
    expect(edit(9, 9, 'x')).toMatchObject({ ok: false });
  });
});

describe('the run, imported', () => {
  async function imported() {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({
      files: [{ name: 'pallets__flask-4935.traj', data: new TextEncoder().encode(windowedTrajectory()) }],
    });
    const sessionId = sessions[0]!.sessionId;
    const [task] = await api.listTasks(sessionId);
    return { api, sessionId, taskId: task!.id, point: await api.resumePoint(sessionId) };
  }

  it('reads the working directory from the state SWE-agent wrote as JSON text', () => {
    expect(parseSweAgentTrajectory(windowedTrajectory(), { name: 'x.traj' }).meta.cwd).toBe(
      '/pallets__flask',
    );
  });

  it('lists the fixed file and opens it as a diff; the script created and deleted is transient', async () => {
    const { api, taskId, point } = await imported();
    expect(point.filesChanged.map((f) => [f.path, f.change, f.transient])).toEqual([
      ['reproduce_issue.py', 'deleted', true],
      ['src/flask/blueprints.py', 'modified', false],
    ]);
    const entries = await api.listCheckpoints(taskId);
    const script = entries.filter((e) => e.path === 'reproduce_issue.py');
    const bodies = await Promise.all(script.map((e) => api.readCheckpoint(e.id)));
    expect(bodies.map((b) => [b.before, b.after])).toEqual([
      [null, ''],
      ['', reproduceText],
      [reproduceText, null],
    ]);
    const fix = entries.find((e) => e.path === 'src/flask/blueprints.py')!;
    expect((await api.diffCheckpoint(fix.id)).patch).toContain('+        self.url_prefix = join_prefix(');
  });

  it("done: names the fix, not the deleted script's failed run; what ran last is the patch, not its last line", async () => {
    const { api, sessionId, point } = await imported();
    expect(point.firstUnfinishedAction).toMatchObject({
      kind: 'done',
      text: 'The task is done — changed src/flask/blueprints.py.',
    });
    expect(point.checkpoint.lastAction?.summary).toBe('printed a diff of src/flask/blueprints.py');
    const prompt = await resumePrompt(api, sessionId);
    expect(prompt).toContain('What ran last: `submit` (ok) — printed a diff of src/flask/blueprints.py');
    expect(prompt).toContain(
      'No check left to run: the scripts it checked with were deleted afterwards (`python reproduce_issue.py`).',
    );
    expect(prompt).not.toContain('rm -rf build');
  });
});

describe('the run as a demonstration keeps it: only its history', () => {
  it('reads the steps from the history: the calls, the working directory, the end by submit', () => {
    const parsed = parseSweAgentTrajectory(windowedDemonstration(), { name: 'x.traj' });
    expect(parsed.problems).toEqual([]);
    expect(parsed.meta.cwd).toBe('/pallets__flask');
    const calls = parsed.items.flatMap((i) => (i.kind === 'tool_call' ? [i.call] : []));
    expect(calls.map((c) => (c.input as { command: string }).command)).toEqual(
      windowedSteps.map((s) => s.action.trim()),
    );
    expect(calls[0]?.output).toBe(windowedSteps[0]!.observation); // without the tools' footer
    expect(
      parsed.items.filter((i) => i.kind === 'run_end').map((i) => i.kind === 'run_end' && i.outcome),
    ).toEqual(['submitted']);
  });

  it('imports as the trajectory does: done, the fix listed with its diff', async () => {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({
      files: [{ name: 'demo.traj', data: new TextEncoder().encode(windowedDemonstration()) }],
    });
    const point = await api.resumePoint(sessions[0]!.sessionId);
    expect(point.firstUnfinishedAction).toMatchObject({
      kind: 'done',
      text: 'The task is done — changed src/flask/blueprints.py.',
    });
  });

  it('cut before its submit: no end (control)', () => {
    const parsed = parseSweAgentTrajectory(windowedDemonstration(windowedSteps.slice(0, -1)), {
      name: 'x.traj',
    });
    expect(parsed.items.some((i) => i.kind === 'run_end')).toBe(false);
  });
});
