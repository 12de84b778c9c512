import { afterEach, describe, expect, it } from 'vitest';
import type { Brain, BrainChange, RetentionReason } from '../../src/lib/index';
import { describeReason } from '../../src/ui/reasons';
import { snippetParts } from '../../src/ui/snippet';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { CheckpointsState } from '../../src/ui/state/checkpoints.svelte';
import { LifecycleState } from '../../src/ui/state/lifecycle.svelte';
import { PlanState } from '../../src/ui/state/plan.svelte';
import { SearchState } from '../../src/ui/state/search.svelte';
import { ViewState } from '../../src/ui/state/view-state.svelte';
import { watch } from './ui-state-watch.svelte';

let counter = 0;
const unique = (what: string) => `ui-views-${what}-${Date.now().toString(36)}-${++counter}`;
const opened: BrainState[] = [];
const stops: (() => void)[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function openState(): Promise<{ state: BrainState; brain: Brain }> {
  const state = new BrainState({ dbName: `${unique('db')}.db`, closeOnPageHide: false });
  opened.push(state);
  await state.open();
  const brain = state.brain as Brain;
  await brain.setAutoCleanup({ enabled: false });
  return { state, brain };
}

/** A view that wants `sessions` changes only, counts its loads, and fails when told to. */
class CountingView extends ViewState {
  loads = 0;
  failNext = false;
  protected override wants(change: BrainChange): boolean {
    return change.topic === 'sessions';
  }
  protected async load(): Promise<void> {
    this.loads++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the fetch failed');
    }
    this.error = null;
  }
}

/** Resolves once `state` has fanned out a change of `topic` (so the view has seen it), then the view is quiet. */
async function afterChange(
  state: BrainState,
  view: ViewState,
  topic: BrainChange['topic'],
  act: () => Promise<unknown>,
) {
  let stop = () => {};
  const seen = new Promise<void>((resolve) => {
    stop = state.onChange((change) => {
      if (change.topic === topic) resolve();
    });
  });
  await act();
  await seen;
  stop();
  await view.settled();
}

describe('ViewState (the loop every view state shares)', () => {
  it('fetches on start, on the changes it wants only, and not after it stops; a failure is its error', async () => {
    const { state, brain } = await openState();
    const view = new CountingView(state);
    const stop = view.start();
    await view.settled();
    expect(view.loads).toBe(1);

    let sessionId!: Awaited<ReturnType<Brain['startSession']>>['id'];
    await afterChange(state, view, 'sessions', async () => {
      sessionId = (await brain.startSession({ title: 'wanted' })).id;
    });
    expect(view.loads).toBe(2);
    // A `tasks` change is not wanted: no fetch (the control above shows one would have been seen).
    await afterChange(state, view, 'tasks', () => brain.startTask({ sessionId, title: 'ignored' }));
    expect(view.loads).toBe(2);

    view.failNext = true;
    view.refresh();
    await view.settled();
    expect(view.error).toBe('the fetch failed');
    view.refresh();
    await view.settled();
    expect(view.error).toBeNull();
    expect(view.loads).toBe(4);

    stop();
    await afterChange(state, view, 'sessions', () => brain.startSession({ title: 'after stop' }));
    expect(view.loads).toBe(4);
  });
});

describe('pure helpers', () => {
  it('splits a search snippet into text and hits, never HTML', () => {
    expect(snippetParts('Patch the [list] [regex] <b>now</b>')).toEqual([
      { text: 'Patch the ', hit: false },
      { text: 'list', hit: true },
      { text: ' ', hit: false },
      { text: 'regex', hit: true },
      { text: ' <b>now</b>', hit: false },
    ]);
    expect(snippetParts('no hits')).toEqual([{ text: 'no hits', hit: false }]);
  });

  it('names tasks by title in cleanup reasons', () => {
    const titles: Record<number, string> = { 1: 'Root', 2: 'Child', 3: 'Grandchild' };
    const titleOf = (id: number) => titles[id] ?? `#${id}`;
    const referenced = {
      kind: 'referenced',
      by: 2,
      refKind: 'child',
      path: [1, 2, 3],
    } as unknown as RetentionReason;
    expect(describeReason(referenced, titleOf)).toBe(
      'a child task of “Child” (via “Root” → “Child” → “Grandchild”)',
    );
    expect(describeReason({ kind: 'superseded' }, titleOf)).toBe('marked superseded');
    expect(describeReason({ kind: 'superseded', by: 3 } as RetentionReason, titleOf)).toBe(
      'superseded: a newer task of its session, “Grandchild”, has started',
    );
    expect(describeReason({ kind: 'latest', sessionId: 1 } as RetentionReason, titleOf)).toMatch(
      /latest task of its session/,
    );
    expect(describeReason({ kind: 'orphan-deferred', limit: 4 }, titleOf)).toMatch(/limit of 4/);
  });
});

describe('PlanState', () => {
  it('shows the resume point, the checklist and the progress log newest first, and compresses on request', async () => {
    const { state, brain } = await openState();
    const { id: sessionId } = await brain.startSession({ title: 's' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 't' });
    const { plan } = await brain.createPlan({
      taskId,
      goal: 'Ship it',
      steps: [{ what: 'one' }, { what: 'two' }],
    });
    await brain.startPlanStep(plan.steps[0]!.id);
    await brain.completePlanStep(plan.steps[0]!.id);
    await brain.appendProgress({ taskId, text: 'first done', next: 'two' });
    const view = new PlanState(state);
    stops.push(view.start());
    view.select(null);
    await view.settled();
    expect(view.session?.id).toBe(sessionId);
    expect(view.resume?.goal).toBe('Ship it');
    expect(view.resume?.firstUnfinishedAction.text).toMatch(/two/);
    expect(view.log[0]).toMatchObject({ kind: 'progress', text: 'first done' });
    expect(view.log.map((e) => e.kind)).toEqual(['progress', 'plan_step_done', 'plan_step_started']);

    await brain.startPlanStep(plan.steps[1]!.id);
    await expect.poll(() => view.resume?.plan?.steps[1]?.state).toBe('started');
    const result = await view.compress();
    expect(result?.summaryId).toBeGreaterThan(0);
    expect(view.lastCompression).toBe(result);
    expect(view.compressing.running).toBe(false);
  });
});

describe('LifecycleState', () => {
  it('lists verdicts, cleans in batches counting every task, and keeps the log', async () => {
    const { state, brain } = await openState();
    const { id: sessionId } = await brain.startSession({ title: 's' });
    const done: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { id } = await brain.startTask({ sessionId, title: `old ${i}` });
      // Random bytes as base64: steps are stored packed, and a repeated character would pack to a few bytes.
      const noise = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(3000))));
      await brain.recordStep({ taskId: id, tool: 'dump', result: noise, status: 'ok' });
      await brain.setTaskState(id, 'superseded');
      done.push(id);
    }
    await brain.startTask({ sessionId, title: 'current' });
    const lifecycle = new LifecycleState(state);
    stops.push(lifecycle.start());
    await lifecycle.settled();
    expect(lifecycle.cleanupPlan?.counts.clean).toBe(6);
    expect(lifecycle.titles[done[0]!]).toBe('old 0');

    const [seen, stop] = watch(() => lifecycle.cleaning.progress);
    stops.push(stop);
    const result = await lifecycle.cleanup();
    expect(result?.cleaned.map((r) => r.taskId).sort((a, b) => a - b)).toEqual(done);
    expect(result?.bytesFreed).toBeGreaterThan(6 * 2000);
    // A person saw the count go up batch by batch (4, then 6) out of 6, then the bar go away.
    const counts = seen.filter((p) => p !== null).map((p) => `${p!.done}/${p!.total}`);
    expect(counts).toEqual(['0/6', '4/6', '6/6']);
    expect(seen.at(-1)).toBeNull();
    await lifecycle.settled();
    expect(lifecycle.cleanupPlan?.counts.clean).toBe(0);
    expect(lifecycle.log).toHaveLength(6);
  });
});

describe('SearchState', () => {
  it('finds what compression moved away, and an empty query shows nothing', async () => {
    const { state, brain } = await openState();
    const { id: sessionId } = await brain.startSession({ title: 's' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 't' });
    await brain.recordDecision({ sessionId, taskId, text: 'Use a zebra-striped cache' });
    await brain.compressContext(sessionId, { keepTail: 0 });
    const search = new SearchState(state);
    search.search('zebra');
    await search.settled();
    expect(search.hits[0]?.snippet).toMatch(/\[zebra/i);
    expect(search.sessionTitles[sessionId]).toBe('s');
    search.search('');
    await search.settled();
    expect([search.hits.length, search.matched]).toEqual([0, null]);
  });
});

describe('CheckpointsState', () => {
  it('shows a task’s files with a diff, and rolls back only the files confirmed', async () => {
    const { state, brain } = await openState();
    const name = unique('p');
    await brain.importFolderFiles(
      [
        { path: 'a.txt', data: new Blob(['a1\n']) },
        { path: 'b.txt', data: new Blob(['b1\n']) },
      ],
      { name },
    );
    cleanups.push(() => brain.deleteProject(name));
    const { id: sessionId } = await brain.startSession({ title: 's' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 'edit two files' });
    for (const path of ['a.txt', 'b.txt']) {
      const file = await brain.readProjectFile(path);
      const after = file.text.replace('1', '2');
      await brain.writeProjectFile(path, after, { expectedVersion: file.version });
      await brain.checkpointFile({ taskId, path, before: file.text, after });
    }
    // b.txt changes again after the checkpoint.
    const b = await brain.readProjectFile('b.txt');
    await brain.writeProjectFile('b.txt', 'b3\n', { expectedVersion: b.version });

    const view = new CheckpointsState(state);
    stops.push(view.start());
    view.select(null, taskId, null);
    await view.settled();
    expect(view.task?.entries.map((e) => e.path)).toEqual(['a.txt', 'b.txt']);
    expect(view.diff?.patch).toContain('+a2');

    await view.planRollback({ taskId });
    expect(view.restorePlan?.files.map((f) => [f.path, f.state])).toEqual([
      ['a.txt', 'clean'],
      ['b.txt', 'changed'],
    ]);
    const result = await view.confirmRollback(new Set());
    expect(result?.restored.map((r) => r.path)).toEqual(['a.txt']);
    expect((await brain.readProjectFile('a.txt')).text).toBe('a1\n');
    expect((await brain.readProjectFile('b.txt')).text).toBe('b3\n');
    expect(view.restorePlan).toBeNull();
  });

  it('tells an imported run in the past tense, a live session with no change yet in the present', async () => {
    const { state, brain } = await openState();
    const { id: live } = await brain.startSession({ title: 'live' });
    await brain.startTask({ sessionId: live, title: 'still running' });
    // An imported chat that changed no file and ended with no answer (its task still running).
    const chat = [
      { type: 'session_meta', payload: { id: 'c0ffee00-0000-4000-8000-000000000001', cwd: '/home/dev/q' } },
      {
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Look at q.py' }] },
      },
      {
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'exec_command',
          arguments: '{"cmd":"cat q.py"}',
          call_id: 'call_1',
        },
      },
    ].map((r) => JSON.stringify({ timestamp: '2026-11-21T08:00:00.000Z', ...r }));
    const data = new TextEncoder().encode(`${chat.join('\n')}\n`);
    const [imported] = (await brain.importTranscript({ files: [{ name: 'rollout-c0ffee00.jsonl', data }] }))
      .sessions;
    expect((await brain.listTasks(imported!.sessionId)).map((t) => t.state)).toEqual(['running']);

    const view = new CheckpointsState(state);
    stops.push(view.start());
    view.select(live, null, null);
    await view.settled();
    expect([view.tasks.length, view.sessionEnded]).toEqual([0, false]);
    view.select(imported!.sessionId, null, null);
    await view.settled();
    expect([view.tasks.length, view.sessionEnded]).toEqual([0, true]);
  });
});
