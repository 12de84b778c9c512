import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../src/core/formats/skill';
import { skillNameFrom } from '../../src/core/plan/skill-draft';
import { memoryBrain } from './engine-helpers';
import { fakeMemoryFiles } from './memory-files-fake';

async function finishedTask() {
  const folder = fakeMemoryFiles();
  const { api } = await memoryBrain({ memoryFiles: folder.provider });
  const { id: sessionId } = await api.startSession({ title: 'CSV' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Add CSV export to reports' });
  const { plan } = await api.createPlan({
    taskId,
    goal: 'Reports can be downloaded as CSV',
    steps: [
      { what: 'Write the CSV writer', why: 'quoting is the hard part' },
      { what: 'Try an XML export' },
      { what: 'Wire the download button' },
    ],
  });
  const [write, xml, wire] = plan.steps.map((s) => s.id) as [never, never, never];
  await api.startPlanStep(write);
  const first = await api.recordDecision({ sessionId, text: 'Hand-written quoting' });
  await api.recordDecision({
    sessionId,
    text: 'Use papaparse for quoting',
    why: 'RFC 4180 edge cases',
    supersedes: first.id,
  });
  await api.recordFileChange({ sessionId, path: 'src/csv.ts', change: 'created' });
  await api.recordValidation({
    sessionId,
    name: 'npm test',
    result: 'failed',
    text: 'embedded newline splits a row',
  });
  await api.recordFileChange({ sessionId, path: 'src/csv.ts' });
  await api.recordValidation({ sessionId, name: 'npm test', result: 'passed' });
  await api.completePlanStep(write);
  await api.skipPlanStep(xml, { reason: 'not needed' });
  await api.startPlanStep(wire);
  const blocker = await api.raiseBlocker({ sessionId, text: 'Download needs a filename' });
  const { id: child } = await api.startTask({
    sessionId,
    title: 'Child: name the file',
    parentTaskId: taskId,
    makeCurrent: false,
  });
  await api.recordFileChange({ sessionId, taskId: child, path: 'src/filename.ts', change: 'created' });
  await api.resolveBlocker({ sessionId, blockerId: blocker.id, text: 'report-<date>.csv' });
  await api.recordFileChange({ sessionId, path: 'src/ui/ReportPage.svelte' });
  await api.recordValidation({ sessionId, name: 'npm test', result: 'passed' });
  return { api, folder, sessionId, taskId, wire };
}

describe('promote to skill', () => {
  it('drafts a SKILL.md from a finished, validated task: steps that worked, files, checks, decisions, pitfalls', async () => {
    const { api, taskId, wire } = await finishedTask();
    await expect(api.draftSkillFromTask(taskId)).rejects.toMatchObject({
      code: 'Conflict',
      message: expect.stringContaining('not finished'),
    });
    await api.completePlanStep(wire);

    const draft = await api.draftSkillFromTask(taskId);
    expect(draft).toMatchObject({
      name: 'add-csv-export-to-reports',
      path: '.agent/skills/add-csv-export-to-reports/SKILL.md',
      exists: false,
    });
    expect(draft.steps).toEqual(['Write the CSV writer', 'Wire the download button']);
    expect(draft.validations).toEqual([{ name: 'npm test', runs: 3, failedRuns: 1 }]);
    const skill = parseSkill(draft.text, draft.name);
    expect(skill.problems).toEqual([]);
    expect(skill.description).toContain('Reports can be downloaded as CSV');
    expect(skill.body).toContain(
      '1. Write the CSV writer — quoting is the hard part\n   - Files: `src/csv.ts`\n   - Checked with: `npm test`',
    );
    expect(skill.body).toContain(
      '2. Wire the download button\n   - Files: `src/filename.ts`, `src/ui/ReportPage.svelte`',
    );
    expect(skill.body).not.toContain('XML');
    expect(skill.body).toContain('- Use papaparse for quoting — why: RFC 4180 edge cases');
    expect(skill.body).toContain('- Tried: Hand-written quoting → replaced by: Use papaparse for quoting');
    expect(skill.body).toContain('- Blocked by: Download needs a filename → resolved: report-<date>.csv');
    expect(skill.body).toContain(
      '- `npm test` failed 1× before passing (first: embedded newline splits a row)',
    );
    expect(skill.body).toContain('- Run `npm test`: it must pass (passed after 3 runs).');
  });

  it('refuses a task whose last check failed, or that no check proved', async () => {
    const { api, sessionId, taskId, wire } = await finishedTask();
    await api.completePlanStep(wire);
    await api.recordValidation({ sessionId, name: 'lint', result: 'failed' });
    await expect(api.draftSkillFromTask(taskId)).rejects.toMatchObject({
      code: 'Conflict',
      message: expect.stringContaining('lint'),
    });

    const { id: other } = await api.startTask({ sessionId, title: 'No checks' });
    await api.setTaskState(other, 'done');
    await expect(api.draftSkillFromTask(other)).rejects.toMatchObject({
      code: 'Conflict',
      message: expect.stringContaining('no validation'),
    });
  });

  it('takes a given name, refuses a bad one, and says when the skill exists already', async () => {
    const { api, folder, taskId, wire } = await finishedTask();
    await api.completePlanStep(wire);
    folder.edit('.agent/skills/csv-export/SKILL.md', '---\nname: csv-export\ndescription: x\n---\n');
    const draft = await api.draftSkillFromTask(taskId, { name: 'csv-export' });
    expect(draft).toMatchObject({ name: 'csv-export', exists: true });
    await expect(api.draftSkillFromTask(taskId, { name: 'CSV Export' })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
  });

  it('names skills the way the convention allows', () => {
    expect(skillNameFrom('Fix the off-by-one in paginate()!')).toBe('fix-the-off-by-one-in-paginate');
    expect(skillNameFrom('Ünïcödé — ✓')).toBe('unicode');
    expect(skillNameFrom('***')).toBe('task-skill');
    expect(skillNameFrom('a'.repeat(80) + ' b').length).toBeLessThanOrEqual(64);
  });
});
