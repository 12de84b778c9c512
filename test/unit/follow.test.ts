/**
 * Following a folder while an agent writes into it (issue 30), on real wa-sqlite: lines appended in pieces (a line
 * torn mid-way and finished later) give the same session a whole import gives, each look reads only the appended
 * bytes, a look at an unchanged folder reads nothing, the follower taken down and followed again (a reload) reads
 * on without duplicates, and a rewritten file is read again whole.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BrainApi, SessionId } from '../../src/core/api';
import { POLL_OBSERVED_MS } from '../../src/engine/follow/feature';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateCodexSession } from '../fixtures/transcripts/codex';
import { generateMiniSweAgentTrajectory } from '../fixtures/transcripts/swe-agent';
import { memoryBrain } from './engine-helpers';
import { GrowingFolder } from './follow-folder';
import { manualTimers } from '../helpers/manual-timers';

const encode = (text: string) => new TextEncoder().encode(text);

/** What a session holds, as a person would compare two of them. */
async function contents(api: BrainApi, sessionId: SessionId) {
  const tasks = await api.listTasks(sessionId);
  const steps = [];
  for (const task of tasks)
    steps.push(
      ...(await api.listSteps(task.id)).map(
        (s) => `${s.tool}:${JSON.stringify(s.params)}:${JSON.stringify(s.result)}:${s.status}`,
      ),
    );
  const events = (await api.listEvents(sessionId)).map(
    (e) => `${e.kind}:${JSON.stringify((e as { text?: string }).text ?? '')}`,
  );
  return {
    title: (await api.getSession(sessionId)).title,
    tasks: tasks.map((t) => `${t.title}:${t.state}`).sort(),
    steps: steps.sort(),
    events: events.sort(),
    summaries: (await api.listSummaries(sessionId)).map((s) => s.content),
  };
}

/**
 * What a whole import of `bytes` holds — less the progress note a whole import writes when a chat agent's final
 * answer ended the run: a follower does not write it (a chat session pauses at every answer; the task's state says
 * it), the one difference between the two.
 */
async function imported(bytes: Uint8Array, name: string) {
  const { api } = await memoryBrain();
  const result = await api.importTranscript({ files: [{ name, data: bytes }] });
  const whole = await contents(api, result.sessions[0]!.sessionId);
  const endNote = 'progress:"The run ended: the agent gave its final answer';
  return { ...whole, events: whole.events.filter((e) => !e.startsWith(endNote)) };
}

/** Cuts `bytes` into `n` pieces at arbitrary byte offsets (mid-line, mid-character). */
function pieces(bytes: Uint8Array, n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++)
    out.push(bytes.subarray(Math.floor((bytes.length * i) / n), Math.floor((bytes.length * (i + 1)) / n)));
  return out;
}

/** Looks until the folder is caught up: the bytes read and the looks it took. */
async function pollAll(api: BrainApi, id: number) {
  let bytes = 0;
  for (let looks = 1; ; looks++) {
    const r = await api.pollFollowedFolder(id);
    bytes += r.bytesRead;
    if (!r.more) return { bytes, looks };
  }
}

/** What a look may read past the lines it takes: the slices read ahead (2 × 1 MiB, engine/importers/bytes.ts). */
const READ_AHEAD = 2 * 1024 * 1024;

describe('following a folder', () => {
  it.each([
    ['claude-code', () => generateClaudeCodeSession().main],
    ['codex', () => generateCodexSession().main],
  ])(
    '%s: appended pieces give what a whole import gives, each look reading only what was appended',
    async (_, make) => {
      const file = make();
      const whole = await imported(file.bytes, file.name);
      const { api } = await memoryBrain({ follow: { autoPoll: false } });
      const folder = new GrowingFolder('project');
      const followed = await api.followFolder({ handle: folder.handle() });
      // Not looking by itself (autoPoll off): only when asked.
      expect(followed.pace).toBe('polling');
      let offset = 0;
      let first = true;
      for (const piece of pieces(file.bytes, 7)) {
        folder.append(file.name, piece);
        const before = folder.bytesRead;
        const { bytes: read, looks } = await pollAll(api, followed.id);
        const [row] = (await api.listFollowedFolders())[0]!.files;
        // The bytes after the last complete line read before (a torn tail is read again once it is finished) — and
        // when a look stopped at its bound, what it had read ahead is read again by the next one.
        expect(read).toBeGreaterThanOrEqual(folder.size(file.name) - offset);
        expect(read).toBeLessThanOrEqual(folder.size(file.name) - offset + (looks - 1) * READ_AHEAD);
        if (looks === 1) expect(read).toBe(folder.size(file.name) - offset);
        // Beside them: the kept line's last bytes (≤ 4 KiB, before and after) to tell a rewrite, and at the first
        // look the file's head to tell its format (64 KiB).
        expect(folder.bytesRead - before - read).toBeLessThanOrEqual(
          looks * 2 * 4096 + (first ? 64 * 1024 : 0),
        );
        first = false;
        offset = row!.offset;
        expect(offset).toBeLessThanOrEqual(folder.size(file.name));
      }
      // The fixture ends with a torn line: it waits for its end.
      expect(offset).toBe(file.bytes.lastIndexOf(0x0a) + 1);
      // Nothing new: nothing read.
      const before = folder.bytesRead;
      expect((await api.pollFollowedFolder(followed.id)).bytesRead).toBe(0);
      expect(folder.bytesRead).toBe(before);
      const sessionId = (await api.listFollowedFolders())[0]!.files[0]!.sessionId!;
      const followedContents = await contents(api, sessionId);
      expect(followedContents.steps).toEqual(whole.steps);
      expect(followedContents.tasks).toEqual(whole.tasks);
      expect(followedContents.summaries).toEqual(whole.summaries);
      expect(followedContents.events).toEqual(whole.events);
      expect(followedContents.title).toBe(whole.title);
    },
  );

  it('followed again (a reload) reads on from where it stopped, without duplicates', async () => {
    const file = generateClaudeCodeSession().main;
    const whole = await imported(file.bytes, file.name);
    const { api } = await memoryBrain({ follow: { autoPoll: false } });
    const folder = new GrowingFolder('project');
    const { id } = await api.followFolder({ handle: folder.handle() });
    // Past the fixture's 10 MB line (a 5 MB tool result), in its last 200 KB of ordinary lines.
    const cut = file.bytes.length - 100_000;
    folder.append(file.name, file.bytes.subarray(0, cut));
    await pollAll(api, id);
    const [row] = (await api.listFollowedFolders())[0]!.files;
    expect(row!.offset).toBeGreaterThan(file.bytes.length / 2);
    // A reload: the worker's parser is gone; the handle is given back with the follow's id.
    await api.followFolder({ handle: folder.handle(), id });
    folder.append(file.name, file.bytes.subarray(cut));
    const before = folder.bytesRead;
    const { looks } = await pollAll(api, id);
    // Read on from the saved resume point (at most a call's lines before the offset), not from the start.
    expect(folder.bytesRead - before).toBeLessThan(file.bytes.length - row!.offset + looks * READ_AHEAD);
    expect(folder.bytesRead - before).toBeLessThan(file.bytes.length * 0.6);
    // A look at the file resting: the agent's last words, which no call followed, are its notes now.
    await api.pollFollowedFolder(id);
    const sessionId = (await api.listFollowedFolders())[0]!.files[0]!.sessionId!;
    const got = await contents(api, sessionId);
    expect(got.steps).toEqual(whole.steps);
    expect(got.events.filter((e) => !whole.events.includes(e))).toEqual([]);
    expect(whole.events.filter((e) => !got.events.includes(e))).toEqual([]);
    expect(new Set(got.events).size).toBe(new Set(whole.events).size);
    expect(got.summaries).toEqual(whole.summaries);
  });

  it('a rewritten file (shorter, or its last line changed) is read again whole; dedupe keeps it exact', async () => {
    const file = generateClaudeCodeSession().main;
    const whole = await imported(file.bytes, file.name);
    const { api } = await memoryBrain({ follow: { autoPoll: false } });
    const folder = new GrowingFolder('project');
    const { id } = await api.followFolder({ handle: folder.handle() });
    folder.write(file.name, file.bytes);
    await pollAll(api, id);
    // The same file written again from scratch, cut shorter: a rewrite.
    folder.write(file.name, file.bytes.subarray(0, Math.floor(file.bytes.length / 2)));
    const r = await api.pollFollowedFolder(id);
    expect(r.reread).toEqual([file.name]);
    // And whole again, with the same size as before but another last line: still a rewrite.
    folder.write(file.name, file.bytes);
    await pollAll(api, id);
    const text = new TextDecoder().decode(file.bytes);
    const changedTail = encode(text.slice(0, text.length - 3) + (text.endsWith('}\n') ? ' }\n' : '\n'));
    folder.write(file.name, changedTail.subarray(0, file.bytes.length));
    const again = await api.pollFollowedFolder(id);
    expect(again.reread).toEqual([file.name]);
    const sessionId = (await api.listFollowedFolders())[0]!.files[0]!.sessionId!;
    expect((await contents(api, sessionId)).steps).toEqual(whole.steps);
  });

  it('a document format is read whole when it changes; a file no format claims is left, named', async () => {
    const traj = generateMiniSweAgentTrajectory();
    const { api } = await memoryBrain({ follow: { autoPoll: false } });
    const folder = new GrowingFolder('runs');
    const { id } = await api.followFolder({ handle: folder.handle() });
    folder.write('x/x.traj.json', encode(traj.text));
    folder.write('notes.json', encode('{"hello": "world"}\n'));
    const r = await api.pollFollowedFolder(id);
    expect(r.sessions).toHaveLength(1);
    const files = (await api.listFollowedFolders())[0]!.files;
    expect(files.find((f) => f.path === 'notes.json')!.problem).toMatch(/not a transcript/);
    expect(files.find((f) => f.path === 'x/x.traj.json')!.format).toBe('mini-swe-agent');
    expect((await api.pollFollowedFolder(id)).bytesRead).toBe(0);
  });

  it('refuses what is not a folder handle, and an unknown follow', async () => {
    const { api } = await memoryBrain({ follow: { autoPoll: false } });
    await expect(api.followFolder({ handle: {} as FileSystemDirectoryHandle })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(api.pollFollowedFolder(99)).rejects.toMatchObject({ code: 'NotFound' });
    await expect(api.followFolder({ handle: new GrowingFolder('p').handle(), id: 42 })).rejects.toMatchObject(
      { code: 'NotFound' },
    );
  });

  it('unfollowing keeps the sessions and forgets the offsets', async () => {
    const file = generateCodexSession().main;
    const { api } = await memoryBrain({ follow: { autoPoll: false } });
    const folder = new GrowingFolder('sessions');
    const { id } = await api.followFolder({ handle: folder.handle() });
    folder.write(file.name, file.bytes);
    await pollAll(api, id);
    const sessions = await api.listSessions();
    await api.unfollowFolder(id);
    expect(await api.listFollowedFolders()).toEqual([]);
    expect(await api.listSessions()).toEqual(sessions);
  });

  it('follows several folders at once, each on its own; unfollowing one leaves the other going', async () => {
    const claude = generateClaudeCodeSession().main;
    const codex = generateCodexSession().main;
    const { api } = await memoryBrain({ follow: { autoPoll: false } });
    const a = new GrowingFolder('claude-project');
    const b = new GrowingFolder('codex-day');
    const fa = await api.followFolder({ handle: a.handle() });
    const fb = await api.followFolder({ handle: b.handle() });
    expect(fa.id).not.toBe(fb.id);
    a.write(claude.name, claude.bytes.subarray(0, 200_000));
    b.write(codex.name, codex.bytes.subarray(0, 50_000));
    await pollAll(api, fa.id);
    await pollAll(api, fb.id);
    const folders = await api.listFollowedFolders();
    expect(folders.map((f) => [f.name, f.files.length])).toEqual([
      ['claude-project', 1],
      ['codex-day', 1],
    ]);
    const sessions = folders.map((f) => f.files[0]!.sessionId);
    expect(new Set(sessions).size).toBe(2);
    // A look at one folder reads nothing of the other.
    b.append(codex.name, codex.bytes.subarray(50_000, 60_000));
    const readA = a.bytesRead;
    expect((await api.pollFollowedFolder(fa.id)).bytesRead).toBe(0);
    expect(a.bytesRead).toBe(readA);
    await api.unfollowFolder(fa.id);
    const r = await api.pollFollowedFolder(fb.id);
    expect(r.bytesRead).toBeGreaterThan(0);
    expect((await api.listFollowedFolders()).map((f) => f.name)).toEqual(['codex-day']);
    await expect(api.pollFollowedFolder(fa.id)).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('a last record with no newline is read when it is whole JSON; a cut one waits for its end', async () => {
    const record = (uuid: string, parent: string | null, role: 'user' | 'assistant', text: string) =>
      JSON.stringify({
        type: role,
        uuid,
        parentUuid: parent,
        sessionId: 'nl-less',
        timestamp: '2026-12-05T09:00:00.000Z',
        cwd: '/home/dev/nl',
        message: { role, content: [{ type: 'text', text }] },
      });
    const { api } = await memoryBrain({ follow: { autoPoll: false } });
    const folder = new GrowingFolder('p');
    const { id } = await api.followFolder({ handle: folder.handle() });
    const first = record('u1', null, 'user', 'Rename the flag.');
    const second = record('a1', 'u1', 'assistant', 'Renamed it.');
    // A writer that ended without a final newline: the whole record is read.
    folder.write('s.jsonl', encode(`${first}\n${second}`));
    await api.pollFollowedFolder(id);
    const [file] = (await api.listFollowedFolders())[0]!.files;
    expect(file!.offset).toBe(folder.size('s.jsonl'));
    const sessionId = file!.sessionId!;
    expect((await api.listMessages(sessionId)).map((m) => m.content)).toEqual([
      'Rename the flag.',
      'Renamed it.',
    ]);
    // Its newline comes later, then a record cut mid-way: nothing is read twice, the cut one waits.
    const third = record('u2', 'a1', 'user', 'Now run the tests.');
    folder.append('s.jsonl', encode(`\n${third.slice(0, 40)}`));
    await api.pollFollowedFolder(id);
    expect(await api.listMessages(sessionId)).toHaveLength(2);
    folder.append('s.jsonl', encode(`${third.slice(40)}\n`));
    await api.pollFollowedFolder(id);
    expect((await api.listMessages(sessionId)).map((m) => m.content)).toEqual([
      'Rename the flag.',
      'Renamed it.',
      'Now run the tests.',
    ]);
  });
});

describe('following by itself, told of changes by a FileSystemObserver', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('looks at most once every observedGapMs under a stream of changes, and again after a change reported during a look', async () => {
    const OBSERVED_MIN_GAP_MS = 1000;
    let report = () => {};
    vi.stubGlobal(
      'FileSystemObserver',
      class {
        constructor(callback: (records: { type: string }[]) => void) {
          report = () => callback([{ type: 'modified' }]);
        }
        async observe() {}
        disconnect() {}
      },
    );
    const clock = manualTimers();
    const { api } = await memoryBrain({
      follow: { timers: clock.timers, observedGapMs: OBSERVED_MIN_GAP_MS },
    });
    const file = generateClaudeCodeSession().main;
    // Three pieces ending at a line's end: the offset after each is its end (the fixture's torn last line waits).
    const cut = (at: number) => file.bytes.indexOf(0x0a, Math.floor(at)) + 1;
    const ends = [cut(file.bytes.length / 4), cut(file.bytes.length / 2), file.bytes.lastIndexOf(0x0a) + 1];
    const bytes = (from: number, to?: number) => file.bytes.slice(from, to);
    const folder = new GrowingFolder('project');
    folder.append(file.name, bytes(0, ends[0]!));
    // The follower gets the folder's file through getFileHandle: a hook there runs in the middle of a look.
    let duringLook: (() => void) | null = null;
    const root = folder.handle() as unknown as {
      getFileHandle(name: string): Promise<{ getFile(): Promise<Blob> }>;
    };
    const handle = Object.assign(Object.create(root) as object, {
      kind: 'directory',
      name: 'project',
      entries: (root as unknown as { entries: () => unknown }).entries,
      getDirectoryHandle: (root as unknown as { getDirectoryHandle: () => unknown }).getDirectoryHandle,
      getFileHandle: async (name: string) => {
        const h = await root.getFileHandle(name);
        return {
          kind: 'file',
          getFile: async () => {
            const blob = await h.getFile();
            const hook = duringLook;
            duringLook = null;
            hook?.();
            return blob;
          },
        };
      },
    }) as unknown as FileSystemDirectoryHandle;
    const offset = async () => (await api.listFollowedFolders())[0]?.files[0]?.offset ?? -1;

    const { id, pace } = await api.followFolder({ handle });
    expect(pace).toBe('observer');
    await clock.advance(0);
    await expect.poll(offset).toBe(ends[0]);

    // Appended and reported right after that look (at 0): looked at once a second has passed, not before.
    folder.append(file.name, bytes(ends[0]!, ends[1]!));
    report();
    report();
    expect(clock.next()).toBe(OBSERVED_MIN_GAP_MS);
    expect(await offset()).toBe(ends[0]);
    // That look's file is taken before the last piece is appended and reported: the piece gets a look of its own
    // a second after this one started, not at the slow safety poll.
    duringLook = () => {
      folder.append(file.name, bytes(ends[1]!));
      report();
    };
    await clock.advance(OBSERVED_MIN_GAP_MS);
    await expect.poll(offset).toBe(ends[1]);
    await expect.poll(() => clock.next()).toBe(2 * OBSERVED_MIN_GAP_MS);
    expect(clock.next()).toBeLessThan(POLL_OBSERVED_MS);
    await clock.advance(OBSERVED_MIN_GAP_MS);
    await expect.poll(offset).toBe(ends[2]);
    await api.unfollowFolder(id);
  });
});
