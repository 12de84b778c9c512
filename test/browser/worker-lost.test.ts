/**
 * A brain whose worker stops without being asked (the browser ends it — out of memory — or it crashes): the page
 * is told, every call waiting for an answer rejects with a typed `Closed` instead of hanging, `close()` settles,
 * and the database opens again with everything that was committed and nothing half-written.
 *
 * The worker is ended from outside with `Worker.terminate()`, which is what the browser does to a worker it ends:
 * its code gets no chance to run, and its Web Locks are released.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isBrainError, openBrain, type Brain, type OwnerEvent } from '../../src/lib/index';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { outcomeOf, type Outcome } from './settle';

let counter = 0;
const uniqueName = () => `worker-lost-${Date.now().toString(36)}-${++counter}.db`;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** Runs `open` while every brain worker it creates is remembered, so the test can end it as the browser would. */
async function capturingWorkers<T>(open: () => Promise<T>): Promise<{ value: T; workers: Worker[] }> {
  const workers: Worker[] = [];
  const scope = globalThis as unknown as { Worker: typeof Worker };
  const Native = scope.Worker;
  scope.Worker = class extends Native {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      if (options?.name?.startsWith('agent-brain:')) workers.push(this);
    }
  };
  try {
    return { value: await open(), workers };
  } finally {
    scope.Worker = Native;
  }
}

function expectWorkerLost(outcome: Outcome) {
  expect(outcome.settled).toBe('rejected');
  const error = outcome.settled === 'rejected' ? outcome.error : null;
  expect(isBrainError(error, 'Closed'), `a BrainError with code Closed, got ${String(error)}`).toBe(true);
  expect((error as { details?: unknown }).details).toEqual({ reason: 'worker-lost' });
  expect((error as Error).message).toMatch(/worker stopped/);
}

/** Bash calls with long outputs: a batch that keeps the worker busy while it is ended. */
function longCalls(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    tool: 'bash',
    input: { command: `python -m pytest tests/test_${i % 7}.py -q` },
    output: `${'tests/test_x.py::test_case PASSED\n'.repeat(200)}==== ${i} passed in 0.1s ====\n`,
    exitCode: 0,
  }));
}

describe('a worker that stops without being asked', () => {
  it('rejects the calls in flight and later ones with Closed, tells the page, and loses nothing committed', async () => {
    const dbName = uniqueName();
    const events: OwnerEvent[] = [];
    const { value: brain, workers } = await capturingWorkers(() =>
      openBrain({ dbName, closeOnPageHide: false, onOwnerEvent: (event) => events.push(event) }),
    );
    expect(workers).toHaveLength(1);
    const { id: sessionId } = await brain.startSession({ title: 'before the crash' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 'work' });
    await brain.recordNote({ sessionId, text: 'committed before the worker stopped' });

    const batch = longCalls(1_000);
    const inFlight = brain.recordToolCalls(batch.map((call) => ({ sessionId, taskId, call })));
    const alsoWaiting = brain.listSessions();
    workers[0]!.terminate();

    expectWorkerLost(await outcomeOf(inFlight));
    expectWorkerLost(await outcomeOf(alsoWaiting));
    expect(events).toEqual([{ kind: 'worker-lost' }]);
    // Later calls are refused at once, with the same reason; close() settles (it does not wait for answers that
    // cannot come).
    expectWorkerLost(await outcomeOf(brain.getSession(sessionId)));
    expect(await outcomeOf(brain.close())).toEqual({ settled: 'resolved', value: undefined });

    // The owner lock is free: the brain opens again, with what was committed, and the batch wholly or not at all.
    const again: Brain = await openBrain({ dbName, closeOnPageHide: false });
    cleanups.push(() => again.close());
    const timeline = await again.listEvents(sessionId);
    expect(timeline.some((e) => 'text' in e && e.text === 'committed before the worker stopped')).toBe(true);
    expect([0, batch.length]).toContain((await again.listSteps(taskId)).length);
    expect(await again.integrityCheck()).toEqual(['ok']);
  });

  it('is not reported when the page closes the brain itself', async () => {
    const events: OwnerEvent[] = [];
    const { value: brain } = await capturingWorkers(() =>
      openBrain({
        dbName: uniqueName(),
        closeOnPageHide: false,
        onOwnerEvent: (event) => events.push(event),
      }),
    );
    await brain.startSession({ title: 'closed on purpose' });
    await brain.close();
    // The worker let go of the lock as it closed; had the page's watch taken that for a loss, the event would be
    // there by now (the lock is granted before close() resolves, as the worker releases it before answering).
    expect(events).toEqual([]);
    const outcome = await outcomeOf(brain.listSessions());
    expect(outcome.settled).toBe('rejected');
    expect((outcome as { error: { details?: unknown } }).error.details).toBeUndefined();
  });

  it("shows the app's notice: the brain's state becomes 'stopped' and it opens again from there", async () => {
    const dbName = uniqueName();
    const state = new BrainState({ dbName, closeOnPageHide: false });
    cleanups.push(() => state.close());
    const { workers } = await capturingWorkers(() => state.open());
    expect(state.status).toBe('open');
    const brain = state.brain as Brain;
    const waiting = brain.listSessions();
    workers[0]!.terminate();
    expect((await outcomeOf(waiting)).settled).toBe('rejected');
    expect(state.status).toBe('stopped');
    expect(state.brain).toBeNull();
    await state.open();
    expect(state.status).toBe('open');
    expect(await state.brain!.listSessions()).toEqual([]);
  });
});
