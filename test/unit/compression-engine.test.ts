import { describe, expect, it } from 'vitest';
import { parseAgentLog } from '../../src/core/formats/agent-log';
import { parseSessionSummary } from '../../src/core/formats/session-summary';
import { compressWithProse } from '../../src/lib/memory-client';
import { memoryBrain } from './engine-helpers';
import { fakeMemoryFiles } from './memory-files-fake';

const SESSION = '.agent/SESSION.jsonl';
const HISTORY = '.agent/HISTORY.jsonl';
const SUMMARY = '.agent/SESSION_SUMMARY.md';

const idsIn = (text: string | undefined) => parseAgentLog(text ?? '').entries.map((e) => e.record['id']);

async function setUp() {
  const folder = fakeMemoryFiles();
  const { api } = await memoryBrain({ memoryFiles: folder.provider });
  const { id: sessionId } = await api.startSession({ title: 'CSV' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Add CSV export' });
  return { api, folder, sessionId, taskId };
}

async function someWork(
  api: Awaited<ReturnType<typeof setUp>>['api'],
  sessionId: Awaited<ReturnType<typeof setUp>>['sessionId'],
) {
  const old = await api.recordDecision({ sessionId, text: 'Hand-written CSV parser' });
  await api.recordInstruction({ sessionId, text: 'Add CSV export' });
  await api.recordNote({ sessionId, text: 'Looking at quoting rules' });
  await api.recordDecision({ sessionId, text: 'Use papaparse', supersedes: old.id });
  await api.recordFileChange({
    sessionId,
    path: 'src/csv.ts',
    change: 'created',
    checkpointEntryId: 11 as never,
  });
  await api.recordValidation({ sessionId, name: 'npm test', result: 'failed', text: 'quotes' });
  await api.recordFileChange({ sessionId, path: 'src/csv.ts', checkpointEntryId: 12 as never });
  await api.recordValidation({ sessionId, name: 'npm test', result: 'passed' });
  await api.recordNote({ sessionId, text: 'tail a' });
  await api.recordNote({ sessionId, text: 'tail b' });
  return old;
}

describe('compressContext', () => {
  it('writes the summary, moves all but the tail to HISTORY.jsonl and trims SESSION.jsonl', async () => {
    const { api, folder, sessionId } = await setUp();
    await someWork(api, sessionId);
    const all = await api.listEvents(sessionId);
    const result = await api.compressContext(sessionId, { keepTail: 2 });

    expect(result.files).toEqual({
      summary: true,
      session: true,
      history: true,
      plan: false,
      droppedFragments: 0,
      status: 'written',
    });
    expect(result.movedToHistory).toBe(8);
    expect(idsIn(folder.texts.get(HISTORY))).toEqual(all.slice(0, 8).map((e) => e.id));
    expect(idsIn(folder.texts.get(SESSION))).toEqual(all.slice(8).map((e) => e.id));
    expect(folder.texts.get(SUMMARY)).toBe(result.markdown);
    expect(parseSessionSummary(result.markdown).decisions).toEqual([
      expect.stringContaining('Use papaparse'),
    ]);
    expect(result.markdown).not.toContain('Hand-written');
    expect((await api.listEvents(sessionId, { activeOnly: true })).map((e) => e.text)).toEqual([
      'tail a',
      'tail b',
    ]);
    const summaries = await api.listSummaries(sessionId);
    expect(summaries.map((s) => [s.id, s.kind])).toEqual([[result.summaryId, 'session_checkpoint']]);
    expect(result.budget.before.events).toBe(10);
    expect(result.budget.after.tailEvents).toBe(2);
    expect(result.budget.dropped.map((d) => d.reason)).toContain('superseded by decision #4');
    expect(result.budget.after.chars).toBeLessThan(result.budget.before.chars + result.markdown.length);
  });

  it('moves only new events on the next compression; the active checkpoint still knows older ones', async () => {
    const { api, folder, sessionId } = await setUp();
    await someWork(api, sessionId);
    await api.compressContext(sessionId, { keepTail: 2 });
    await api.recordNote({ sessionId, text: 'later 1' });
    await api.recordNote({ sessionId, text: 'later 2' });
    const second = await api.compressContext(sessionId, { keepTail: 1 });
    expect(second.movedToHistory).toBe(3);
    const history = idsIn(folder.texts.get(HISTORY));
    expect(new Set(history).size).toBe(history.length);
    expect(history).toHaveLength(11);
    expect(idsIn(folder.texts.get(SESSION))).toHaveLength(1);
    expect(second.checkpoint.decisions.map((d) => d.text)).toEqual(['Use papaparse']);
    expect(second.checkpoint.files[0]).toMatchObject({
      path: 'src/csv.ts',
      edits: 2,
      checkpointEntryIds: [11, 12],
    });
  });

  it("keeps other sessions' lines and a person's junk in SESSION.jsonl, and drops only a torn fragment", async () => {
    const { api, folder, sessionId } = await setUp();
    const other = await api.startSession({ title: 'other' });
    await api.startTask({ sessionId: other.id, title: 'other task' });
    await api.recordNote({ sessionId: other.id, text: 'other session' });
    await api.recordNote({ sessionId, text: 'mine 1' });
    folder.edit(SESSION, `${folder.texts.get(SESSION)}not json, written by hand\n`);
    await api.recordNote({ sessionId, text: 'mine 2' });
    folder.edit(SESSION, `${folder.texts.get(SESSION)}{"v":1,"ts":1,"kind":"note","id":99,"sess`);

    const resumed = await api.resumePoint(sessionId);
    expect(resumed.folder).toEqual({
      sessionLines: 2,
      tornLine: true,
      malformedLines: [3],
      missingFromFile: 0,
    });

    await api.compressContext(sessionId, { keepTail: 1 });
    const lines = (folder.texts.get(SESSION) ?? '').split('\n');
    expect(lines[0]).toContain('other session');
    expect(lines[1]).toBe('not json, written by hand');
    expect(lines[2]).toContain('mine 2');
    expect(lines[3]).toBe('');
    expect(lines).toHaveLength(4);
  });

  it('keeps agent.db complete when the folder fails, and catches the files up next time', async () => {
    const { api, folder, sessionId } = await setUp();
    await someWork(api, sessionId);
    folder.setFailing(true);
    const failed = await api.compressContext(sessionId, { keepTail: 2 });
    expect(failed.files.status).toBe('failed');
    expect(failed.files.error).toContain('PermissionDenied');
    expect(failed.movedToHistory).toBe(8);
    folder.setFailing(false);
    await api.recordNote({ sessionId, text: 'after' });
    const ok = await api.compressContext(sessionId, { keepTail: 1 });
    expect(ok.files.status).toBe('written');
    expect(idsIn(folder.texts.get(HISTORY))).toHaveLength(10);
    expect(idsIn(folder.texts.get(SESSION))).toHaveLength(1);
  });

  it('compresses by itself once the active context passes its bound, so SESSION.jsonl stays bounded', async () => {
    const { api, folder, sessionId } = await setUp();
    let autos = 0;
    let maxLines = 0;
    for (let i = 0; i < 450; i++) {
      const recorded = await api.recordNote({ sessionId, text: `note ${i}` });
      if (recorded.autoCompressed) autos++;
      maxLines = Math.max(maxLines, idsIn(folder.texts.get(SESSION)).length);
    }
    expect(autos).toBe(2);
    expect(maxLines).toBeLessThanOrEqual(200);
    expect(idsIn(folder.texts.get(HISTORY)).length + idsIn(folder.texts.get(SESSION)).length).toBe(450);
  });

  it('marks prose written for an older active checkpoint as stale', async () => {
    const { api, sessionId } = await setUp();
    const first = await api.recordInstruction({ sessionId, text: 'Go' });
    const fresh = await api.compressContext(sessionId, { prose: 'We just started.', proseFor: first.id });
    expect(fresh.markdown).toContain('## Notes\n\nWe just started.');
    await api.recordNote({ sessionId, text: 'more' });
    const stale = await api.compressContext(sessionId, { prose: 'Old words.', proseFor: first.id });
    expect(stale.markdown).toContain('## Notes (written before the latest events)');
  });

  it('lets a model write prose on top of the structured active checkpoint (compressWithProse)', async () => {
    const { api, folder, sessionId } = await setUp();
    await someWork(api, sessionId);
    const seen: string[] = [];
    const result = await compressWithProse(api, sessionId, ({ checkpoint }) => {
      seen.push(checkpoint.nextAction.text);
      return `So far: ${checkpoint.decisions.length} decision in force.`;
    });
    expect(seen).toEqual([result.checkpoint.nextAction.text]);
    expect(folder.texts.get(SUMMARY)).toContain('## Notes\n\nSo far: 1 decision in force.');
    expect(result.checkpoint.decisions.map((d) => d.text)).toEqual(['Use papaparse']);
  });

  it('previews the active checkpoint without writing anything', async () => {
    const { api, folder, sessionId } = await setUp();
    await someWork(api, sessionId);
    const preview = await api.activeCheckpoint(sessionId);
    expect(preview.checkpoint.decisions).toHaveLength(1);
    expect(folder.texts.has(SUMMARY)).toBe(false);
    expect(await api.listSummaries(sessionId)).toEqual([]);
  });
});

describe('resumePoint', () => {
  it('names the first unfinished action, the validation not to repeat, the files changed and what to load', async () => {
    const { api, folder, sessionId, taskId } = await setUp();
    const { plan } = await api.createPlan({
      taskId,
      goal: 'Export reports as CSV',
      steps: [{ what: 'Write the writer' }, { what: 'Test quoting' }, { what: 'Wire the button' }],
    });
    const [a, b] = plan.steps.map((s) => s.id) as [never, never];
    await api.startPlanStep(a);
    await api.recordFileChange({ sessionId, path: 'src/csv.ts', checkpointEntryId: 5 as never });
    await api.recordValidation({ sessionId, name: 'npm test', result: 'passed' });
    await api.completePlanStep(a);
    await api.startPlanStep(b);
    await api.recordFileChange({ sessionId, path: 'test/csv.test.ts', change: 'created' });
    await api.recordValidation({ sessionId, name: 'npm test', result: 'failed', text: 'embedded newline' });
    await api.recordFileChange({ sessionId, path: 'src/csv.ts', checkpointEntryId: 6 as never });
    await api.recordValidation({ sessionId, name: 'npm test', result: 'passed' });
    await api.compressContext(sessionId, { keepTail: 2 });
    // A crash mid-append leaves half a line behind.
    folder.edit('.agent/SESSION.jsonl', `${folder.texts.get('.agent/SESSION.jsonl')}{"v":1,"ts":`);

    const resume = await api.resumePoint(sessionId);
    expect(resume.task?.id).toBe(taskId);
    expect(resume.goal).toBe('Export reports as CSV');
    expect(resume.firstUnfinishedAction).toMatchObject({
      kind: 'continue_step',
      planStepId: b,
      planStepN: 2,
      failing: null,
    });
    // Every check whose latest run passed, each with what changed since: step 1's run is older than two edits.
    expect(resume.validationsDone.map((v) => [v.name, v.planStepId, v.changedSince])).toEqual([
      ['npm test', a, ['test/csv.test.ts', 'src/csv.ts']],
      ['npm test', b, []],
    ]);
    expect(resume.filesChanged.map((f) => [f.path, f.checkpointEntryIds])).toEqual([
      ['test/csv.test.ts', []],
      ['src/csv.ts', [5, 6]],
    ]);
    expect(resume.load.tail).toHaveLength(2);
    expect(resume.load.files).toEqual([
      '.agent/SESSION_SUMMARY.md',
      '.agent/plan/PLAN.md',
      '.agent/plan/PROGRESS.md',
    ]);
    expect(resume.load.summaryMarkdown).toContain('Continue step 2 of 3: Test quoting.');
    expect(resume.folder).toMatchObject({ tornLine: true, malformedLines: [], missingFromFile: 0 });
  });

  it('works with no folder and no events', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const resume = await api.resumePoint(sessionId);
    expect(resume).toMatchObject({
      task: null,
      plan: null,
      folder: null,
      validationsDone: [],
      filesChanged: [],
    });
    expect(resume.firstUnfinishedAction.kind).toBe('none');
    await expect(api.resumePoint(12345 as never)).rejects.toMatchObject({ code: 'NotFound' });
  });
});
