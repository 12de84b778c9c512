/**
 * In-page half of the lifecycle section, through the real engine (worker, wa-sqlite, OPFS):
 * (a) the seed's test — 100 tasks one after another, each superseding the last, with steps and repeated edits,
 *     once with automatic cleanup and once without, heavy bytes and file size every 10 tasks;
 * (b) a generated ~255 MiB database shaped like the seed's — audit(), planCleanup(), cleanup() timed.
 */
import {
  openBrain,
  type Brain,
  type CheckpointBody,
  type CheckpointEntryId,
  type TaskId,
} from '../../../src/lib/index';
import { createRandom, type Random } from '../../helpers/random';
import { progress } from './progress';

const words = [
  'state',
  'parse',
  'token',
  'node',
  'value',
  'index',
  'render',
  'buffer',
  'config',
  'result',
  'error',
  'cache',
];

function sourceLine(random: Random): string {
  const w = () => random.pick(words);
  return `export function ${w()}${random.int(0, 1e4)}(${w()}) { return ${w()}.${w()}(${random.int(0, 1e6)}, '${w()}'); }\n`;
}

/** An agent's edit: a few lines rewritten, one added. */
function edit(text: string, random: Random): string {
  const lines = text.split(/(?<=\n)/);
  for (let i = 0; i < Math.max(1, lines.length / 40); i++)
    lines[random.int(0, lines.length)] = sourceLine(random);
  lines.splice(random.int(0, lines.length), 0, sourceLine(random));
  return lines.join('');
}

function output(random: Random, bytes: number): string {
  let text = '';
  while (text.length < bytes)
    text += `${sourceLine(random).slice(0, 60)} ok ${random.int(0, 1e9).toString(36)}\n`;
  return text;
}

const sameBody = (a: CheckpointBody, b: CheckpointBody) => a === b;

/** Automatic cleanup caught up: nothing left to clean, and no pass running (the pages it gives back included). */
async function settled(brain: Brain, timeoutMs = 30_000): Promise<number> {
  const started = performance.now();
  const behind = async () => {
    const { reclaimable, autoCleanup } = await brain.audit();
    return reclaimable.tasks > 0 || autoCleanup.running;
  };
  while (await behind()) {
    if (performance.now() - started > timeoutMs) throw new Error('Automatic cleanup did not catch up.');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return performance.now() - started;
}

export interface SeedRow {
  readonly task: number;
  readonly heavyBytes: number;
  readonly currentTaskHeavyBytes: number;
  readonly fileBytes: number;
  readonly freelistCount: number;
  readonly pageSize: number;
  readonly tasksCleaned: number;
}

async function seedRun(options: {
  stepOutputBytes: number;
  dbName: string;
  auto: boolean;
  tasks: number;
  steps: number;
  files: number;
  edits: number;
  seed: number;
}) {
  const random = createRandom(options.seed);
  const brain = await openBrain({ dbName: options.dbName, closeOnPageHide: false });
  try {
    await brain.setAutoCleanup(
      options.auto
        ? { enabled: true, debounceMs: 100, maxWaitMs: 1_000, idleMs: 3_600_000 }
        : { enabled: false },
    );
    const { id: sessionId } = await brain.startSession({ title: 'the seed: 100 tasks' });
    const files = Array.from({ length: options.files }, () =>
      Array.from({ length: 300 }, () => sourceLine(random)).join(''),
    );
    let previous: TaskId | null = null;
    let expected = new Map<CheckpointEntryId, { before: CheckpointBody; after: CheckpointBody }>();
    let current: TaskId | null = null;
    const rows: SeedRow[] = [];
    let waitedMs = 0;
    // How far automatic cleanup fell behind: at a task's cleanup, how many tasks had started since it (1 = the
    // task just superseded; more = tasks piled up while the pass waited for its debounce).
    const started: TaskId[] = [];
    let mostBehind = 0;
    const unsubscribe = await brain.subscribe((change) => {
      if (change.topic !== 'cleanup' || change.taskId === undefined) return;
      const at = started.indexOf(change.taskId);
      if (at >= 0) mostBehind = Math.max(mostBehind, started.length - 1 - at);
    });
    for (let task = 1; task <= options.tasks; task++) {
      progress(`(a) tasks, cleanup ${options.auto ? 'on' : 'off'}`, task - 1, options.tasks);
      const { id } = await brain.startTask({ sessionId, title: `task ${task}` });
      started.push(id);
      if (previous !== null) await brain.setTaskState(previous, 'superseded');
      current = id;
      expected = new Map();
      await brain.recordMessage({
        sessionId,
        taskId: id,
        role: 'user',
        content: `Do step ${task} of the refactor.`,
      });
      // Steps, with the file edits spread among them (an edit follows the step that made it).
      const editsPerTask = options.files * options.edits;
      let e = 0;
      for (let s = 0; s < options.steps; s++) {
        const path = `src/f${s % options.files}.ts`;
        const tool = s % 3 === 0 ? 'run_tests' : 'edit_file';
        await brain.recordStep({
          taskId: id,
          tool,
          params: { path, attempt: s },
          result: { output: output(random, options.stepOutputBytes) },
          status: 'ok',
        });
        for (; e < editsPerTask && Math.floor((e * options.steps) / editsPerTask) === s; e++) {
          const f = e % options.files;
          const before = files[f] as string;
          const after = edit(before, random);
          const { id: entryId } = await brain.checkpointFile({
            taskId: id,
            path: `src/f${f}.ts`,
            before,
            after,
          });
          expected.set(entryId, { before, after });
          files[f] = after;
        }
      }
      await brain.recordSummary({
        sessionId,
        taskId: id,
        kind: 'task',
        content: `Task ${task} finished its part.`,
      });
      previous = id;
      if (task % 10 === 0) {
        console.log(`[lifecycle] (a) cleanup ${options.auto ? 'on' : 'off'}: task ${task}`);
        if (options.auto) waitedMs = Math.max(waitedMs, await settled(brain));
        const audit = await brain.audit();
        const own = audit.tasks.find((t) => t.taskId === id);
        rows.push({
          task,
          heavyBytes: audit.bytes.steps + audit.bytes.checkpointStored,
          currentTaskHeavyBytes: own?.heavyBytes ?? 0,
          fileBytes: audit.fileBytes,
          freelistCount: audit.freelistCount,
          pageSize: audit.pageSize,
          tasksCleaned: audit.counts.tasksCleaned,
        });
      }
    }
    await unsubscribe();
    // Every entry a kept task has must read back byte for byte; a cleaned one must say it was removed.
    let readable = 0;
    let mismatches = 0;
    for (const [entryId, want] of expected) {
      const got = await brain.readCheckpoint(entryId);
      if (sameBody(got.before, want.before) && sameBody(got.after, want.after)) readable++;
      else mismatches++;
    }
    const keptTasks = (await brain.listTasks(sessionId)).filter((t) => t.heavyRemovedAt === null);
    let removedChecked = 0;
    let removedWrong = 0;
    if (options.auto && current !== null) {
      const firstTask = (await brain.listTasks(sessionId))[0];
      for (const entry of await brain.listCheckpoints(firstTask?.id as TaskId)) {
        removedChecked++;
        const code = await brain.readCheckpoint(entry.id).then(
          () => 'ok',
          (error: { code?: string }) => error.code,
        );
        if (code !== 'CheckpointRemoved') removedWrong++;
      }
    }
    const integrity = await brain.integrityCheck();
    return {
      rows,
      readable,
      mismatches,
      expected: expected.size,
      keptTasks: keptTasks.map((t) => t.id),
      currentTask: current,
      removedChecked,
      removedWrong,
      integrity,
      maxWaitForAutoMs: waitedMs,
      mostBehind,
    };
  } finally {
    await brain.close();
  }
}

export async function lifecycleSeedBench(options: {
  stepOutputBytes: number;
  dbName: string;
  tasks: number;
  steps: number;
  files: number;
  edits: number;
  seed: number;
}) {
  const withCleanup = await seedRun({ ...options, dbName: `${options.dbName}-auto.db`, auto: true });
  const without = await seedRun({ ...options, dbName: `${options.dbName}-off.db`, auto: false });
  return { withCleanup, without };
}

/** Random bytes as base64 text: distinct, and compressing only to about 3/4 (so stored bytes are easy to aim at). */
function randomText(random: Random, bytes: number): string {
  const raw = new Uint8Array(Math.ceil((bytes * 3) / 4));
  for (let i = 0; i < raw.length; i += 4) {
    const v = random.uint32();
    raw[i] = v & 255;
    raw[i + 1] = (v >>> 8) & 255;
    raw[i + 2] = (v >>> 16) & 255;
    raw[i + 3] = v >>> 24;
  }
  let binary = '';
  for (let i = 0; i < raw.length; i += 0x8000) binary += String.fromCharCode(...raw.subarray(i, i + 0x8000));
  return btoa(binary).slice(0, bytes);
}

const time = async <T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
};

/**
 * (b): sessions of tasks, each task with checkpoint entries (2/3 of the bytes) and steps (1/3); in every session
 * only the current task and a pinned one or a child of current are protected.
 */
export async function lifecycleLargeBench(options: {
  dbName: string;
  targetMiB: number;
  sessions: number;
  tasksPerSession: number;
  entriesPerTask: number;
  stepsPerTask: number;
  seed: number;
  audits: number;
}) {
  const random = createRandom(options.seed);
  const estimate = await navigator.storage.estimate();
  const tasks = options.sessions * options.tasksPerSession;
  const target = options.targetMiB * 1048576;
  // Stored checkpoint bytes ≈ 3/4 of raw for base64 text: aim raw bodies at (2/3 target) / 0.75; bodies vary in
  // size around the mean, as source files do.
  const meanBody = ((2 / 3) * target) / 0.75 / tasks / options.entriesPerTask;
  const meanStep = target / 3 / tasks / options.stepsPerTask;
  // Page and row overhead is not known in advance: after each session, scale what is left to land on the target.
  let scale = 1;
  const around = (mean: number) => Math.max(64, Math.round(scale * mean * (0.25 + 1.5 * random.next())));
  let brain = await openBrain({ dbName: options.dbName, closeOnPageHide: false });
  await brain.setAutoCleanup({ enabled: false });
  const generated = await time(async () => {
    const protectedIds: TaskId[] = [];
    let fileBefore = (await brain.info()).fileBytes;
    for (let s = 0; s < options.sessions; s++) {
      const { id: sessionId } = await brain.startSession({ title: `session ${s}` });
      let parent: TaskId | null = null;
      for (let t = 0; t < options.tasksPerSession; t++) {
        progress(
          '(b) generating tasks',
          s * options.tasksPerSession + t,
          options.sessions * options.tasksPerSession,
        );
        const last = t === options.tasksPerSession - 1;
        const { id } = await brain.startTask({ sessionId, title: `task ${s}.${t}`, makeCurrent: last });
        await brain.checkpointFiles(
          Array.from({ length: options.entriesPerTask }, (_, k) => ({
            taskId: id,
            path: `s${s}/t${t}/file${k}.txt`,
            before: null,
            after: randomText(random, around(meanBody)),
          })),
        );
        for (let k = 0; k < options.stepsPerTask; k++) {
          await brain.recordStep({
            taskId: id,
            tool: 'run',
            params: { k },
            result: { output: randomText(random, around(meanStep)) },
            status: 'ok',
          });
        }
        await brain.recordMessage({
          sessionId,
          taskId: id,
          role: 'assistant',
          content: `Task ${s}.${t} done.`,
        });
        if (t === 0 && s % 2 === 0) {
          await brain.pinTask(id, true);
          protectedIds.push(id);
        }
        if (t === options.tasksPerSession - 2) parent = id;
        if (!last) await brain.setTaskState(id, t % 5 === 0 ? 'done' : 'superseded');
        else {
          protectedIds.push(id);
          if (parent !== null) {
            await brain.addTaskReference(id, parent, 'reference');
            protectedIds.push(parent);
          }
        }
        if (t % 20 === 19) console.log(`[lifecycle] (b) session ${s + 1}/${options.sessions}: task ${t + 1}`);
      }
      const done = (s + 1) * options.tasksPerSession;
      const { fileBytes } = await brain.info();
      const grewPerTask = (fileBytes - fileBefore) / options.tasksPerSession;
      fileBefore = fileBytes;
      if (done < tasks)
        scale *= Math.min(4, Math.max(0.25, (target - fileBytes) / (tasks - done) / grewPerTask));
    }
    return protectedIds.length;
  });
  const before = await brain.audit();

  // Cold: a fresh worker and connection, as when the app opens its storage view.
  await brain.close();
  brain = await openBrain({ dbName: options.dbName, closeOnPageHide: false });
  await brain.setAutoCleanup({ enabled: false });
  const cold = await time(() => brain.audit());
  const warm: { ms: number; engineMs: number }[] = [];
  for (let i = 0; i < options.audits; i++) {
    const { ms, value } = await time(() => brain.audit());
    warm.push({ ms, engineMs: value.elapsedMs });
  }
  const plan = await time(() => brain.planCleanup());
  // cleanup() runs in turns: a call made meanwhile (a cheap one, at once and then 100 ms after each answer) waits
  // for the task being cleaned, not for the whole pass.
  let progressReports = 0;
  let cleaning = true;
  const during: number[] = [];
  const probe = before.tasks[0]?.taskId as TaskId;
  // A call is made at each progress report (cleanup reports as it goes, task by task) while none is in flight:
  // paced by the cleanup itself, not by a timer.
  let probing: Promise<void> | null = null;
  const ask = () => {
    if (!cleaning || probing !== null) return;
    probing = time(() => brain.getTask(probe)).then(({ ms }) => {
      if (cleaning) during.push(ms);
      probing = null;
    });
  };
  const pending = time(() =>
    brain.cleanup(undefined, () => {
      progressReports++;
      ask();
    }),
  ).finally(() => (cleaning = false));
  ask();
  await pending;
  await probing;
  const cleanup = await pending;
  const after = await brain.audit();
  const maintain = await time(() => brain.maintain({ budgetMs: 10_000, force: true }));
  const afterMaintain = await brain.audit();
  const integrity = await brain.integrityCheck();
  await brain.close();
  const figures = (a: typeof before) => ({
    fileBytes: a.fileBytes,
    freeBytes: a.freeBytes,
    bytes: a.bytes,
    counts: a.counts,
    light: a.light,
    reclaimable: a.reclaimable,
  });
  return {
    quota: { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0 },
    tasks,
    entriesPerTask: options.entriesPerTask,
    stepsPerTask: options.stepsPerTask,
    protectedTasks: generated.value,
    generateMs: generated.ms,
    before: figures(before),
    cold: { ms: cold.ms, engineMs: cold.value.elapsedMs },
    warm,
    plan: { ms: plan.ms, counts: plan.value.counts, freesBytes: plan.value.freesBytes },
    cleanup: {
      ms: cleanup.ms,
      cleaned: cleanup.value.cleaned.length,
      failed: cleanup.value.failed.length,
      bytesFreed: cleanup.value.bytesFreed,
      progressReports,
      callsDuring: during,
    },
    after: figures(after),
    maintain: { ms: maintain.ms, pagesFreed: maintain.value.pagesFreed, more: maintain.value.more },
    afterMaintain: figures(afterMaintain),
    integrity,
  };
}
