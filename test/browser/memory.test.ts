/**
 * The memory features through the real worker on OPFS, with a real project folder: events, plan files,
 * compression into HISTORY.jsonl / SESSION.jsonl / SESSION_SUMMARY.md, resume after the brain is closed and
 * reopened, and recall whose file-change hits open their diff.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseAgentLog, parsePlan, parseSessionSummary } from '../../src/core/formats';
import { openBrain, type Brain } from '../../src/lib/index';

const open: Brain[] = [];
const projects: [Brain, string][] = [];
let counter = 0;
const unique = (what: string) => `memory-${what}-${Date.now().toString(36)}-${++counter}`;

async function brainWithProject(dbName = `${unique('db')}.db`, project = unique('project')) {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  open.push(brain);
  await brain.openProject({ kind: 'opfs', name: project, create: true });
  projects.push([brain, project]);
  return { brain, dbName, project };
}

afterEach(async () => {
  for (const [brain, name] of projects.splice(0)) await brain.deleteProject(name).catch(() => undefined);
  await Promise.all(open.splice(0).map((brain) => brain.close()));
});

const text = async (brain: Brain, path: string) => (await brain.readAgentFile(path)).text;

describe('memory on OPFS', () => {
  it('records events, keeps PLAN.md in step, compresses into the .agent files and resumes after a reopen', async () => {
    const { brain, dbName, project } = await brainWithProject();
    const { id: sessionId } = await brain.startSession({ title: 'CSV' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 'Add CSV export' });
    const { plan } = await brain.createPlan({
      taskId,
      goal: 'Reports as CSV',
      steps: [{ what: 'Write the writer' }, { what: 'Wire the button' }],
    });
    const [write, wire] = plan.steps.map((s) => s.id) as [never, never];
    await brain.recordInstruction({ sessionId, text: 'Add CSV export' });
    await brain.startPlanStep(write);
    const old = await brain.recordDecision({ sessionId, text: 'Hand-written CSV quoting' });
    await brain.recordDecision({ sessionId, text: 'Use papaparse', supersedes: old.id });
    const before = 'export {};\n';
    const after = 'export const toCsv = (rows: string[][]) => rows.map((r) => r.join(",")).join("\\n");\n';
    const { id: entry } = await brain.checkpointFile({ taskId, path: 'src/csv.ts', before, after });
    const change = await brain.recordFileChange({
      sessionId,
      path: 'src/csv.ts',
      checkpointEntryId: entry,
      text: 'toCsv',
    });
    expect(change.sessionFile).toBe('appended');
    await brain.recordValidation({ sessionId, name: 'npm test', result: 'failed', text: 'quotes' });
    await brain.recordValidation({ sessionId, name: 'npm test', result: 'passed' });
    await brain.completePlanStep(write);
    await brain.startPlanStep(wire);
    await brain.recordNote({ sessionId, text: 'looking at the button' });

    expect(parsePlan(await text(brain, '.agent/plan/PLAN.md')).items.map((i) => i.status)).toEqual([
      'done',
      'started',
    ]);
    const compressed = await brain.compressContext(sessionId, { keepTail: 2 });
    expect(compressed.files.status).toBe('written');
    const history = parseAgentLog(await text(brain, '.agent/HISTORY.jsonl'));
    const session = parseAgentLog(await text(brain, '.agent/SESSION.jsonl'));
    expect(history.problems).toEqual([]);
    expect(history.entries.length + session.entries.length).toBe((await brain.listEvents(sessionId)).length);
    expect(session.entries).toHaveLength(2);
    const summary = parseSessionSummary(await text(brain, '.agent/SESSION_SUMMARY.md'));
    expect(summary.nextAction).toContain('Continue step 2 of 2: Wire the button.');
    expect(summary.decisions).toEqual([expect.stringContaining('Use papaparse')]);

    // Close the brain (a reload), open it again: the resume point comes back from agent.db and the folder.
    await brain.close();
    const again = await openBrain({ dbName, closeOnPageHide: false });
    open.push(again);
    await again.openProject({ kind: 'opfs', name: project });
    const resume = await again.resumePoint(sessionId);
    expect(resume.firstUnfinishedAction).toMatchObject({ kind: 'continue_step', planStepId: wire });
    expect(resume.validationsDone).toMatchObject([{ name: 'npm test', planStepId: write }]);
    expect(resume.filesChanged).toMatchObject([{ path: 'src/csv.ts', checkpointEntryIds: [entry] }]);
    expect(resume.folder).toMatchObject({ sessionLines: 2, tornLine: false, missingFromFile: 0 });

    // Recall: the superseded decision and the compressed-away file change; the hit opens its diff.
    const decision = await again.searchHistory('hand-written quoting');
    expect(decision.hits[0]).toMatchObject({ eventId: old.id, kind: 'decision' });
    const file = await again.searchHistory('csv.ts', { kinds: ['file_change'] });
    expect(file.hits[0]).toMatchObject({ eventId: change.id, checkpointEntryId: entry });
    const diff = await again.diffCheckpoint(file.hits[0]!.checkpointEntryId!);
    expect(JSON.stringify(diff)).toContain('toCsv');
  });

  it('tolerates a torn last line in SESSION.jsonl and repairs it on the next append', async () => {
    const { brain } = await brainWithProject();
    const { id: sessionId } = await brain.startSession({ title: 'torn' });
    await brain.startTask({ sessionId, title: 't' });
    await brain.recordNote({ sessionId, text: 'whole line' });
    const file = await brain.readAgentFile('.agent/SESSION.jsonl');
    // A crash in the middle of an append leaves half a line.
    await brain.writeAgentFile('.agent/SESSION.jsonl', `${file.text}{"v":1,"ts":17000`, {
      expectedVersion: file.version,
    });
    const resume = await brain.resumePoint(sessionId);
    expect(resume.folder).toMatchObject({ sessionLines: 1, tornLine: true, malformedLines: [] });
    await brain.recordNote({ sessionId, text: 'after the crash' });
    const log = parseAgentLog(await text(brain, '.agent/SESSION.jsonl'));
    expect(log.entries.map((e) => e.record['text'])).toEqual(['whole line', 'after the crash']);
    const compressed = await brain.compressContext(sessionId, { keepTail: 5 });
    expect(compressed.files).toMatchObject({ status: 'written', droppedFragments: 1 });
    expect(parseAgentLog(await text(brain, '.agent/SESSION.jsonl')).problems).toEqual([]);
  });

  it('drafts a skill from the finished task and saves it through the project API', async () => {
    const { brain } = await brainWithProject();
    const { id: sessionId } = await brain.startSession({ title: 'skill' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 'Bump the version' });
    await brain.recordFileChange({ sessionId, path: 'package.json' });
    await brain.appendProgress({ taskId, text: 'Set version to 0.3.0 in package.json' });
    await brain.recordValidation({ sessionId, name: 'npm test', result: 'passed' });
    await brain.setTaskState(taskId, 'done');
    const draft = await brain.draftSkillFromTask(taskId);
    expect(draft).toMatchObject({ name: 'bump-the-version', exists: false });
    await brain.saveSkill(draft.name, draft.text, { expectedVersion: null });
    expect((await brain.listSkills()).map((s) => s.name)).toContain('bump-the-version');
    expect((await brain.draftSkillFromTask(taskId)).exists).toBe(true);
  });
});
