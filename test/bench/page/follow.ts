/**
 * In-page half of the "follow" section (issue 30: follow a running agent), in steps the Node half calls one by one
 * (so it can sample the brain worker's memory and CPU over CDP around each phase, test/bench/lib/worker-memory.mjs):
 * - `prepare`: the writer worker (follow-writer.ts) writes a backlog of `mb` MiB of a Claude-Code-shaped session into
 *   a file of an OPFS folder (the folder stands in for a picked `~/.claude/projects/<project>/`, as in the e2e);
 * - `open`: a fresh brain (its own agent.db; automatic cleanup off, as in the import bench);
 * - `catchup`: `followFolder({ handle })` — the first follow reads the whole backlog in its bounded turns, by itself;
 *   timed until every complete line is read and a search has indexed it (the session searchable);
 * - `append`: the writer appends at `rate` bytes/s for `seconds`, while the brain follows by itself (its own timer or
 *   `FileSystemObserver`: the page never polls). The page listens to the brain's `follow` changes: at each, the
 *   folder's `bytesRead` and `lastPollAt` (one look each when `lastPollAt` moved), and a search for each marker
 *   still pending — a marker's latency runs from its append's flush (the writer's clock) to the search that finds it;
 * - `drain`: waits until every marker is found (or `timeoutMs`), and returns what `append` measured;
 * - `close`.
 */
import { openBrain, type Brain } from '../../../src/lib/index';
import type { WriterMessage, WriterRequest } from './follow-writer';
import { progress } from './progress';

export type FollowBenchStep =
  | { readonly step: 'prepare'; readonly mb: number }
  | { readonly step: 'open'; readonly dbName: string }
  | { readonly step: 'catchup' }
  | {
      readonly step: 'append';
      readonly rate: number;
      readonly seconds: number;
      readonly tickMs: number;
      readonly markEveryMs: number;
    }
  | { readonly step: 'drain'; readonly timeoutMs: number }
  | { readonly step: 'close' };

const DIR = 'bench-follow';
const NAME = '0f6a2d9e-1c4b-4e8a-b7d3-9a5c2e8f1b40.jsonl';
const now = () => performance.timeOrigin + performance.now();

let writer: Worker | null = null;

/** The origin's storage use and quota (MB): a browser context's quota can be the limit of a 1 GB run. */
async function storageUse() {
  const e = await navigator.storage.estimate();
  return { usageMb: Math.round((e.usage ?? 0) / 1e6), quotaMb: Math.round((e.quota ?? 0) / 1e6) };
}
let brain: Brain | null = null;
let followId: number | null = null;

/** One request to the writer worker; resolves with its `done` message (marks go to `onMark`). */
function ask(
  request: WriterRequest,
  onMark: (m: Extract<WriterMessage, { op: 'mark' }>) => void = () => {},
): Promise<Extract<WriterMessage, { op: 'done' }>> {
  const w = (writer ??= new Worker(new URL('./follow-writer.ts', import.meta.url), { type: 'module' }));
  return new Promise((resolve, reject) => {
    w.onmessage = ({ data }: MessageEvent<WriterMessage>) => {
      if (data.op === 'progress') progress('writing the backlog (bytes)', data.done, data.total);
      else if (data.op === 'mark') onMark(data);
      else if (data.op === 'error') reject(new Error(`follow writer: ${data.message}`));
      else resolve(data);
    };
    w.onerror = (event) => reject(new Error(`follow writer: ${event.message}`));
    w.postMessage(request);
  });
}

async function folder() {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(DIR, { create: true });
}

async function followed() {
  const f = (await brain!.listFollowedFolders()).find((x) => x.id === followId);
  if (f === undefined) throw new Error('The followed folder is gone.');
  return f;
}

async function prepare(mb: number) {
  await (await navigator.storage.getDirectory()).removeEntry(DIR, { recursive: true }).catch(() => {});
  const done = await ask({ op: 'backlog', dir: DIR, name: NAME, bytes: mb * 1024 * 1024 });
  return { bytes: done.size, lines: done.lines, calls: done.calls, storage: await storageUse() };
}

/**
 * `run`, never twice at once: a call while it runs makes it run once more after it (a change is never missed);
 * what it throws goes to `failed`.
 */
function oneAtATime(run: () => Promise<void>, failed: (error: Error) => void): () => Promise<void> {
  let busy = false;
  let again = false;
  return async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        await run();
      } while (again);
    } catch (error) {
      failed(error instanceof Error ? error : new Error(String(error)));
    } finally {
      busy = false;
    }
  };
}

/** Resolves when `test` holds after a `follow` change (checked at each one; never by polling the brain). */
async function untilFollow<T>(test: () => Promise<T | null>, timeoutMs: number, what: string): Promise<T> {
  let unsubscribe: (() => Promise<void>) | null = null;
  try {
    return await new Promise<T>((resolve, reject) => {
      const check = oneAtATime(async () => {
        const value = await test();
        if (value !== null) resolve(value);
      }, reject);
      setTimeout(() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`)), timeoutMs);
      void brain!
        .subscribe((change) => {
          if (change.topic === 'follow') void check();
        })
        .then((u) => {
          unsubscribe = u;
          void check();
        });
    });
  } finally {
    await (unsubscribe as (() => Promise<void>) | null)?.();
  }
}

async function catchup(backlogBytes: number) {
  const started = now();
  const first = await brain!.followFolder({ handle: await folder() });
  followId = first.id;
  const looks: number[] = [];
  let lastPollAt: number | null = null;
  let lastBytes = 0;
  const f = await untilFollow(
    async () => {
      const x = await followed();
      if (x.lastPollAt !== lastPollAt) {
        looks.push(x.bytesRead - lastBytes);
        lastPollAt = x.lastPollAt;
        lastBytes = x.bytesRead;
      }
      const file = x.files[0];
      if (file !== undefined) progress('catching up the backlog (bytes)', file.offset, backlogBytes);
      // Every complete line of the backlog read (the generator ends its chunks at a line's end).
      return file !== undefined && file.offset >= backlogBytes ? x : null;
    },
    30 * 60_000,
    'the backlog to be read',
  );
  const readAt = now();
  // Searchable: a search indexes what the import left to index first.
  await brain!.searchHistory('passed');
  const seconds = (now() - started) / 1000;
  return {
    seconds,
    readSeconds: (readAt - started) / 1000,
    pace: f.pace,
    bytesRead: f.bytesRead,
    sessionId: f.files[0]!.sessionId,
    looks: looks.length,
    maxLookBytes: Math.max(0, ...looks),
  };
}

interface Mark {
  readonly marker: string;
  readonly at: number;
  found: number | null;
}

let appendState: {
  marks: Mark[];
  looks: { at: number; bytes: number }[];
  lastPollAt: number | null;
  lastBytes: number;
  searches: number;
  unsubscribe: (() => Promise<void>) | null;
  written: Extract<WriterMessage, { op: 'done' }> | null;
  startSize: number;
  errors: string[];
  check: () => Promise<void>;
  /** Called once each look of the brain has been checked (drain waits on them, never on a timer). */
  looked: (() => void)[];
} | null = null;

async function append(rate: number, seconds: number, tickMs: number, markEveryMs: number) {
  const start = await followed();
  const state: NonNullable<typeof appendState> = {
    marks: [],
    looks: [],
    lastPollAt: start.lastPollAt,
    lastBytes: start.bytesRead,
    searches: 0,
    unsubscribe: null,
    written: null,
    startSize: start.files[0]?.size ?? 0,
    errors: [],
    check: async () => {},
    looked: [],
  };
  appendState = state;
  // At each look of the brain: its bytes, and a search for each marker still pending.
  const look = async () => {
    const f = await followed();
    if (f.lastPollAt !== state.lastPollAt) {
      state.looks.push({ at: f.lastPollAt ?? 0, bytes: f.bytesRead - state.lastBytes });
      state.lastPollAt = f.lastPollAt;
      state.lastBytes = f.bytesRead;
    }
    for (const m of state.marks) {
      if (m.found !== null) continue;
      state.searches++;
      const { hits } = await brain!.searchHistory(m.marker, { limit: 5 });
      if (hits.some((h) => h.snippet.toLowerCase().includes(m.marker))) m.found = now();
    }
  };
  state.check = oneAtATime(look, (error) => void state.errors.push(error.message));
  state.unsubscribe = await brain!.subscribe((change) => {
    if (change.topic !== 'follow') return;
    void state.check().then(() => {
      for (const wake of state.looked.splice(0)) wake();
    });
  });
  const done = await ask({ op: 'append', rate, seconds, tickMs, markEveryMs }, (m) => {
    state.marks.push({ marker: m.marker, at: m.at, found: null });
  });
  state.written = done;
  return { bytes: done.bytes, appends: done.appends, markers: done.markers, maxGapMs: done.maxGapMs };
}

async function drain(timeoutMs: number) {
  const state = appendState!;
  const deadline = now() + timeoutMs;
  // The last appends are read by the brain's next look (the observer's, or its timer's).
  const caughtUp = async () => {
    const x = (await followed()).files[0];
    return x !== undefined && x.offset === x.size && x.size === state.startSize + state.written!.bytes;
  };
  while ((state.marks.some((m) => m.found === null) || !(await caughtUp())) && now() < deadline) {
    // The brain's next look (announced by its `follow` change and checked), or the deadline: no fixed sleep.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      new Promise<void>((resolve) => state.looked.push(resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - now())))),
    ]);
    clearTimeout(timer);
  }
  await state.unsubscribe?.();
  const f = await followed();
  const latencies = state.marks.filter((m) => m.found !== null).map((m) => m.found! - m.at);
  appendState = null;
  return {
    latencies,
    missing: state.marks.filter((m) => m.found === null).map((m) => m.marker),
    looks: state.looks,
    searches: state.searches,
    appended: state.written!.bytes,
    fileBytes: f.files[0]?.size ?? 0,
    offset: f.files[0]?.offset ?? 0,
    pace: f.pace,
    errors: state.errors,
    storage: await storageUse(),
  };
}

let backlogBytes = 0;

export async function followBench(step: FollowBenchStep) {
  switch (step.step) {
    case 'prepare': {
      const r = await prepare(step.mb);
      backlogBytes = r.bytes;
      return r;
    }
    case 'open':
      brain = await openBrain({ dbName: step.dbName, startEmpty: true });
      await brain.setAutoCleanup({ enabled: false });
      return null;
    case 'catchup':
      return catchup(backlogBytes);
    case 'append':
      return append(step.rate, step.seconds, step.tickMs, step.markEveryMs);
    case 'drain':
      return drain(step.timeoutMs);
    case 'close': {
      // What was left of the run is removed whatever happens (a full quota must not hide the error before it).
      const usage = await storageUse();
      const failed: string[] = [];
      if (followId !== null)
        await brain?.unfollowFolder(followId).catch((e: unknown) => failed.push(String(e)));
      followId = null;
      await brain?.close();
      brain = null;
      writer?.terminate();
      writer = null;
      await (await navigator.storage.getDirectory()).removeEntry(DIR, { recursive: true }).catch(() => {});
      return { usage, failed };
    }
    default:
      return step satisfies never;
  }
}
