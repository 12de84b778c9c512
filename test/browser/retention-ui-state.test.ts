/**
 * Issue 17, item 2, in the view states over a real worker and OPFS: pin/unpin from the sessions view, and deleting a
 * session says beforehand what goes, what stays and what cleanup will remove — then does exactly that.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Brain, TaskId } from '../../src/lib/index';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { SessionsState } from '../../src/ui/state/sessions.svelte';

let counter = 0;
const unique = (what: string) => `retention-ui-${what}-${Date.now().toString(36)}-${++counter}`;
const opened: BrainState[] = [];
const stops: (() => void)[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function openSessions(): Promise<{ sessions: SessionsState; brain: Brain }> {
  const state = new BrainState({ dbName: `${unique('db')}.db`, closeOnPageHide: false });
  opened.push(state);
  await state.open();
  const brain = state.brain as Brain;
  await brain.setAutoCleanup({ enabled: false });
  const sessions = new SessionsState(state);
  stops.push(sessions.start());
  return { sessions, brain };
}

/** 3,000 random bytes as base64: a step result zlib cannot pack below 3,000 bytes (steps are stored packed). */
function noise(): string {
  let text = '';
  for (const byte of crypto.getRandomValues(new Uint8Array(3000))) text += String.fromCharCode(byte);
  return btoa(text);
}

async function heavyTask(brain: Brain, sessionId: number, title: string): Promise<TaskId> {
  const { id } = await brain.startTask({ sessionId: sessionId as never, title });
  await brain.recordStep({ taskId: id, tool: 'dump', result: noise(), status: 'ok' });
  await brain.checkpointFile({ taskId: id, path: `src/${id}.ts`, before: null, after: 'y'.repeat(500) });
  await brain.setTaskState(id, 'done');
  return id;
}

describe('SessionsState: pin and delete', () => {
  it('pins and unpins a task, and the dry run follows', async () => {
    const { sessions, brain } = await openSessions();
    const { id: sessionId } = await brain.startSession({ title: 'work' });
    const older = await heavyTask(brain, sessionId, 'older');
    await heavyTask(brain, sessionId, 'newer');
    const verdict = async () => (await brain.planCleanup()).tasks.find((t) => t.taskId === older);
    expect(await verdict()).toMatchObject({ verdict: 'clean', reasons: [{ kind: 'superseded' }] });

    await sessions.setPinned(older, true);
    expect(sessions.pinning.error).toBeNull();
    expect((await brain.getTask(older)).pinned).toBe(true);
    expect(await verdict()).toMatchObject({ verdict: 'keep', reasons: [{ kind: 'pinned' }] });
    sessions.select(sessionId, older);
    await expect.poll(() => sessions.detail?.task.pinned).toBe(true);

    await sessions.setPinned(older, false);
    await expect.poll(() => sessions.detail?.task.pinned).toBe(false);
    expect(await verdict()).toMatchObject({ verdict: 'clean' });
  });

  it('says what deleting a session removes now, keeps and leaves to cleanup, then deletes it', async () => {
    const { sessions, brain } = await openSessions();
    const { id: sessionId } = await brain.startSession({ title: 'to delete' });
    const { id: otherSession } = await brain.startSession({ title: 'stays' });
    const pinned = await heavyTask(brain, sessionId, 'pinned');
    await brain.pinTask(pinned, true);
    const plain = await heavyTask(brain, sessionId, 'plain');
    const last = await heavyTask(brain, sessionId, 'last');
    await brain.recordMessage({ sessionId, taskId: plain, role: 'user', content: 'hello' });
    const session = await brain.getSession(sessionId);
    const before = await brain.planCleanup();
    const freesOf = (id: TaskId) => {
      const h = before.tasks.find((t) => t.taskId === id)?.heavy;
      return (h?.stepBytes ?? 0) + (h?.checkpointExclusiveStoredBytes ?? 0);
    };

    await sessions.planDeletion(session);
    expect(sessions.deletion).toEqual({
      session,
      tasks: 3,
      pinned: 1,
      cleanable: 2,
      cleanableBytes: freesOf(plain) + freesOf(last),
    });
    expect(sessions.deletion?.cleanableBytes).toBeGreaterThan(2 * 3000);
    // Planning deleted nothing; cancelling forgets the plan.
    expect((await brain.listSessions()).map((s) => s.id).sort()).toEqual([sessionId, otherSession].sort());
    sessions.cancelDeletion();
    expect(sessions.deletion).toBeNull();

    await sessions.planDeletion(session);
    expect(await sessions.confirmDeletion()).toBe(true);
    expect(sessions.deletion).toBeNull();
    expect((await brain.listSessions()).map((s) => s.id)).toEqual([otherSession]);
    // What the confirmation said: the tasks stay, as orphans; cleanup takes the unpinned ones, not the pinned.
    const after = await brain.planCleanup();
    const verdictOf = (id: TaskId) => after.tasks.find((t) => t.taskId === id);
    expect(verdictOf(pinned)).toMatchObject({
      sessionId: null,
      verdict: 'keep',
      reasons: [{ kind: 'pinned' }],
    });
    expect(verdictOf(plain)).toMatchObject({
      verdict: 'clean',
      reasons: [{ kind: 'orphan', state: 'done' }],
    });
    expect(verdictOf(last)).toMatchObject({ verdict: 'clean', reasons: [{ kind: 'orphan', state: 'done' }] });
    await expect.poll(() => sessions.session?.id).toBe(otherSession);
  });
});
