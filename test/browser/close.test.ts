import { afterEach, describe, expect, it } from 'vitest';
import { isBrainError, openBrain, type Brain } from '../../src/lib/index';
import { outcomeOf, type Outcome } from './settle';

const open: Brain[] = [];
let counter = 0;
const uniqueName = () => `close-${Date.now().toString(36)}-${++counter}.db`;

async function brainNamed(dbName: string) {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  open.push(brain);
  return brain;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((brain) => brain.close()));
});

function expectClosedError(outcome: Outcome) {
  expect(outcome.settled).toBe('rejected');
  const error = outcome.settled === 'rejected' ? outcome.error : null;
  expect(isBrainError(error, 'Closed'), `a BrainError with code Closed, got ${String(error)}`).toBe(true);
  expect((error as Error).message).toMatch(/clos/i);
}

describe('a call made while Brain.close() is in flight', () => {
  it('rejects at once with a Closed BrainError, and close still finishes', async () => {
    const brain = await brainNamed(uniqueName());
    const { id: sessionId } = await brain.startSession({ title: 'closing' });
    const closing = brain.close();
    const during = [
      outcomeOf(brain.listSessions()),
      outcomeOf(brain.getSession(sessionId)),
      outcomeOf(brain.recordNote({ sessionId, text: 'too late' })),
      outcomeOf(brain.subscribe(() => undefined)),
    ];
    for (const outcome of await Promise.all(during)) expectClosedError(outcome);
    expect(await outcomeOf(closing)).toEqual({ settled: 'resolved', value: undefined });
    // After close, too.
    expectClosedError(await outcomeOf(brain.listSessions()));
    // A second close while closed is a no-op.
    expect(await outcomeOf(brain.close())).toEqual({ settled: 'resolved', value: undefined });
  });

  it('lets calls made before close finish, then closes; nothing they wrote is lost', async () => {
    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    const { id: sessionId } = await brain.startSession({ title: 'before close' });
    const before = Array.from({ length: 20 }, (_, i) =>
      outcomeOf(brain.recordNote({ sessionId, text: `note ${i}` })),
    );
    const closing = outcomeOf(brain.close());
    const during = outcomeOf(brain.recordNote({ sessionId, text: 'during close' }));
    for (const outcome of await Promise.all(before)) expect(outcome.settled).toBe('resolved');
    expectClosedError(await during);
    expect((await closing).settled).toBe('resolved');

    const again = await brainNamed(dbName);
    const notes = (await again.listEvents(sessionId, { kinds: ['note'] })).map((e) => e.text);
    expect(notes).toEqual(Array.from({ length: 20 }, (_, i) => `note ${i}`));
  });

  it('two close() calls at once both settle', async () => {
    const brain = await brainNamed(uniqueName());
    const [a, b] = await Promise.all([outcomeOf(brain.close()), outcomeOf(brain.close())]);
    expect(a.settled).toBe('resolved');
    expect(b.settled).toBe('resolved');
    expectClosedError(await outcomeOf(brain.info()));
  });

  it('an unsubscribe during close settles', async () => {
    const brain = await brainNamed(uniqueName());
    const unsubscribe = await brain.subscribe(() => undefined);
    const closing = outcomeOf(brain.close());
    expect((await outcomeOf(unsubscribe())).settled).toBe('resolved');
    expect((await closing).settled).toBe('resolved');
  });

  it('a call in flight when the page goes away (pagehide stops the worker) rejects with Closed', async () => {
    const brain = await openBrain({ dbName: uniqueName() });
    open.push(brain);
    const { id: sessionId } = await brain.startSession({ title: 'page hides' });
    const inFlight = outcomeOf(brain.recordNote({ sessionId, text: 'cut short' }));
    dispatchEvent(new Event('pagehide'));
    expectClosedError(await inFlight);
    expectClosedError(await outcomeOf(brain.listSessions()));
  });
});
