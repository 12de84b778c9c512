/**
 * In-page half of the "tool-calls" section: a real agent's tool calls through the page — `recordToolCalls` in
 * batches, `recordToolCall` one at a time — against the same calls made one by one the way an integrator had to
 * before: `recordStep`, then one `recordValidation` / `recordFileChange` / `checkpointFile` call for each thing
 * the call meant (the classifier run in the page to know what, as that integrator's conversion would).
 */
import { openBrain, type Brain, type SessionId, type TaskId } from '../../../src/lib/index';
import { classifyToolCall } from '../../../src/core/tool-calls';
import { stepSearchText } from '../../../src/core/events/step-text';
import { stepOf } from '../../../src/core/tool-calls/records';
import type { FloorRequest, FloorResult } from './storage-floor-worker';
import type { ToolCall } from '../../../src/core/tool-calls/types';
import { bashSession } from '../../fixtures/bash-session';
import { percentile } from '../lib/history-timing';
import { progress } from './progress';

export interface ToolCallsBenchOptions {
  readonly dbName: string;
  readonly batchCalls: number;
  readonly batchSize: number;
  readonly singleCalls: number;
  /** Leave the brain (and its worker) open for its CPU profile to be taken; `closeLeftOpen()` closes it. */
  readonly leaveOpen?: boolean;
}

let leftOpen: Brain | null = null;

/** Opens the section's brain ahead of the run (so a CPU profile can be started in its worker first). */
export async function openToolCallsBrain(dbName: string): Promise<void> {
  leftOpen = await openBrain({ dbName });
}

export async function closeLeftOpen(): Promise<void> {
  await leftOpen?.close();
  leftOpen = null;
}

/** Bash calls of SWE-bench-shaped sessions (greps, cats, sed -i, pytest, long outputs) and Claude Code edits. */
function calls(n: number): ToolCall[] {
  const out: ToolCall[] = [];
  for (let seed = 1; out.length < n; seed++) {
    for (const step of bashSession(seed).steps) {
      out.push({
        tool: 'bash',
        input: { command: step.command },
        output: step.output,
        exitCode: step.exitCode,
      });
      if (out.length % 5 === 0) {
        const before = `export const pageSize = ${seed};\nexport function last(n: number) {\n  return n <= 10;\n}\n`;
        out.push({
          tool: 'Edit',
          input: {
            file_path: `/testbed/src/page${out.length % 40}.ts`,
            old_string: 'n <= 10',
            new_string: 'n < 10',
          },
          output: 'The file has been updated.',
          result: { originalFile: before, oldString: 'n <= 10', newString: 'n < 10' },
        });
      }
    }
  }
  return out.slice(0, n);
}

async function task(brain: Brain, title: string): Promise<{ sessionId: SessionId; taskId: TaskId }> {
  const { id: sessionId } = await brain.startSession({ title });
  const { id: taskId } = await brain.startTask({ sessionId, title });
  return { sessionId, taskId };
}

/** What an integrator recorded for one call before recordToolCall: a step, then an engine call per meaning. */
async function oneByOneToday(brain: Brain, target: { sessionId: SessionId; taskId: TaskId }, call: ToolCall) {
  const meaning = classifyToolCall(call);
  const { id: stepId } = await brain.recordStep({
    taskId: target.taskId,
    tool: call.tool,
    params: call.input as never,
    result: { output: call.output ?? '', exitCode: call.exitCode ?? null },
    status: call.exitCode ? 'error' : 'ok',
  });
  for (const e of meaning.fileEffects) {
    const entry =
      e.before !== undefined && e.after !== undefined
        ? (
            await brain.checkpointFile({
              taskId: target.taskId,
              stepId,
              path: e.path,
              before: e.before,
              after: e.after,
            })
          ).id
        : undefined;
    await brain.recordFileChange({
      sessionId: target.sessionId,
      taskId: target.taskId,
      stepId,
      path: e.path,
      ...(entry === undefined ? {} : { checkpointEntryId: entry }),
    });
  }
  for (const c of meaning.checks) {
    if (c.result.status === 'unknown') continue;
    await brain.recordValidation({
      sessionId: target.sessionId,
      taskId: target.taskId,
      stepId,
      name: c.id,
      result: c.result.status,
    });
  }
}

/** A word of the last line of the last call's output that has one (what a search for its tail looks for). */
function tailTerm(batch: readonly ToolCall[]): string {
  for (const call of [...batch].reverse()) {
    const lines = (call.output ?? '').trim().split('\n');
    const word = lines
      .at(-1)
      ?.match(/[A-Za-z_]{5,}/g)
      ?.at(-1);
    if (word) return word;
  }
  throw new Error('No call of the batch has an output with a word in its last line.');
}

const timed = async (run: () => Promise<unknown>) => {
  const started = performance.now();
  await run();
  return performance.now() - started;
};

const stats = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = samples.reduce((a, b) => a + b, 0);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.at(-1) ?? NaN,
    perSecond: (samples.length * 1000) / total,
  };
};

/**
 * The storage floor (storage-floor-worker.ts): each call's step row and search document alone, written by the
 * engine's repositories in a worker of their own on OPFS — the texts prepared here, before the clock starts.
 */
async function storageFloor(
  dbName: string,
  calls: readonly ToolCall[],
  batchSize: number,
  documents: boolean,
) {
  const rows = calls.map((call) => {
    const step = stepOf(call, classifyToolCall(call));
    return [
      JSON.stringify(step.params),
      JSON.stringify(step.result),
      stepSearchText(step.params, step.result),
    ] as const;
  });
  const worker = new Worker(new URL('./storage-floor-worker.ts', import.meta.url), { type: 'module' });
  try {
    const reply = await new Promise<{ result?: FloorResult; error?: string }>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<{ result?: FloorResult; error?: string }>) =>
        resolve(event.data);
      worker.onerror = (event) => reject(new Error(`The storage floor worker failed: ${event.message}`));
      worker.postMessage({ dbName, batchSize, rows, documents } satisfies FloorRequest);
    });
    if (!reply.result) throw new Error(`The storage floor failed: ${reply.error ?? 'no result'}`);
    return reply.result;
  } finally {
    worker.terminate();
  }
}

export async function toolCallsBench(options: ToolCallsBenchOptions) {
  const brain = leftOpen ?? (await openBrain({ dbName: options.dbName }));
  leftOpen = null;
  try {
    const all = calls(options.batchCalls + 2 * options.singleCalls + options.batchSize);
    // Warm-up: one whole batch of other calls (after the single calls' in `all`), timed apart. A new worker's first
    // thousand calls run its JavaScript cold (the JIT compiles the classifier, the driver, the repositories as
    // they get hot): slower than later (in Node a third of the later speed, in this Chromium ~0.85×). The
    // throughput below is the worker's once warm, as in a playground's session; the cold batch is reported beside.
    const warm = await task(brain, 'warm-up');
    const warmCalls = all.slice(options.batchCalls + 2 * options.singleCalls);
    const coldMs = await timed(() =>
      brain.recordToolCalls(warmCalls.map((call) => ({ ...warm, root: '/testbed', call }))),
    );

    await brain.searchHistory('warm'); // the warm-up's steps indexed before the clock starts
    const batched = await task(brain, 'batched');
    const batchTimes: number[] = [];
    const started = performance.now();
    for (let i = 0; i < options.batchCalls; i += options.batchSize) {
      const part = all.slice(i, Math.min(i + options.batchSize, options.batchCalls));
      batchTimes.push(
        await timed(() =>
          brain.recordToolCalls(part.map((call) => ({ ...batched, root: '/testbed', call }))),
        ),
      );
      progress('recordToolCalls', Math.min(i + options.batchSize, options.batchCalls), options.batchCalls);
    }
    // The steps' search documents are written behind the calls (when the worker is idle; between two batches
    // some already are). A search catches up on what is left first: from the first batch to its answer is the
    // throughput with indexing — and the search must find the last call's output.
    const wallMs = performance.now() - started;
    const batchMs = batchTimes.reduce((a, b) => a + b, 0);
    const lastTerm = tailTerm(all.slice(0, options.batchCalls));
    const found = await brain.searchHistory(lastTerm, { sessionId: batched.sessionId, kinds: ['step'] });
    const indexedMs = performance.now() - started;
    if (found.hits.length === 0) throw new Error(`The search for "${lastTerm}" found no step.`);
    const steps = (await brain.listSteps(batched.taskId)).length;
    progress('storage floor', 0, 1);
    const floor = await storageFloor(
      `${options.dbName}-floor`,
      all.slice(0, options.batchCalls),
      options.batchSize,
      true,
    );
    const rowsFloor = await storageFloor(
      `${options.dbName}-rows`,
      all.slice(0, options.batchCalls),
      options.batchSize,
      false,
    );

    // Single calls and the anchor, alternating in blocks of 25 so load drift hits both alike.
    const single = await task(brain, 'single');
    const anchor = await task(brain, 'one by one today');
    const singleSamples: number[] = [];
    const anchorSamples: number[] = [];
    const rest = all.slice(options.batchCalls);
    for (let i = 0; i < options.singleCalls; i += 25) {
      for (const call of rest.slice(i, i + 25))
        singleSamples.push(await timed(() => brain.recordToolCall({ ...single, root: '/testbed', call })));
      for (const call of rest.slice(options.singleCalls + i, options.singleCalls + i + 25))
        anchorSamples.push(await timed(() => oneByOneToday(brain, anchor, call)));
      progress('single calls and the anchor', Math.min(i + 25, options.singleCalls), options.singleCalls);
    }
    const resume = await brain.resumePoint(batched.sessionId);
    return {
      batch: {
        calls: options.batchCalls,
        batchSize: options.batchSize,
        ms: batchMs,
        perSecond: (options.batchCalls * 1000) / batchMs,
        batchMs: batchTimes,
        cold: { calls: warmCalls.length, ms: coldMs, perSecond: (warmCalls.length * 1000) / coldMs },
        steps,
        wallMs,
        indexedMs,
        indexedPerSecond: (options.batchCalls * 1000) / indexedMs,
      },
      floor,
      rowsFloor,
      single: stats(singleSamples),
      anchor: stats(anchorSamples),
      checks: resume.checkpoint.validations.length,
      files: resume.filesChanged.length,
      integrity: await brain.integrityCheck(),
    };
  } finally {
    if (options.leaveOpen) leftOpen = brain;
    else await brain.close();
  }
}
