import { describe, expect, it } from 'vitest';
import type { AgentAction } from '../../src/ui/demo/actions';
import { nextScriptedAction } from '../../src/ui/demo/next';
import { demoScript, scriptActions } from '../../src/ui/demo/script';
import { createDemoAgent, type AgentWorkspace } from '../../src/ui/demo/agent';
import { demoProjectFiles } from '../../src/storage/agent-folder/demo-project';
import { memoryBrain } from './engine-helpers';
import { fakeMemoryFiles } from './memory-files-fake';

const all = scriptActions(demoScript);
/** The plan step each action belongs to (null before the plan and after the last step). */
const stepOf: (number | null)[] = (() => {
  let current: number | null = null;
  return all.map((a) => {
    if (a.kind === 'start_step') current = a.n;
    const n = current;
    if (a.kind === 'complete_step' && a.n === 8) current = null;
    return a.kind === 'plan' || a.kind === 'instruct' ? null : n;
  });
})();

function workspace(): AgentWorkspace & { files: Map<string, string>; failAfterWrite?: string } {
  const files = new Map(Object.entries(demoProjectFiles));
  const ws: AgentWorkspace & { files: Map<string, string>; failAfterWrite?: string } = {
    files,
    async read(path) {
      return files.get(path) ?? null;
    },
    async write(path, text) {
      files.set(path, text);
      if (ws.failAfterWrite === path) {
        ws.failAfterWrite = undefined;
        throw new Error('killed between the write and its record');
      }
    },
  };
  return ws;
}

async function setUp() {
  const folder = fakeMemoryFiles();
  const { api } = await memoryBrain({ memoryFiles: folder.provider });
  return { api, folder, ws: workspace() };
}

type Api = Awaited<ReturnType<typeof setUp>>['api'];

/** What the log says happened, in order, without ids and times: two runs that did the same work compare equal. */
async function story(api: Api, sessionId: Parameters<Api['listEvents']>[0]) {
  const tasks = new Map((await api.listTasks(sessionId)).map((t) => [t.id, t.title]));
  return (await api.listEvents(sessionId)).map((e) => {
    const detail = e.kind === 'validation' ? `${e.name}:${e.result}` : e.kind === 'file_change' ? e.path : '';
    return `${tasks.get(e.taskId as never) ?? '-'}|${e.kind}|${detail}|${e.text.replace(/#\d+/g, '#')}`;
  });
}

async function expectFinished(
  api: Api,
  sessionId: Parameters<Api['listEvents']>[0],
  taskId: Parameters<Api['getPlan']>[0],
) {
  const plan = await api.getPlan(taskId);
  expect(plan?.steps.map((s) => s.state)).toEqual(Array(8).fill('done'));
  const done = await api.listEvents(sessionId, { kinds: ['plan_step_done'] });
  expect(done.map((e) => e.planStepId)).toEqual(plan?.steps.map((s) => s.id));
  const runs = await api.listEvents(sessionId, { kinds: ['validation'] });
  const scripted = all.filter((a): a is Extract<AgentAction, { kind: 'validate' }> => a.kind === 'validate');
  expect(runs.map((r) => (r.kind === 'validation' ? [r.name, r.result, r.text] : []))).toEqual(
    scripted.map((a) => [a.name, a.result, a.output]),
  );
  expect((await api.getTask(taskId)).state).toBe('done');
}

describe('the demo script', () => {
  it('is one long task: ≥ 40 actions, several files, a child agent, failing then passing tests, a superseded decision, a blocker', () => {
    expect(all.length).toBeGreaterThanOrEqual(40);
    const paths = new Set(all.flatMap((a) => (a.kind === 'edit' ? [a.path] : [])));
    expect(paths.size).toBeGreaterThanOrEqual(5);
    expect(all.some((a) => a.kind === 'spawn_child')).toBe(true);
    expect(all.some((a) => a.kind === 'decide' && a.supersedes !== undefined)).toBe(true);
    expect(all.some((a) => a.kind === 'block')).toBe(true);
    const npm = all
      .filter((a) => a.kind === 'validate' && a.name === 'npm test')
      .map((a) => (a.kind === 'validate' ? a.result : ''));
    expect(npm).toEqual(['failed', 'passed', 'failed', 'passed']);
    expect(all.filter((a) => a.kind === 'compress')).toHaveLength(3);
  });

  it('starts with the instruction and ends with nothing left', () => {
    const fresh = { taskId: null, taskState: null, plan: null, events: [], tasks: [], compressions: 0 };
    expect(nextScriptedAction(demoScript, fresh)?.action.kind).toBe('instruct');
  });
});

describe('the demo agent', () => {
  it('runs the whole task through the API, against the demo project files', async () => {
    const { api, folder, ws } = await setUp();
    const seen: string[] = [];
    const result = await createDemoAgent(api, {
      workspace: ws,
      onAction: (r) => seen.push(r.action.kind),
    }).run();
    expect(result.stoppedBy).toBe('finished');
    expect(result.performed).toHaveLength(all.length);
    expect(seen).toEqual(all.map((a) => a.kind));
    await expectFinished(api, result.sessionId, result.taskId);
    expect(result.resume.firstUnfinishedAction.kind).toBe('done');

    const paginate = ws.files.get('src/paginate.ts') ?? '';
    expect(paginate).toContain('i < start + pageSize');
    expect(paginate).toContain("import { decodeCursor, encodeCursor } from './cursor';");
    expect(paginate).toContain('readonly nextCursor: string | null;');
    expect(paginate).toContain('encodeCursor(end) : null');
    expect(ws.files.get('src/cursor.ts')).toContain('export function decodeCursor');
    expect(ws.files.get('docs/cursor-notes.md')).toContain('Recommendation');
    expect(ws.files.get('.agent/MEMORY.md')).toContain('survives JSON');

    const tasks = await api.listTasks(result.sessionId);
    expect(tasks.map((t) => [t.title, t.state, t.parentTaskId])).toEqual([
      [demoScript.taskTitle, 'done', null],
      ['Child agent: survey cursor conventions', 'done', result.taskId],
    ]);
    const summaries = (await api.listSummaries(result.sessionId)).filter(
      (s) => s.kind === 'session_checkpoint',
    );
    expect(summaries).toHaveLength(3);
    const recall = (await api.listEvents(result.sessionId, { kinds: ['note'] })).at(-1);
    expect(recall?.text).toMatch(
      /^Looked up "decision loop bound" in the history: Decision — \[Decision\]: Change the \[loop\] \[bound\] from <= to < .*\(#\d+\)/,
    );
    expect(folder.texts.get('.agent/SESSION_SUMMARY.md')).toContain('All 8 plan steps are done.');

    const again = await createDemoAgent(api, { workspace: ws }).run();
    expect(again).toMatchObject({ sessionId: result.sessionId, stoppedBy: 'finished', performed: [] });
  });

  it('after two compressions, finds the early superseded decision and a compressed-away file change in the history', async () => {
    const { api, ws } = await setUp();
    const result = await createDemoAgent(api, { workspace: ws }).run();
    const decision = await api.searchHistory('plain item indexes', {
      sessionId: result.sessionId,
      kinds: ['decision'],
    });
    expect(decision.hits[0]).toMatchObject({ kind: 'decision', title: 'Decision' });
    const event = await api.getEvent(decision.hits[0]!.eventId!);
    expect(event.compressedAt).not.toBeNull();
    const superseding = (await api.listEvents(result.sessionId, { kinds: ['decision'] })).find(
      (e) => e.kind === 'decision' && e.supersedes === event.id,
    );
    expect(superseding?.text).toBe('Cursors are opaque base64 strings');
    const file = await api.searchHistory('loop before start', {
      sessionId: result.sessionId,
      kinds: ['file_change'],
    });
    expect(file.hits[0]).toMatchObject({ path: 'src/paginate.ts' });
    expect((await api.getEvent(file.hits[0]!.eventId!)).compressedAt).not.toBeNull();
  });

  it('pauses between actions and goes on from there', async () => {
    const { api, ws } = await setUp();
    const agent = createDemoAgent(api, {
      workspace: ws,
      onAction: (r) => r.performed === 5 && agent.pause(),
    });
    const first = await agent.run();
    expect(first).toMatchObject({ stoppedBy: 'paused' });
    expect(first.performed).toHaveLength(5);
    const rest = await createDemoAgent(api, { workspace: ws }).run();
    expect(rest.performed).toHaveLength(all.length - 5);
    await expectFinished(api, rest.sessionId, rest.taskId);
  });

  it('killed at any action, resumes from resumePoint without repeating work or validation', async () => {
    const reference = await setUp();
    const whole = await createDemoAgent(reference.api, { workspace: reference.ws }).run();
    const expected = await story(reference.api, whole.sessionId);

    const killPoints = [
      1, 2, 3, 5, 9, 14, 17, 18, 22, 23, 25, 27, 30, 33, 36, 38, 41, 42, 45, 46, 49, 53, 57, 59, 60,
    ];
    for (const k of killPoints) {
      const { api, ws } = await setUp();
      const first = await createDemoAgent(api, { workspace: ws, maxActions: k }).run();
      expect(first.performed).toHaveLength(k);
      // What the restart sees: resumePoint names the step the next action belongs to.
      const resume = await api.resumePoint(first.sessionId);
      const step = stepOf[k];
      if (step !== null && step !== undefined) expect(resume.firstUnfinishedAction.planStepN).toBe(step);
      else expect(resume.firstUnfinishedAction.planStepN).toBeNull();
      if (all[k]?.kind === 'unblock') expect(resume.firstUnfinishedAction.kind).toBe('resolve_blocker');
      const rest = await createDemoAgent(api, { workspace: ws }).run();
      expect(rest.performed.map((a) => a.kind)).toEqual(all.slice(k).map((a) => a.kind));
      expect(await story(api, first.sessionId)).toEqual(expected);
      await expectFinished(api, first.sessionId, first.taskId);
      expect(ws.files).toEqual(reference.ws.files);
    }
  }, 180_000);

  it('survives a kill between writing a file and recording it: the edit is recorded once, with its true before', async () => {
    const { api, ws } = await setUp();
    ws.failAfterWrite = 'src/cursor.ts';
    await expect(createDemoAgent(api, { workspace: ws }).run()).rejects.toThrow('killed');
    const result = await createDemoAgent(api, { workspace: ws }).run();
    const changes = await api.listEvents(result.sessionId, { kinds: ['file_change'] });
    expect(changes.filter((e) => e.kind === 'file_change' && e.path === 'src/cursor.ts')).toMatchObject([
      { change: 'created' },
    ]);
    await expectFinished(api, result.sessionId, result.taskId);
  });
});
