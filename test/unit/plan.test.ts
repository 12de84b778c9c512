import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../src/core/formats/plan';
import { parseProgress } from '../../src/core/formats/progress';
import { firstUnfinishedStep } from '../../src/core/plan/model';
import { syncPlanText } from '../../src/core/plan/plan-file';
import { memoryBrain } from './engine-helpers';
import { fakeMemoryFiles } from './memory-files-fake';

const PLAN = '.agent/plan/PLAN.md';
const PROGRESS = '.agent/plan/PROGRESS.md';

async function setUp() {
  const folder = fakeMemoryFiles();
  const { api } = await memoryBrain({ memoryFiles: folder.provider });
  const { id: sessionId } = await api.startSession({ title: 'CSV' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Add CSV export' });
  const created = await api.createPlan({
    taskId,
    goal: 'Export reports as CSV',
    steps: [
      { what: 'Read the report code', why: 'know where rows come from' },
      { what: 'Write the CSV writer', why: 'quoting must be right' },
      { what: 'Wire the button' },
    ],
  });
  const [a, b, c] = created.plan.steps.map((s) => s.id) as [never, never, never];
  return { api, folder, sessionId, taskId, created, a, b, c };
}

describe('plan mode', () => {
  it('creates the plan in agent.db and as PLAN.md / PROGRESS.md the format modules read', async () => {
    const { api, folder, taskId, created } = await setUp();
    expect(created.planFile).toBe('written');
    expect(created.plan.steps.map((s) => [s.n, s.what, s.why, s.state])).toEqual([
      [1, 'Read the report code', 'know where rows come from', 'todo'],
      [2, 'Write the CSV writer', 'quoting must be right', 'todo'],
      [3, 'Wire the button', '', 'todo'],
    ]);
    const plan = parsePlan(folder.texts.get(PLAN) ?? '');
    expect(plan.problems).toEqual([]);
    expect(plan.title).toBe('Add CSV export');
    expect(plan.goal).toBe('Export reports as CSV');
    expect(plan.items.map((i) => [i.id, i.status, i.text])).toEqual([
      [`s${created.plan.steps[0]?.id}`, 'todo', 'Read the report code\nWhy: know where rows come from'],
      [`s${created.plan.steps[1]?.id}`, 'todo', 'Write the CSV writer\nWhy: quoting must be right'],
      [`s${created.plan.steps[2]?.id}`, 'todo', 'Wire the button'],
    ]);
    expect(parseProgress(folder.texts.get(PROGRESS) ?? '').entries.map((e) => e.text)).toEqual([
      'Plan created: Export reports as CSV (3 steps)',
    ]);
    await expect(api.createPlan({ taskId, goal: 'again', steps: [] })).rejects.toMatchObject({
      code: 'Conflict',
    });
  });

  it('marks steps started and done once, recording each move as an event and in the files', async () => {
    const { api, folder, sessionId, a, b } = await setUp();
    expect((await api.startPlanStep(a)).changed).toBe(true);
    expect((await api.startPlanStep(a)).changed).toBe(false);
    const done = await api.completePlanStep(a, { note: 'rows come from query()' });
    expect(done.step).toMatchObject({ state: 'done' });
    expect((await api.completePlanStep(a)).changed).toBe(false);
    await api.startPlanStep(b);
    const events = await api.listEvents(sessionId, { kinds: ['plan_step_started', 'plan_step_done'] });
    expect(events.map((e) => [e.kind, e.planStepId, e.text])).toEqual([
      ['plan_step_started', a, 'Read the report code'],
      ['plan_step_done', a, 'rows come from query()'],
      ['plan_step_started', b, 'Write the CSV writer'],
    ]);
    expect(parsePlan(folder.texts.get(PLAN) ?? '').items.map((i) => i.status)).toEqual([
      'done',
      'started',
      'todo',
    ]);
    const progress = parseProgress(folder.texts.get(PROGRESS) ?? '').entries;
    expect(progress.slice(1).map((e) => [e.kind, e.itemId, e.text])).toEqual([
      ['started', `s${a}`, 'Read the report code'],
      ['done', `s${a}`, 'rows come from query()'],
      ['started', `s${b}`, 'Write the CSV writer'],
    ]);
    const plan = await api.getPlan(done.plan.taskId);
    expect(firstUnfinishedStep(plan)?.id).toBe(b);
  });

  it('links validations to the step being worked on unless told otherwise', async () => {
    const { api, sessionId, b } = await setUp();
    await api.startPlanStep(b);
    const run = await api.recordValidation({ sessionId, name: 'npm test', result: 'failed' });
    expect(run.event.planStepId).toBe(b);
    const instruction = await api.recordInstruction({ sessionId, text: 'Also add a header' });
    expect(instruction.event.planStepId).toBeNull();
  });

  it('keeps what a person wrote in PLAN.md and flips only the marks', async () => {
    const { api, folder, a } = await setUp();
    const edited = (folder.texts.get(PLAN) ?? '') + '\nA note from me: keep the old export too.\n';
    folder.edit(PLAN, edited);
    await api.startPlanStep(a);
    const text = folder.texts.get(PLAN) ?? '';
    expect(text).toContain('A note from me: keep the old export too.');
    expect(text.replace('- [/]', '- [ ]')).toBe(edited);
  });

  it('inserts steps after a given step and appends them to PLAN.md', async () => {
    const { api, folder, taskId, a } = await setUp();
    const change = await api.addPlanSteps({
      taskId,
      afterStepId: a,
      steps: [{ what: 'Ask about delimiters', why: 'Excel' }],
    });
    expect(change.plan.steps.map((s) => [s.n, s.what])).toEqual([
      [1, 'Read the report code'],
      [2, 'Ask about delimiters'],
      [3, 'Write the CSV writer'],
      [4, 'Wire the button'],
    ]);
    const items = parsePlan(folder.texts.get(PLAN) ?? '').items;
    expect(items.map((i) => i.text.split('\n')[0])).toContain('Ask about delimiters');
    expect(items).toHaveLength(4);
  });

  it('skips with a reason and refuses impossible moves', async () => {
    const { api, sessionId, c } = await setUp();
    const skipped = await api.skipPlanStep(c, { reason: 'the button exists already' });
    expect(skipped.step?.state).toBe('skipped');
    const [event] = await api.listEvents(sessionId, { kinds: ['progress'] });
    expect(event?.text).toBe('Skipped step 3: the button exists already');
    await expect(api.completePlanStep(c)).rejects.toMatchObject({ code: 'Conflict' });
    await expect(api.startPlanStep(999 as never)).rejects.toMatchObject({ code: 'NotFound' });
    await expect(
      api.createPlan({ taskId: (await api.startTask({ sessionId, title: 't' })).id, goal: ' ', steps: [] }),
    ).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
  });

  it('appends progress with what comes next', async () => {
    const { api, folder, taskId } = await setUp();
    const recorded = await api.appendProgress({
      taskId,
      text: 'Writer handles quotes',
      next: 'wire the button',
    });
    expect(recorded.event).toMatchObject({ kind: 'progress', next: 'wire the button' });
    expect(recorded.planFile).toBe('written');
    const entries = parseProgress(folder.texts.get(PROGRESS) ?? '').entries;
    expect(entries.slice(-2).map((e) => [e.kind, e.text])).toEqual([
      ['note', 'Writer handles quotes'],
      ['next', 'wire the button'],
    ]);
  });

  it('works from agent.db alone when no folder is open', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: taskId } = await api.startTask({ sessionId, title: 't' });
    const created = await api.createPlan({ taskId, goal: 'g', steps: [{ what: 'one' }] });
    expect(created.planFile).toBe('no-folder');
    expect((await api.startPlanStep(created.plan.steps[0]!.id)).planFile).toBe('no-folder');
  });
});

describe('PLAN.md sync', () => {
  it('appends steps the file lacks and leaves a file already in step untouched', async () => {
    const { api, folder, taskId } = await setUp();
    const plan = (await api.getPlan(taskId))!;
    const text = folder.texts.get(PLAN) ?? '';
    expect(syncPlanText(text, plan, 'Add CSV export')).toBe(text);
    const withoutLast = text.slice(0, text.lastIndexOf('- [ ] Wire the button'));
    expect(syncPlanText(withoutLast, plan, 'Add CSV export')).toBe(text);
  });
});

describe('a new plan where PLAN.md holds another one', () => {
  it('archives the earlier plan beside it and starts PLAN.md afresh', async () => {
    const folder = fakeMemoryFiles();
    const earlier =
      '---\nversion: 1\n---\n\n# Plan: Old work\n\n## Steps\n\n- [x] Reproduce {#reproduce}\n- [ ] Fix {#fix}\n';
    folder.edit(PLAN, earlier);
    const { api } = await memoryBrain({ memoryFiles: folder.provider });
    const { id: sessionId } = await api.startSession();
    const { id: taskId } = await api.startTask({ sessionId, title: 'New work' });
    const created = await api.createPlan({ taskId, goal: 'g', steps: [{ what: 'one' }] });
    expect(created.planFile).toBe('written');
    const archived = [...folder.texts.entries()].filter(([path]) =>
      path.startsWith('.agent/plan/archive/PLAN-'),
    );
    expect(archived.map(([, text]) => text)).toEqual([earlier]);
    expect(parsePlan(folder.texts.get(PLAN) ?? '').items.map((i) => i.text)).toEqual(['one']);
  });
});
