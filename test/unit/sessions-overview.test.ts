/**
 * The sessions list's summaries (issue 28) on the real wa-sqlite with imported fixtures: each session's agent,
 * project (its agent's working folder), the transcript's first and last item, its run state (finished / stopped /
 * running, from the task state and the run end the importer records) and counts — and the projects the brain
 * knows. The figures of every session come from a fixed number of statements, whatever the number of sessions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrainApi, SessionOverview } from '../../src/core/api';
import { fixedClock } from '../../src/core/clock';
import { createBrainApi } from '../../src/engine/create-engine';
import { runStateOf } from '../../src/engine/sessions/overview';
import type { Database } from '../../src/storage/sqlite/database';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateMiniSweAgentTrajectory } from '../fixtures/transcripts/swe-agent';
import { memoryBrain } from './engine-helpers';
import { memoryDirectory } from './memory-directory';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The engine over a database whose statements are counted (`all`, `get`, `run`). */
async function countedBrain() {
  const { database } = await memoryBrain();
  closers.push(() => database.close());
  const counter = { statements: 0 };
  const driver = new Proxy(database.driver, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'all' || key === 'get' || key === 'run') counter.statements++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const counted = new Proxy(database, {
    get: (target, key, receiver) => (key === 'driver' ? driver : Reflect.get(target, key, receiver)),
  }) as Database;
  const api = createBrainApi({ database: counted, storage: 'memory', clock: fixedClock() });
  return { api, counter };
}

const encode = (text: string) => new TextEncoder().encode(text);

interface MiniDoc {
  info: Record<string, unknown>;
  messages: ({ role: string; content: string; extra: Record<string, unknown> } | null)[];
}

/** The mini-swe-agent run as it ended (`Submitted`), stopped by its step limit, or cut before its end. */
function miniRun(end: 'submitted' | 'stopped' | 'cut', id: string) {
  const fixture = generateMiniSweAgentTrajectory();
  const doc = JSON.parse(fixture.text) as MiniDoc;
  if (end === 'stopped') {
    doc.messages.pop(); // the submit command and its exit become a step-limit exit
    doc.messages.pop();
    doc.messages.push({ role: 'exit', content: 'LimitsExceeded', extra: { exit_status: 'LimitsExceeded' } });
    doc.info = { ...doc.info, exit_status: 'LimitsExceeded', submission: '' };
  } else if (end === 'cut') {
    doc.messages.splice(-2);
    doc.info = { ...doc.info, exit_status: null, submission: null };
  }
  // An item's time: the agent's message (a command's time is its call's; its output is not an item of its own).
  const times = doc.messages.flatMap((m) =>
    m?.role === 'assistant' && typeof m.extra['timestamp'] === 'number' ? [m.extra['timestamp']] : [],
  );
  return {
    file: { name: `${id}/${id}.traj.json`, data: encode(JSON.stringify(doc)) },
    first: Math.min(...times) * 1000,
    last: Math.max(...times) * 1000,
    fixture,
  };
}

async function importOne(api: BrainApi, files: { name: string; data: Uint8Array }[]) {
  const [session] = (await api.importTranscript({ files })).sessions;
  return session!;
}

const byId = (list: readonly SessionOverview[], id: number) => list.find((s) => s.id === id)!;

describe('sessionsOverview', () => {
  it('sums up imported runs as they ended: agent, project, first and last item, state and counts', async () => {
    const { api } = await countedBrain();
    const finished = miniRun('submitted', 'pallets__flask-1');
    const stopped = miniRun('stopped', 'pallets__flask-2');
    const cut = miniRun('cut', 'pallets__flask-3');
    const claude = generateClaudeCodeSession();
    const ids = {
      finished: (await importOne(api, [finished.file])).sessionId,
      stopped: (await importOne(api, [stopped.file])).sessionId,
      cut: (await importOne(api, [cut.file])).sessionId,
      claude: (
        await importOne(
          api,
          [claude.main, claude.subagent].map((f) => ({ name: f.name, data: f.bytes })),
        )
      ).sessionId,
    };
    const { sessions, projects } = await api.sessionsOverview();
    expect(sessions).toHaveLength(4);

    const run = byId(sessions, ids.finished);
    const truth = finished.fixture.truth;
    expect(run).toMatchObject({
      agent: 'mini-swe-agent',
      project: { name: 'testbed', path: '/testbed' },
      state: 'finished',
      prompts: truth.prompts.length,
      toolCalls: truth.toolCalls['bash'],
      filesChanged: truth.filesChanged.length,
    });
    expect(run.title).toContain('pallets__flask-1');
    // The transcript's own times, not the import's (the fixed clock stands at 0).
    expect([run.startedAt, run.endedAt]).toEqual([finished.first, finished.last]);
    expect(byId(sessions, ids.stopped).state).toBe('stopped');
    expect(byId(sessions, ids.cut).state).toBe('running');
    expect(byId(sessions, ids.cut).endedAt).toBe(cut.last);

    const t = claude.truth;
    const prompts =
      t.prompts.length + t.subagentPrompts.length + Object.values(t.threadPrompts).flat().length;
    const session = byId(sessions, ids.claude);
    expect(session).toMatchObject({
      agent: 'claude-code',
      project: { name: 'ledger', path: t.cwd },
      state: 'running', // its transcript ends on a torn line, not on the agent's final answer
      prompts,
      toolCalls: t.toolCalls.length + t.subagentToolCalls.length,
      filesChanged: t.filesChanged.size,
    });
    expect(session.startedAt).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 20, 9, 0, 0));
    expect(session.endedAt).toBeGreaterThan(session.startedAt + 3_600_000); // the subagent starts an hour in
    expect(projects).toEqual([
      { name: 'ledger', path: t.cwd, folder: null, sessions: 1 },
      { name: 'testbed', path: '/testbed', folder: null, sessions: 3 },
    ]);
  });

  it("the brain's own sessions: no agent, no project, state from the current task, counts of what was recorded", async () => {
    const { api } = await countedBrain();
    const empty = await api.startSession({ title: 'Nothing yet' });
    const done = await api.startSession({ title: 'Done' });
    const { id: doneTask } = await api.startTask({ sessionId: done.id, title: 'Fix' });
    await api.recordEvent({
      sessionId: done.id,
      taskId: doneTask,
      kind: 'instruction',
      text: 'Fix the date test',
    });
    const edit = { tool: 'Edit', input: { file_path: 'src/date.ts', old_string: '= 1', new_string: '= 0' } };
    const files = [{ path: 'src/date.ts', before: 'weekStart = 1\n', after: 'weekStart = 0\n' }];
    await api.recordToolCall({
      sessionId: done.id,
      taskId: doneTask,
      call: { ...edit, output: 'ok' },
      files,
    });
    await api.recordToolCall({
      sessionId: done.id,
      taskId: doneTask,
      call: { ...edit, output: 'ok' },
      files,
    });
    await api.setTaskState(doneTask, 'done');
    const failed = await api.startSession({ title: 'Failed' });
    const { id: failedTask } = await api.startTask({ sessionId: failed.id, title: 'Try' });
    await api.setTaskState(failedTask, 'failed');
    const open = await api.startSession({ title: 'Open' });
    await api.startTask({ sessionId: open.id, title: 'Working' });

    const { sessions, projects } = await api.sessionsOverview();
    expect(byId(sessions, done.id)).toMatchObject({
      agent: null,
      project: null,
      state: 'finished',
      prompts: 1,
      toolCalls: 2,
      filesChanged: 1, // one path, changed twice
    });
    expect(byId(sessions, failed.id).state).toBe('stopped');
    expect(byId(sessions, open.id).state).toBe('running');
    expect(byId(sessions, empty.id)).toMatchObject({
      state: 'running',
      prompts: 0,
      toolCalls: 0,
      filesChanged: 0,
    });
    // Without any item, the session's own time.
    expect(byId(sessions, empty.id).startedAt).toBe((await api.getSession(empty.id)).createdAt);
    expect(projects).toEqual([]);
  });

  it('lists a working folder the person pointed at a folder, and counts its sessions', async () => {
    const { api } = await countedBrain();
    const session = await importOne(api, [miniRun('submitted', 'pallets__flask-9').file]);
    await api.openProject({ kind: 'handle', handle: memoryDirectory('flask-checkout', {}).handle });
    await api.confirmSessionProject(session.sessionId);
    await api.deleteSession(session.sessionId);
    expect((await api.sessionsOverview()).projects).toEqual([
      { name: 'testbed', path: '/testbed', folder: 'flask-checkout', sessions: 0 },
    ]);
  });

  it('reads every session in the same two statements: 3 sessions or 40', async () => {
    const { api, counter } = await countedBrain();
    const statementsFor = async () => {
      const before = counter.statements;
      const { sessions } = await api.sessionsOverview();
      return { statements: counter.statements - before, sessions: sessions.length };
    };
    const add = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const { id } = await api.startSession({ title: `Session ${i}` });
        await api.startTask({ sessionId: id, title: 'Work' });
      }
    };
    await add(3);
    const few = await statementsFor();
    await add(37);
    const many = await statementsFor();
    expect(few).toEqual({ statements: 2, sessions: 3 });
    expect(many).toEqual({ statements: 2, sessions: 40 });
  });
});

describe('runStateOf', () => {
  it.each([
    ['done', false, 'finished'],
    ['failed', false, 'stopped'],
    ['superseded', false, 'stopped'],
    ['running', true, 'stopped'],
    ['running', false, 'running'],
    ['waiting_user', false, 'running'],
    [null, false, 'running'],
  ] as const)('%s (stop recorded: %s) → %s', (state, stopped, expected) => {
    expect(runStateOf(state, stopped)).toBe(expected);
  });
});
