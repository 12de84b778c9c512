/**
 * Automatic cleanup gives back the pages of tasks that piled up. A pass waits for its debounce; an agent whose tasks
 * are shorter than that (the bench's seed shape: ~10 tasks a second) supersedes several before it runs, and the
 * file grows to hold them all — steps, their search index, checkpoints. Cleanup frees those pages, but SQLite only
 * reuses free pages: without a give-back the file kept that high-water mark for good (the bench's file after task
 * 100 was 1.7–3.3× the one after task 10, in steps, where a pass had found up to 10 tasks waiting). A pass that
 * cleaned several tasks now returns the file to its size in step with cleanup (run.ts, `giveBackPiledUp`).
 * Real wa-sqlite (memory VFS, auto_vacuum incremental as every agent.db), timers moved by hand.
 */
import { describe, expect, it } from 'vitest';
import type { BrainApi, SessionId, TaskId } from '../../src/core/api';
import { createRandom, type Random } from '../helpers/random';
import { manualTimers } from '../helpers/manual-timers';
import { memoryBrain } from './engine-helpers';

const STEPS = 8;
const OUTPUT = 14_000;
/** Tasks superseded while the pass waits. */
const PILED = 10;

const words = ['state', 'parse', 'token', 'node', 'value', 'index', 'render', 'buffer', 'config', 'result'];

/** A tool's output: lines of words and numbers, most of them distinct terms for the search index. */
function output(random: Random): string {
  let text = '';
  while (text.length < OUTPUT)
    text += `${random.pick(words)}${random.int(0, 1e4)} ${random.pick(words)} ${random.int(0, 1e9).toString(36)} ok\n`;
  return text;
}

function source(random: Random): string {
  return Array.from({ length: 200 }, () => `const ${random.pick(words)}${random.int(0, 1e6)} = 1;\n`).join(
    '',
  );
}

async function work(
  api: BrainApi,
  sessionId: SessionId,
  taskId: TaskId,
  random: Random,
  file: { text: string },
) {
  await api.recordMessage({ sessionId, taskId, role: 'user', content: 'Next part of the refactor.' });
  for (let s = 0; s < STEPS; s++) {
    await api.recordStep({
      taskId,
      tool: 'run_tests',
      params: { attempt: s },
      result: { output: output(random) },
      status: 'ok',
    });
    if (s % 2 === 0) {
      const after = source(random);
      await api.checkpointFile({ taskId, path: 'src/parser.ts', before: file.text, after });
      file.text = after;
    }
  }
  await api.recordSummary({ sessionId, taskId, kind: 'task', content: 'Part done.' });
}

async function run(giveBack: boolean, inStepTasks = 12) {
  const { timers, advance } = manualTimers();
  const { api } = await memoryBrain({
    lifecycle: { enabled: true, debounceMs: 100, maxWaitMs: 1_000, idleMs: 3_600_000, timers, giveBack },
  });
  const random = createRandom(7);
  const { id: sessionId } = await api.startSession({ title: 'tasks faster than the debounce' });
  const file = { text: source(random) };
  let previous: TaskId | null = null;
  const task = async () => {
    const { id } = await api.startTask({ sessionId, title: 'part' });
    if (previous !== null) await api.setTaskState(previous, 'superseded');
    await work(api, sessionId, id, random, file);
    previous = id;
  };
  /** The debounce runs out: one pass, waited for to its end. */
  const pass = async () => {
    const runs = (await api.audit()).autoCleanup.runs;
    await advance(100);
    await expect.poll(async () => (await api.audit()).autoCleanup.runs).toBeGreaterThan(runs);
    return api.audit();
  };

  // In step: each task's pass comes before the next task (the previous task cleaned, one at a time).
  let inStep = 0;
  for (let i = 0; i < inStepTasks; i++) {
    await task();
    inStep = Math.max(inStep, (await pass()).pageCount);
  }
  // Piled up: PILED tasks superseded while the pass waits, then one pass cleans them all.
  for (let i = 0; i < PILED; i++) await task();
  const before = await api.audit();
  const after = await pass();
  // In step again: the file holds what the work needs (the search index merges away the pile's entries).
  let later = 0;
  for (let i = 0; i < 8; i++) {
    await task();
    later = Math.max(later, (await pass()).pageCount);
  }
  return { api, inStep, before, after, later };
}

describe('automatic cleanup gives back the pages of tasks that piled up', () => {
  it('the file goes back to its size in step with cleanup (control: without the give-back it keeps the pile)', async () => {
    const on = await run(true);
    const off = await run(false);
    const mib = (pages: number, pageSize: number) => `${((pages * pageSize) / 1048576).toFixed(2)} MiB`;
    const { pageSize } = on.after;
    const figures =
      `in step ${mib(on.inStep, pageSize)}, piled up ${mib(on.before.pageCount, pageSize)}, after the pass: ` +
      `${mib(on.after.pageCount, pageSize)} (free ${mib(on.after.freelistCount, pageSize)}); without give-back ` +
      `${mib(off.after.pageCount, pageSize)} (free ${mib(off.after.freelistCount, pageSize)}); 8 tasks later ` +
      `${mib(on.later, pageSize)} / ${mib(off.later, pageSize)}`;
    // The pile made the file grow well past its size in step (the shape this test is about), in both runs alike.
    expect(on.before.reclaimable.tasks, figures).toBe(PILED);
    expect(on.before.pageCount, figures).toBeGreaterThan(on.inStep * 1.5);
    expect(off.before.pageCount, figures).toBe(on.before.pageCount);
    // Both passes cleaned the pile: heavy data back to the current task's.
    for (const r of [on, off]) {
      expect(r.after.reclaimable.tasks).toBe(0);
      expect(r.after.counts.tasksCleaned).toBe(12 + PILED - 1);
    }
    // With the give-back, ≥ 80 % of what the pile added to the file goes back (the rest: the search index still
    // holds the pile's deleted entries until its merges meet them), and the file stays there as work goes on in
    // step; without it, the file keeps the pile as free pages (control: the same bounds fail there).
    const pile = on.before.pageCount - on.inStep;
    const kept = (r: typeof on) => (r.after.pageCount - r.inStep) / pile;
    expect(kept(on), figures).toBeLessThanOrEqual(0.2);
    expect(on.later, figures).toBeLessThanOrEqual(on.inStep + 0.2 * pile);
    expect(kept(off), figures).toBeGreaterThan(0.9);
    expect(off.after.freelistCount, figures).toBeGreaterThan(0.5 * pile);
    // Pages moved by the incremental vacuum: the database is whole and the current task reads back.
    expect(await on.api.integrityCheck()).toEqual(['ok']);
    const current = (await on.api.audit()).tasks.at(-1)?.taskId as TaskId;
    expect(await on.api.listSteps(current)).toHaveLength(STEPS);
    for (const entry of await on.api.listCheckpoints(current)) await on.api.readCheckpoint(entry.id);
  });

  it('a pile before any pass in step: given back once it is all cleaned (the pages in use, and room for two of its tasks)', async () => {
    // The engine's first passes find the pile (an agent faster than the debounce from its first task): there is
    // no size in step yet, so the give-back waits for the pile's last task — counted before it, the pages in use
    // still held the pile, and the file kept it (the bench's file stuck at 2.97 MiB, 2.3 MiB free, before the fix).
    const on = await run(true, 0);
    const off = await run(false, 0);
    const mib = (pages: number) => `${((pages * on.after.pageSize) / 1048576).toFixed(2)} MiB`;
    const figures =
      `piled up ${mib(on.before.pageCount)}, after the pass ${mib(on.after.pageCount)} (free ` +
      `${mib(on.after.freelistCount)}); without give-back ${mib(off.after.pageCount)} (free ` +
      `${mib(off.after.freelistCount)})`;
    expect(on.before.reclaimable.tasks, figures).toBe(PILED - 1);
    expect(off.after.pageCount, figures).toBe(on.before.pageCount);
    expect(on.after.freelistCount, figures).toBeLessThan(0.2 * off.after.freelistCount);
    expect(on.after.pageCount, figures).toBeLessThan(0.6 * off.after.pageCount);
    expect(await on.api.integrityCheck()).toEqual(['ok']);
  });
});
