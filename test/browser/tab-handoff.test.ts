import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain } from '../../src/lib/index';
import { noteLeft } from '../../src/lib/tab-handoff';
import { holderLockName, ownerLockName } from '../../src/worker/owner-lock';

const open: Brain[] = [];
const ends: (() => void)[] = [];
let counter = 0;
const uniqueName = () => `handoff-${Date.now().toString(36)}-${++counter}.db`;

afterEach(async () => {
  for (const end of ends.splice(0)) end();
  await Promise.all(open.splice(0).map((brain) => brain.close()));
});

/** Requests `name` from this page and keeps it until `ended` settles; resolves once granted. */
function hold(name: string, ended: Promise<void>): Promise<void> {
  return new Promise<void>((granted) => {
    void navigator.locks.request(name, () => {
      granted();
      return ended;
    });
  });
}

/**
 * Stands in for the worker of a page that has left this tab but not ended yet: one client holding the database's
 * owner lock and that opening's holder lock, as the worker does (worker/host.ts). Returns its end.
 */
async function workerStillEnding(dbName: string, holder: string): Promise<() => void> {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  ends.push(end);
  await hold(holderLockName(dbName, holder), ended);
  await hold(ownerLockName(dbName), ended);
  return end;
}

const queuedFor = async (name: string) =>
  ((await navigator.locks.query()).pending ?? []).some((lock) => lock.name === name);

describe('a reload hands the brain to the next page of the tab', () => {
  it('waits for the worker of the page that left instead of saying "open in another tab"', async () => {
    const dbName = uniqueName();
    const end = await workerStillEnding(dbName, 'left-page');
    noteLeft(dbName, 'left-page');
    let settled = false;
    const opening = openBrain({ dbName, closeOnPageHide: false }).finally(() => (settled = true));
    // Its worker is queued for the owner lock, not refused.
    await expect.poll(() => queuedFor(ownerLockName(dbName))).toBe(true);
    expect(settled).toBe(false);
    end();
    const brain = await opening;
    open.push(brain);
    await brain.startSession({ title: 'after the reload' });
    expect((await brain.listSessions()).map((s) => s.title)).toEqual(['after the reload']);
  });

  it('still refuses a holder that is not the page that left (control: another opening, another tab)', async () => {
    const dbName = uniqueName();
    await workerStillEnding(dbName, 'left-page');
    noteLeft(dbName, 'some-other-opening');
    await expect(openBrain({ dbName, closeOnPageHide: false })).rejects.toMatchObject({
      code: 'OpenElsewhere',
    });
    // Nothing noted at all (the notes were used up by the attempt above): refused as before.
    await expect(openBrain({ dbName, closeOnPageHide: false })).rejects.toMatchObject({
      code: 'OpenElsewhere',
    });
  });

  it("refuses a live tab's brain even when the noted opening's lock is held elsewhere (holders must match)", async () => {
    const dbName = uniqueName();
    const live = await openBrain({ dbName, closeOnPageHide: false });
    open.push(live);
    // The noted opening's holder lock is held, but by this page — not by the worker that owns the database.
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    ends.push(end);
    await hold(holderLockName(dbName, 'left-page'), ended);
    noteLeft(dbName, 'left-page');
    await expect(openBrain({ dbName, closeOnPageHide: false })).rejects.toMatchObject({
      code: 'OpenElsewhere',
    });
    expect(await live.listSessions()).toEqual([]);
  });

  it('a page hidden for good notes its opening, and the next opening in the tab uses the note up', async () => {
    const dbName = uniqueName();
    const brain = await openBrain({ dbName });
    const key = `agent-brain:left:${dbName}`;
    expect(sessionStorage.getItem(key)).toBeNull();
    dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    await expect(brain.listSessions()).rejects.toMatchObject({ code: 'Closed' });
    expect(sessionStorage.getItem(key)).toMatch(/^[0-9a-f-]{36}$/);
    const next = await openBrain({ dbName, closeOnPageHide: false });
    open.push(next);
    expect(sessionStorage.getItem(key)).toBeNull();
  });
});
