/**
 * Files from evidence, end to end: a bash agent's SWE-bench run that changes files through scripts
 * (test/fixtures/transcripts/swe-bench-run.ts) imported into a brain — every file of its final patch is among the
 * files changed (the run's `git diff` and its submission show those the command lines cannot), nothing it only read
 * is, each path is listed once, and the change recorded with bodies stays the one that opens as a diff. A SWE-agent
 * run that was autosubmitted gets its patch's files from `info.submission`.
 */
import { describe, expect, it } from 'vitest';
import { parseMiniSweAgentTrajectory, parseSweAgentTrajectory } from '../../src/core/importers/swe-agent';
import {
  generateAutosubmittedSweAgentRun,
  generateScriptEditRun,
} from '../fixtures/transcripts/swe-bench-run';
import { memoryBrain } from './engine-helpers';

type Brain = Awaited<ReturnType<typeof memoryBrain>>['api'];

async function importRun(api: Brain, name: string, text: string) {
  const res = await api.importTranscript({ files: [{ name, data: new TextEncoder().encode(text) }] });
  const [session] = res.sessions;
  if (!session) throw new Error('no session');
  const point = await api.resumePoint(session.sessionId);
  const steps =
    (await api.listTasks(session.sessionId)).length > 0 ? await api.listSteps(session.taskId) : [];
  return { files: point.checkpoint.files, validations: point.checkpoint.validations, steps };
}

/** The run cut after its `k`-th observation (a run that died there): its later messages and the submission gone. */
function cutAfter(text: string, index: number): string {
  const doc = JSON.parse(text) as { messages: unknown[]; info: Record<string, unknown> };
  doc.messages = doc.messages.slice(0, index + 1);
  doc.info['exit_status'] = null;
  doc.info['submission'] = null;
  return JSON.stringify(doc);
}

describe('a bash agent that edits through scripts, prints its diff and submits', () => {
  const run = generateScriptEditRun();

  it('has every file of the final patch among the files changed, and nothing it only read', async () => {
    const { api } = await memoryBrain();
    const { files, validations, steps } = await importRun(api, run.name, run.text);
    const paths = files.map((f) => f.path);
    expect(paths.sort()).toEqual([...run.truth.patchFiles, ...run.truth.scratch].sort());
    expect(new Set(paths).size).toBe(paths.length);
    for (const read of run.truth.readOnly) expect(paths).not.toContain(read);
    // The scratch scripts came and went; the patch's files are changed files of the repository (not created).
    for (const f of files)
      expect([f.path, f.transient]).toEqual([f.path, run.truth.scratch.includes(f.path)]);
    expect(files.filter((f) => !f.transient && f.path !== run.truth.withBodies).map((f) => f.change)).toEqual(
      ['modified', 'modified', 'modified'],
    );
    // One step per command: the submit command carried the submission, no second step for it.
    expect(steps).toHaveLength(run.observations.length + 1);
    // Evidence never makes the check stale: the scripts ran before it.
    expect(validations.find((v) => v.name === run.truth.check)).toMatchObject({
      result: 'passed',
      stale: false,
    });
  });

  it('keeps the change with bodies as the one that opens; the others are what the diff showed', async () => {
    const { api } = await memoryBrain();
    const { files } = await importRun(api, run.name, run.text);
    const byPath = new Map(files.map((f) => [f.path, f]));
    // The heredoc-written test, edited by a literal sed: both bodies known, one entry; the status and the
    // submission (which shows it new, whole) only confirm it.
    expect(byPath.get(run.truth.withBodies)).toMatchObject({
      change: 'created',
      edits: 2,
      lastText: 'Changed by sed -i',
    });
    expect(byPath.get(run.truth.withBodies)?.checkpointEntryIds).toHaveLength(1);
    // Changed by scripts the command lines do not show: known from the run's `git diff`, kept as a patch entry;
    // the submission only confirms them.
    for (const path of ['django/db/backends/mysql/operations.py', 'django/db/models/sql/compiler.py'])
      expect(byPath.get(path)).toMatchObject({ lastText: 'Changed, as git diff showed', edits: 1 });
    // Every file of the final patch opens as a diff.
    for (const path of run.truth.patchFiles)
      expect(byPath.get(path)?.checkpointEntryIds.length).toBeGreaterThan(0);
  });

  it('knows a script’s change from the run’s own `git diff`: not before it (control), from it on', async () => {
    const diffAt = run.observations.at(-2) as number; // `git diff`; then `git status`
    const before = await importRun((await memoryBrain()).api, run.name, cutAfter(run.text, diffAt - 2));
    expect(before.files.map((f) => f.path)).not.toContain('django/db/backends/mysql/operations.py');
    const after = await importRun((await memoryBrain()).api, run.name, cutAfter(run.text, diffAt));
    const shown = after.files.find((f) => f.path === 'django/db/backends/mysql/operations.py');
    expect(shown).toMatchObject({ change: 'modified', lastText: 'Changed, as git diff showed' });
  });

  it('reads the submit command’s output as the final patch (the importer passes the submission to it)', () => {
    const parsed = parseMiniSweAgentTrajectory(run.text, { name: run.name });
    const calls = parsed.items.filter((i) => i.kind === 'tool_call');
    expect(calls.at(-1)).toMatchObject({
      call: { tool: 'bash', output: expect.stringContaining('new file mode') as unknown },
    });
    expect(calls.some((i) => i.kind === 'tool_call' && i.call.tool === 'submit')).toBe(false);
    // Control: an exit with a submission and no submit command waiting gets a submit call of its own.
    const doc = JSON.parse(run.text) as { messages: unknown[] };
    doc.messages.splice(-2, 1);
    const alone = parseMiniSweAgentTrajectory(JSON.stringify(doc), { name: run.name }).items;
    expect(alone.filter((i) => i.kind === 'tool_call').at(-1)).toMatchObject({
      sourceId: 'submission',
      call: { tool: 'submit', output: expect.stringContaining('new file mode') as unknown },
    });
    expect(alone.filter((i) => i.kind === 'other').at(-1)).toMatchObject({ recordType: 'exit' });
  });

  it('1.0, whose submission is only in info: a submit call of its own after the unanswered submit command', async () => {
    const doc = JSON.parse(run.text) as { messages: unknown[]; trajectory_format: string };
    doc.messages.pop(); // 1.0 wrote no exit message
    doc.trajectory_format = 'mini-swe-agent-1';
    const text = JSON.stringify(doc);
    const calls = parseMiniSweAgentTrajectory(text, { name: run.name }).items.filter(
      (i) => i.kind === 'tool_call',
    );
    expect(calls.slice(-2).map((i) => [i.call.tool, i.call.output === undefined])).toEqual([
      ['bash', true],
      ['submit', false],
    ]);
    const { files } = await importRun((await memoryBrain()).api, run.name, text);
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining([...run.truth.patchFiles]));
  });
});

describe('a SWE-agent run that was autosubmitted', () => {
  it('records the files of info.submission through a submit call of its own', async () => {
    const auto = generateAutosubmittedSweAgentRun(false);
    const parsed = parseSweAgentTrajectory(auto.text, { name: auto.name });
    expect(
      parsed.items.filter((i) => i.kind === 'tool_call').map((i) => i.kind === 'tool_call' && i.call.tool),
    ).toEqual(['bash', 'bash', 'submit']);
    const { api } = await memoryBrain();
    const { files, steps } = await importRun(api, auto.name, auto.text);
    expect(files.map((f) => [f.path, f.lastText])).toEqual([
      ['django/db/backends/mysql/operations.py', 'Changed, as the final submission showed'],
    ]);
    expect(steps).toHaveLength(3);
  });

  it('control: a run whose submit step showed the patch gets no second submit', async () => {
    const submitted = generateAutosubmittedSweAgentRun(true);
    const parsed = parseSweAgentTrajectory(submitted.text, { name: submitted.name });
    expect(parsed.items.filter((i) => i.kind === 'tool_call')).toHaveLength(2);
    const { api } = await memoryBrain();
    const { files, steps } = await importRun(api, submitted.name, submitted.text);
    expect(files.map((f) => f.path)).toEqual(['django/db/backends/mysql/operations.py']);
    expect(steps).toHaveLength(2);
  });
});
