import { afterEach, describe, expect, it } from 'vitest';
import type { Brain, TaskId } from '../../src/lib/index';
import { bytesToBlob } from '../../src/ui/files';
import { previewJson } from '../../src/ui/format';
import { moveToWorker } from '../../src/ui/transfer';
import { idParam, parseHash, routeToHash } from '../../src/ui/route';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { createRefresher } from '../../src/ui/state/refresher';
import { Router } from '../../src/ui/state/router.svelte';
import { allSessions, rowsPerGroup } from '../../src/ui/session-list';
import { SessionsState } from '../../src/ui/state/sessions.svelte';
import { StorageState } from '../../src/ui/state/storage.svelte';
import { ThemeState, themeStorageKey } from '../../src/ui/state/theme.svelte';
import { layoutTaskGraph } from '../../src/ui/task-graph';
import { watch } from './ui-state-watch.svelte';

let counter = 0;
const uniqueName = () => `ui-state-${Date.now().toString(36)}-${++counter}.db`;
const opened: BrainState[] = [];
const stops: (() => void)[] = [];

async function openState(dbName = uniqueName(), takeOver = false): Promise<BrainState> {
  const state = new BrainState({ dbName, closeOnPageHide: false });
  opened.push(state);
  await state.open(takeOver);
  expect(state.status).toBe('open');
  return state;
}

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const brainOf = (state: BrainState): Brain => {
  if (!state.brain) throw new Error('not open');
  return state.brain;
};

describe('routes', () => {
  it('round-trips a view and its parameters through the hash', () => {
    const hash = routeToHash('sessions', { session: 3, task: 12, empty: '', none: null });
    expect(hash).toBe('#/sessions?session=3&task=12');
    expect(parseHash(hash)).toEqual({ view: 'sessions', params: { session: '3', task: '12' } });
    expect(parseHash('')).toEqual({ view: null, params: {} });
    expect(parseHash('#/nope?x=1').view).toBeNull();
  });

  it('accepts only positive integer ids', () => {
    const { params } = parseHash('#/sessions?a=7&b=0&c=-1&d=1.5&e=abc&f=99999999999999999999');
    expect(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k) => idParam(params, k))).toEqual([
      7,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('a router follows hash changes and writes the hash when told to go', () => {
    const listeners: (() => void)[] = [];
    const host = {
      location: { hash: '#/storage' },
      addEventListener: (_: 'hashchange', fn: () => void) => listeners.push(fn),
      removeEventListener: (_: 'hashchange', fn: () => void) => listeners.splice(listeners.indexOf(fn), 1),
    };
    const router = new Router(host);
    const stop = router.start();
    expect(router.route.view).toBe('storage');
    router.go('sessions', { task: 5 });
    expect(host.location.hash).toBe('#/sessions?task=5');
    expect(router.route).toEqual({ view: 'sessions', params: { task: '5' } });
    host.location.hash = '#/storage';
    for (const fn of listeners) fn();
    expect(router.route.view).toBe('storage');
    stop();
    expect(listeners).toHaveLength(0);
  });
});

describe('theme', () => {
  const memoryStore = (initial: Record<string, string> = {}) => {
    const data = new Map(Object.entries(initial));
    return {
      data,
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
  };
  const fakeQuery = (matches: boolean) => {
    const listeners = new Set<(e: { matches: boolean }) => void>();
    return {
      matches,
      listeners,
      addEventListener: (_: 'change', fn: (e: { matches: boolean }) => void) => void listeners.add(fn),
      removeEventListener: (_: 'change', fn: (e: { matches: boolean }) => void) => void listeners.delete(fn),
      fire(value: boolean) {
        for (const fn of listeners) fn({ matches: value });
      },
    };
  };

  it('follows the system until the person chooses, then remembers the choice', () => {
    const store = memoryStore();
    const query = fakeQuery(false);
    const theme = new ThemeState(store, query);
    const stop = theme.start();
    expect(theme.theme).toBe('light');
    query.fire(true);
    expect(theme.theme).toBe('dark');
    theme.toggle();
    expect(theme.theme).toBe('light');
    expect(store.data.get(themeStorageKey)).toBe('light');
    query.fire(false);
    query.fire(true);
    expect(theme.theme).toBe('light');
    stop();
    expect(query.listeners.size).toBe(0);
    expect(new ThemeState(store, fakeQuery(true)).theme).toBe('light');
  });

  it('follows a choice made in another tab (the storage event), until stopped', () => {
    const theme = new ThemeState(memoryStore({}), fakeQuery(false));
    const stop = theme.start();
    const fromOtherTab = (key: string, newValue: string | null) =>
      dispatchEvent(new StorageEvent('storage', { key, newValue }));
    fromOtherTab(themeStorageKey, 'dark');
    expect(theme.theme).toBe('dark');
    fromOtherTab('another-key', 'light');
    expect(theme.theme).toBe('dark');
    fromOtherTab(themeStorageKey, null);
    expect(theme.theme).toBe('light');
    stop();
    fromOtherTab(themeStorageKey, 'dark');
    expect(theme.theme).toBe('light');
  });

  it('ignores a stored value that is not a theme, and survives a storage that throws', () => {
    expect(new ThemeState(memoryStore({ [themeStorageKey]: 'purple' }), fakeQuery(true)).theme).toBe('dark');
    const throwing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    const theme = new ThemeState(throwing, null);
    theme.set('dark');
    expect(theme.theme).toBe('dark');
  });
});

describe('refresher', () => {
  it('runs once for a burst of requests, and once more for requests made while running', async () => {
    let runs = 0;
    let release: () => void = () => {};
    const refresher = createRefresher(
      async () => {
        runs++;
        await new Promise<void>((resolve) => (release = resolve));
      },
      () => {},
      1,
    );
    for (let i = 0; i < 10; i++) refresher.request();
    // The first run starts and holds; the burst made during it is queued as one more run, which starts on release.
    await expect.poll(() => runs).toBe(1);
    for (let i = 0; i < 10; i++) refresher.request();
    release();
    await expect.poll(() => runs).toBe(2);
    release();
    // Settled: nothing scheduled or running, so no further run is on its way (a burst of runs would show here).
    await refresher.settled();
    expect(runs).toBe(2);
  });

  it('hands errors to its handler and keeps working', async () => {
    const errors: unknown[] = [];
    let fail = true;
    let ok = 0;
    const refresher = createRefresher(
      async () => {
        if (fail) throw new Error('boom');
        ok++;
      },
      (e) => errors.push(e),
      1,
    );
    refresher.request();
    await refresher.settled();
    fail = false;
    refresher.request();
    await refresher.settled();
    expect([errors.length, ok]).toEqual([1, 1]);
  });
});

describe('formatting and layout helpers', () => {
  it('previews huge JSON without serialising all of it', () => {
    // A million items behind a proxy that counts reads: the preview stops once it has its 60 characters.
    let reads = 0;
    const items = new Proxy(
      Array.from({ length: 1_000_000 }, (_, i) => ({ i })),
      {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      },
    );
    const listed = previewJson({ items }, 60);
    expect(listed.truncated).toBe(true);
    expect(listed.text.startsWith('{"items":[{"i":0},{"i":1},')).toBe(true);
    expect(reads).toBeLessThan(20);

    const huge = { path: 'a.ts', body: 'x'.repeat(5_000_000), more: [1, 2, 3] };
    const preview = previewJson(huge, 60);
    expect(preview.truncated).toBe(true);
    expect(preview.text.length).toBeLessThanOrEqual(61);
    expect(preview.text.startsWith('{"path":"a.ts","body":"xxx')).toBe(true);
    expect(previewJson({ a: [1, 'two', null] })).toEqual({ text: '{"a":[1,"two",null]}', truncated: false });
  });

  it('lays tasks out as a tree with child edges and reference arcs', () => {
    const task = (
      id: number,
      parent: number | null,
      refs: { to: number; kind: 'child' | 'reference' }[] = [],
    ) => ({
      id: id as TaskId,
      sessionId: null,
      title: `t${id}`,
      state: 'running' as const,
      parentTaskId: parent as TaskId | null,
      pinned: false,
      createdAt: id,
      updatedAt: id,
      references: refs.map((r) => ({ to: r.to as TaskId, kind: r.kind })),
      heavyRemovedAt: null,
    });
    const graph = layoutTaskGraph([
      task(1, null, [{ to: 2, kind: 'child' }]),
      task(2, 1),
      task(3, null, [
        { to: 1, kind: 'reference' },
        { to: 99, kind: 'reference' },
      ]),
      task(4, 2),
    ]);
    expect(graph.nodes.map((n) => [n.id, n.depth, n.row])).toEqual([
      [1, 0, 0],
      [2, 1, 1],
      [4, 2, 2],
      [3, 0, 3],
    ]);
    expect(graph.edges.map((e) => `${e.kind}:${e.from}->${e.to}`).sort()).toEqual([
      'child:1->2',
      'child:2->4',
      'reference:3->1',
    ]);
    // A cycle the engine should never make still shows every task.
    expect(layoutTaskGraph([task(1, 2), task(2, 1)]).nodes).toHaveLength(2);
  });
});

describe('BrainState', () => {
  it('fans the engine changes out to the views, and says when another tab takes over', async () => {
    const dbName = uniqueName();
    const first = await openState(dbName);
    const topics: string[] = [];
    stops.push(first.onChange((c) => topics.push(c.topic)));
    await brainOf(first).startSession({ title: 'one' });
    await expect.poll(() => topics).toContain('sessions');
    await first.settled();
    expect(first.info?.dbName).toBe(dbName);

    const second = new BrainState({ dbName, closeOnPageHide: false });
    opened.push(second);
    await second.open(false);
    expect(second.status).toBe('elsewhere');
    await second.open(true);
    expect(second.status).toBe('open');
    await expect.poll(() => first.status).toBe('taken-over');
    expect(first.brain).toBeNull();

    // Taking it back announces a whole-database change, so every view fetches again.
    topics.length = 0;
    await first.open(true);
    expect(first.status).toBe('open');
    expect(topics).toContain('database');
    await expect.poll(() => second.status).toBe('taken-over');
  });
});

describe('SessionsState', () => {
  async function seeded() {
    const brainState = await openState();
    const brain = brainOf(brainState);
    const { id: older } = await brain.startSession({ title: 'older' });
    await brain.startTask({ sessionId: older, title: 'old task' });
    const { id: sessionId } = await brain.startSession({ title: 'newer' });
    const { id: a } = await brain.startTask({ sessionId, title: 'a' });
    const { id: b } = await brain.startTask({ sessionId, title: 'b', parentTaskId: a, makeCurrent: false });
    await brain.setTaskState(b, 'done');
    await brain.recordStep({ taskId: a, tool: 'edit', status: 'ok' });
    const sessions = new SessionsState(brainState);
    stops.push(sessions.start());
    return { brain, sessions, older, sessionId, a, b };
  }

  it('shows the most recent session and its current task by default', async () => {
    const { sessions, sessionId, a } = await seeded();
    await sessions.settled();
    expect(sessions.session?.id).toBe(sessionId);
    expect(sessions.tasks.map((t) => t.title)).toEqual(['a', 'b']);
    expect(sessions.detail?.task.id).toBe(a);
    expect(sessions.detail?.steps.map((s) => s.tool)).toEqual(['edit']);
    expect(sessions.graph.edges.map((e) => e.kind)).toEqual(['child']);
  });

  it('keeps the last selection when fetches finish out of order', async () => {
    const { sessions, older, sessionId, b } = await seeded();
    sessions.select(older, null);
    sessions.select(sessionId, b);
    sessions.select(older, null);
    sessions.select(sessionId, b);
    await sessions.settled();
    expect(sessions.session?.id).toBe(sessionId);
    expect(sessions.detail?.task.title).toBe('b');
  });

  it('opens a task linked without its session inside its own session', async () => {
    const { brain, sessions, older } = await seeded();
    const [oldTask] = await brain.listTasks(older);
    sessions.select(null, oldTask!.id);
    await sessions.settled();
    expect(sessions.session?.title).toBe('older');
    expect(sessions.detail?.task.title).toBe('old task');
  });

  it('lists every session summed up, grouped and filtered, a few rows a group until more are asked for', async () => {
    const { brain, sessions, b } = await seeded();
    await sessions.settled();
    expect(sessions.sessions.map((s) => [s.title, s.state, s.agent])).toEqual([
      ['newer', 'running', null],
      ['older', 'running', null],
    ]);
    expect(sessions.groups.map((g) => g.sessions.length)).toEqual([2]);
    sessions.filterList({ text: 'OLD' });
    expect(sessions.matching.map((s) => s.title)).toEqual(['older']);
    sessions.filterList({ text: '', state: 'finished' });
    expect(sessions.matching).toEqual([]);
    // The newer session's current task done: it reads finished once the engine says so.
    const newer = sessions.sessions[0]!.id;
    await brain.setCurrentTask(newer, b);
    await expect.poll(() => sessions.matching.map((s) => s.title)).toEqual(['newer']);
    sessions.filterList(allSessions);
    for (let i = 0; i < 10; i++) await brain.startSession({ title: `more ${i}` });
    await expect.poll(() => sessions.sessions.length).toBe(12);
    const [group] = sessions.groups;
    expect(sessions.rowsShown(group!)).toBe(rowsPerGroup);
    sessions.showMoreRows(group!);
    expect(sessions.rowsShown(group!)).toBe(12);
    sessions.filterList({ text: 'more' }); // a new filter starts from the first rows again
    expect(sessions.rowsShown(sessions.groups[0]!)).toBe(rowsPerGroup);
  });

  it('filters by state, and follows changes the engine announces', async () => {
    const { brain, sessions, a } = await seeded();
    await sessions.settled();
    sessions.toggleState('done');
    expect(sessions.visibleTasks.map((t) => t.title)).toEqual(['a']);
    expect(sessions.countsByState.done).toBe(1);
    await brain.setTaskState(a, 'failed');
    await expect.poll(() => sessions.tasks.find((t) => t.id === a)?.state).toBe('failed');
    await brain.recordStep({ taskId: a, tool: 'run_tests', status: 'error' });
    await expect.poll(() => sessions.detail?.steps.length).toBe(2);
    sessions.showAllStates();
    expect(sessions.visibleTasks).toHaveLength(2);
  });
});

describe('moving bytes into the worker', () => {
  it('moves the buffer instead of copying it (the page would freeze on a large import)', async () => {
    const brainState = await openState();
    const bytes = new Uint8Array(
      await new Blob(['not a database, but large enough to be read '.repeat(100)]).arrayBuffer(),
    );
    await expect(brainOf(brainState).importDatabase(moveToWorker(bytes))).rejects.toMatchObject({
      code: 'NotSqlite',
    });
    expect(bytes.byteLength).toBe(0);
  });

  it('builds a download Blob piece by piece with counts', async () => {
    const bytes = new Uint8Array(10_000).map((_, i) => i % 251);
    const seen: number[] = [];
    const blob = await bytesToBlob(bytes, (done) => seen.push(done), 4096);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
    expect(seen).toEqual([0, 4096, 8192, 10_000]);
  });
});

describe('StorageState', () => {
  it('exports a real database, refuses a non-database plainly, and imports the export back', async () => {
    const brainState = await openState();
    const storage = new StorageState(brainState);
    await brainOf(brainState).startSession({ title: 'kept' });
    const exported = await storage.exportDatabase();
    expect(storage.exporting.error).toBeNull();
    expect(exported?.fileName).toMatch(/^ui-state-.*-\d{4}-\d{2}-\d{2}-\d{4}\.db$/);
    const bytes = new Uint8Array(await exported!.blob.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 15))).toBe('SQLite format 3');
    expect(bytes.byteLength).toBe((await brainOf(brainState).info()).fileBytes);

    const refused = await storage.importFile(new File(['definitely not sqlite '.repeat(300)], 'notes.txt'));
    expect(refused).toBeUndefined();
    expect(storage.importing.error).toMatch(
      /^This file was refused: .* Your current database is unchanged\.$/,
    );
    expect(storage.importing.running).toBe(false);

    await brainOf(brainState).startSession({ title: 'dropped by the import' });
    const [seen, stop] = watch(() => storage.importing.progress?.phase ?? 'idle');
    stops.push(stop);
    const report = await storage.importFile(new File([exported!.blob], exported!.fileName));
    expect(report?.bytes).toBe(bytes.byteLength);
    expect(storage.importing.error).toBeNull();
    expect(storage.lastImport?.fileName).toBe(exported!.fileName);
    expect((await brainOf(brainState).listSessions()).map((s) => s.title)).toEqual(['kept']);
    // A person saw the file being read, then the engine checking it, then the bar go away.
    await expect.poll(() => seen.at(-1)).toBe('idle');
    expect(seen.filter((p, i) => p !== seen[i - 1])).toEqual([
      'idle',
      'Reading the file',
      'Checking and replacing the database',
      'idle',
    ]);
  });

  /** A page-side writer like the demo agent: one session after another until it is stopped. */
  function startWriter(brain: Brain) {
    let stopped = false;
    let writes = 0;
    let wrote = () => {};
    const done = (async () => {
      while (!stopped) {
        await brain.startSession({ title: 'written by the agent' });
        writes++;
        wrote();
      }
    })();
    stops.push(() => void (stopped = true));
    return {
      writes: () => writes,
      /** Resolves once the write in flight (if any) has landed and no other will be made. */
      stop: () => {
        stopped = true;
        return done;
      },
      /** Resolves when a write made from now on has landed, or when the writer has ended. */
      nextWriteOrEnd: () => Promise.race([done, new Promise<void>((resolve) => (wrote = resolve))]),
    };
  }

  /**
   * Imports the exported brain while a writer runs, then gives the writer its chance to land something in the
   * imported brain — one more write if it is still going, or its end — and reads the sessions with a call queued
   * in the worker behind every write the writer sent.
   */
  async function importWhileWriting(registered: boolean): Promise<string[]> {
    const brainState = await openState();
    const brain = brainOf(brainState);
    const storage = new StorageState(brainState);
    await brain.startSession({ title: 'in the file' });
    const exported = await storage.exportDatabase();
    const writer = startWriter(brain);
    if (registered) stops.push(brainState.registerWriter(writer.stop));
    await expect.poll(writer.writes).toBeGreaterThan(2);

    const report = await storage.importFile(new File([exported!.blob], exported!.fileName));
    expect(storage.importing.error).toBeNull();
    expect(report).toBeDefined();
    await writer.nextWriteOrEnd();
    await writer.stop();
    return (await brain.listSessions()).map((s) => s.title);
  }

  it('stops what writes on its own (the demo agent) before the database is replaced', async () => {
    // Nothing the writer did lands in the imported brain, during or after the import.
    expect(await importWhileWriting(true)).toEqual(['in the file']);
  });

  it('control: a writer the import was not told of does land its writes in the imported brain', async () => {
    const titles = await importWhileWriting(false);
    expect(titles).toContain('in the file');
    expect(titles).toContain('written by the agent');
  });
});
