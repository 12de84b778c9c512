/**
 * The lifetime promise, measured on the file: cleanup removes the heavy data of superseded tasks — steps, their
 * search documents and index entries, checkpoint bodies — one transaction per task, so heavy bytes do not grow
 * with the number of tasks. The seed's shape (task after task, each superseding the last) with every feature
 * on: tool calls recorded through recordToolCalls (steps indexed just behind the writes) and recordStep (indexed
 * at once), checkpoints from a call's files (bodies, and a patch entry from a diff) and from checkpointFile,
 * messages, events, a summary, a search each task (it catches up the pending steps), automatic compression, size
 * history. Bytes per table come from SQLite's own page accounting (dbstat, test/unit/db-file.ts) on the exported
 * agent.db — not from the engine's counters.
 */
import { describe, expect, it } from 'vitest';
import type { BrainApi, SessionId, TaskId } from '../../src/core/api';
import { createRandom, type Random } from '../helpers/random';
import { bytesByTable, holdsText, indexTerms, liveBytes } from './db-file';
import { memoryBrain } from './engine-helpers';

const TASKS = 100;
/** Tool calls a task records through recordToolCalls; each output is OUTPUT bytes, all of it in its document. */
const CALLS = 6;
const OUTPUT = 16_000;
/** What a light row may add to any one table per task (task row, message, events, summary, records, samples…). */
const LIGHT_PER_TASK = 2_048;
/**
 * What the light rows of a task may add to the file, all tables together: 2.8 KiB measured since the index merges
 * segments with deleted rows early (migration 15's `deletemerge`); 9.6 KiB with FTS5's default, whose late merges
 * leave free pages behind (the file 1.75× its size after task 10 by task 100).
 */
const FILE_PER_TASK = 6_144;
/** Tables whose rows are a task's heavy data. */
const HEAVY = /^(steps|checkpoint_bodies|checkpoint_body_data|checkpoint_entries)$/;
/** The search data (documents and their FTS5 index), measured with the steps' documents alone. */
const SEARCH = /^history_(docs|fts_.*)$/;
/** The first sample, once the shape is steady; the last is after the last task. */
const FIRST = 10;

const words = ['parser', 'token', 'buffer', 'render', 'cache', 'index', 'value', 'config', 'result', 'node'];

/** A command's output: varied lines, with the task's own word in the middle (never on a line a classifier reads). */
function output(random: Random, marker: string): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < OUTPUT; i++) {
    const line =
      i === 40
        ? `checked ${marker} against the fixtures`
        : `${random.pick(words)}_${random.int(0, 1e6).toString(36)} ${random.pick(words)} ${random.uint32().toString(16)} ok`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return lines.join('\n');
}

/** A change to a file whose bodies the caller did not read, as a unified diff. */
function patch(task: number, random: Random): string {
  const removed = Array.from({ length: 40 }, () => `-value_${random.uint32().toString(16)} = ${task - 1}`);
  const added = Array.from({ length: 40 }, () => `+value_${random.uint32().toString(16)} = ${task}`);
  return ['--- a/src/util.py', '+++ b/src/util.py', '@@ -1,40 +1,40 @@', ...removed, ...added, ''].join('\n');
}

/** `stepmarker12q` for task 12: one term per task for the tokenizer (letters and digits), stemmed to itself. */
const stepMarker = (task: number) => `STEPMARKER${task}Q`;
const keptMarker = (task: number) => `keptdecision${task}z`;

async function work(api: BrainApi, sessionId: SessionId, taskId: TaskId, task: number, random: Random) {
  const marker = stepMarker(task);
  await api.recordMessage({ sessionId, taskId, role: 'user', content: `Do part ${task} of the refactor.` });
  await api.recordInstruction({ sessionId, taskId, text: `Part ${task}: split the parser module.` });
  const before = `# part ${task - 1}\n${output(random, 'body').slice(0, 4_000)}\n`;
  const after = `# part ${task}\n${output(random, 'body').slice(0, 4_000)}\n`;
  await api.recordToolCalls(
    Array.from({ length: CALLS }, (_, i) => ({
      sessionId,
      taskId,
      root: '/testbed',
      call: {
        tool: 'bash',
        input: { command: `python scripts/report_${task}_${i}.py` },
        output: output(random, marker),
        exitCode: 0,
      },
      // The first call's script rewrote a file: its bodies become a checkpoint entry; the second's change is known
      // only as a diff: a patch entry.
      ...(i === 0 ? { files: [{ path: '/testbed/src/parser.py', before, after }] } : {}),
      ...(i === 1 ? { files: [{ path: '/testbed/src/util.py', diff: patch(task, random) }] } : {}),
    })),
  );
  await api.recordStep({
    taskId,
    tool: 'edit_file',
    params: { path: 'src/parser.py' },
    result: { output: output(random, marker) },
    status: 'ok',
  });
  await api.checkpointFile({ taskId, path: 'src/lexer.py', before: null, after: output(random, 'lexer') });
  const entries = await api.listCheckpoints(taskId);
  expect(entries.map((e) => e.patch !== null).sort()).toEqual([false, false, true]);
  await api.recordEvent({
    sessionId,
    taskId,
    kind: 'decision',
    text: `Keep the ${keptMarker(task)} tokenizer`,
    why: 'it is tested',
  });
  await api.recordSummary({ sessionId, taskId, kind: 'task', content: `Part ${task} done.` });
  // Search is used: every step of the task found (the pending ones indexed first) — the documents exist.
  const { hits } = await api.searchHistory(marker, { kinds: ['step'], limit: 50 });
  expect(hits.filter((h) => h.taskId === taskId)).toHaveLength(CALLS + 1);
}

const sum = (tables: Map<string, number>, only: RegExp) =>
  [...tables].reduce((n, [name, bytes]) => n + (only.test(name) ? bytes : 0), 0);

/** A sample: every table (the search index merged, see db-file.ts), and the search data of steps alone. */
function measure(file: Uint8Array) {
  const mergedFts = ['history_fts'];
  const stepSearch = bytesByTable(file, {
    only: `DELETE FROM history_docs WHERE source <> 'step'`,
    mergedFts,
  });
  return {
    ...bytesByTable(file, { mergedFts }),
    heavy: sum(bytesByTable(file).tables, HEAVY) + sum(stepSearch.tables, SEARCH),
  };
}

/** Bytes per table at both samples, and per task between them: what a failure prints. */
const table = (a: ReturnType<typeof measure>, b: ReturnType<typeof measure>) =>
  [...b.tables].map(([name, bytes]) => `${name}: ${a.tables.get(name) ?? 0} → ${bytes}`).join(', ');

describe('heavy data does not grow with the number of superseded tasks', () => {
  it(`${TASKS} tasks with every feature on: bytes per table flat, cleaned steps gone from search and from the file`, async () => {
    const { api } = await memoryBrain();
    await api.setAutoCleanup({ enabled: false }); // cleaned below after each task: the same runner, in step
    const random = createRandom(32);
    const { id: sessionId } = await api.startSession({ title: 'the seed: task after task' });
    const measured = new Map<number, ReturnType<typeof measure>>();
    let previous: TaskId | null = null;
    for (let task = 1; task <= TASKS; task++) {
      const { id } = await api.startTask({ sessionId, title: `part ${task}` });
      if (previous !== null) await api.setTaskState(previous, 'done');
      await work(api, sessionId, id, task, random);
      const report = await api.cleanup();
      if (previous !== null) {
        expect(report.cleaned.map((c) => [c.taskId, c.stepsRemoved])).toEqual([[previous, CALLS + 1]]);
      }
      previous = id;
      if (task === FIRST || task === TASKS) measured.set(task, measure(await api.exportDatabase()));
    }
    const first = measured.get(FIRST);
    const last = measured.get(TASKS);
    if (!first || !last) throw new Error('not measured');

    // The meter sees search documents: the current task's steps' are there (control for the checks below).
    expect(first.heavy - sum(first.tables, /^(steps|checkpoint_.*)$/)).toBeGreaterThan((CALLS + 1) * OUTPUT);
    const growing = [...last.tables]
      .map(([name, bytes]) => ({ name, perTask: (bytes - (first.tables.get(name) ?? 0)) / (TASKS - FIRST) }))
      .filter((t) => t.perTask > LIGHT_PER_TASK);
    expect(growing, table(first, last)).toEqual([]);
    expect(last.heavy / first.heavy, table(first, last)).toBeLessThanOrEqual(1.05);
    // The file as written (free pages are reused): it grows by light rows and the index's merge phase only, where a
    // task's heavy data is ~240 KiB.
    expect((last.file - first.file) / (TASKS - FIRST)).toBeLessThanOrEqual(FILE_PER_TASK);

    // Directly: a cleaned task's step words are gone — from search, from the index's terms, from every live page;
    // the current task's are everywhere (control), and a cleaned task's decision, a light row, is still found.
    const file = await api.exportDatabase();
    const live = liveBytes(file);
    const stepHits = async (task: number) =>
      (await api.searchHistory(stepMarker(task), { kinds: ['step'] })).hits.length;
    expect(await stepHits(TASKS)).toBe(CALLS + 1);
    // Steps are stored packed (zlib) and the index keeps terms, not text: the file search is controlled by a light
    // row's words (a decision, stored as text), the current task's step words by its steps read back.
    expect(holdsText(live, keptMarker(TASKS - 1))).toBe(true);
    expect(JSON.stringify(await api.listSteps(previous as TaskId))).toContain(stepMarker(TASKS));
    for (const task of [1, FIRST, TASKS - 1]) {
      expect(await stepHits(task)).toBe(0);
      expect(holdsText(live, stepMarker(task))).toBe(false);
      const kept = (await api.searchHistory(keptMarker(task))).hits;
      expect(kept.map((h) => [h.source, h.kind])).toEqual([['event', 'decision']]);
    }
    expect(indexTerms(file, 'history_fts', 'stepmarker')).toEqual([stepMarker(TASKS).toLowerCase()]);
    expect(await api.integrityCheck()).toEqual(['ok']);
  });
});
