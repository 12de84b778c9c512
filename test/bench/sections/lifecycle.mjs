/**
 * Section "lifecycle": cleanup by operability, through the real engine in the worker on OPFS in headless Chromium.
 * (a) the seed's test: 100 tasks one after another, each superseding the last, with steps and repeated edits;
 *     heavy bytes and file size every 10 tasks, with automatic cleanup and without (the control);
 * (b) a generated ~255 MiB agent.db shaped like the seed's (2/3 checkpoint bodies, 1/3 steps, hundreds of tasks,
 *     a few protected): audit(), planCleanup(), cleanup() timed, bytes before and after.
 * Sizes can be scaled down for a quick look: BENCH_LIFECYCLE_MIB (default 255), BENCH_LIFECYCLE_TASKS (default 100).
 */
import { loadavg } from 'node:os';
import { withBenchPage } from '../lib/browser.mjs';
import { mib, table } from '../lib/format.mjs';

export const title = 'Lifecycle cleanup';

const pct = (x) => `${(100 * x).toFixed(1)} %`;
const ms = (x) => `${x.toFixed(1)} ms`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function seedLines(seed) {
  const { withCleanup: on, without: off } = seed;
  const rows = on.rows.map((row, i) => {
    const control = off.rows[i];
    return [
      row.task,
      mib(row.heavyBytes),
      mib(row.currentTaskHeavyBytes),
      mib(row.fileBytes),
      mib(row.freelistCount * row.pageSize),
      mib(row.fileBytes - row.freelistCount * row.pageSize - row.heavyBytes),
      mib(control.heavyBytes),
      mib(control.fileBytes),
    ];
  });
  const last = on.rows.at(-1);
  const tenth = on.rows[0];
  const targets = [
    {
      name: `heavy bytes after task ${last.task} ≤ current task's own + 5 %`,
      show: `${mib(last.heavyBytes)} vs ${mib(last.currentTaskHeavyBytes)} MiB (${(last.heavyBytes / last.currentTaskHeavyBytes).toFixed(3)}×)`,
      ok: last.heavyBytes <= 1.05 * last.currentTaskHeavyBytes,
    },
    {
      name: `file after task ${last.task} ≤ 1.25 × file after task ${tenth.task}`,
      show: `${mib(last.fileBytes)} vs ${mib(tenth.fileBytes)} MiB (${(last.fileBytes / tenth.fileBytes).toFixed(3)}×)`,
      ok: last.fileBytes <= 1.25 * tenth.fileBytes,
    },
    {
      name: 'every kept entry readable byte for byte',
      sound: true,
      show: `${on.readable} of ${on.expected} (kept tasks: ${on.keptTasks.join(', ')})`,
      ok:
        on.readable === on.expected &&
        on.mismatches === 0 &&
        on.keptTasks.length === 1 &&
        on.keptTasks[0] === on.currentTask,
    },
    {
      name: 'a cleaned entry raises CheckpointRemoved',
      sound: true,
      show: `${on.removedChecked - on.removedWrong} of ${on.removedChecked}`,
      ok: on.removedChecked > 0 && on.removedWrong === 0,
    },
    {
      name: 'integrity_check',
      sound: true,
      show: `${on.integrity[0]} / ${off.integrity[0]} (control)`,
      ok: on.integrity[0] === 'ok' && off.integrity[0] === 'ok',
    },
  ];
  return {
    targets,
    lines: [
      `### (a) The seed's test: ${last.task} tasks, each superseding the last`,
      '',
      'Each task: a message, 20 steps with ~14 KB of tool output each (the seed had ≈85 MiB of steps over ~300 tasks), repeated edits of the same source files (each one ' +
        '`checkpointFile`, before and after), a summary. Automatic cleanup on (a pass 100 ms after a task state change, ' +
        'at most 1 s after the first of a burst); ' +
        `figures taken once it caught up, no pass running (longest wait ${ms(on.maxWaitForAutoMs)}). Most tasks a pass found waiting: ` +
        `${on.mostBehind} (tasks faster than the debounce pile up; the pass gives their pages back). ` +
        'Control: the same run with cleanup off. ' +
        '"Rest (rows kept)" = file − free pages − heavy bytes: schema, task rows, messages, summaries, the cleanup log ' +
        'and the records of removed checkpoint entries (one per task: when and why once, each entry packed to ~25 bytes), ' +
        'all of which cleanup keeps.',
      '',
      table(
        [
          'after task',
          'heavy MiB',
          "current task's own",
          'file MiB',
          'free in file',
          'rest (rows kept)',
          'control: heavy MiB',
          'control: file MiB',
        ],
        rows,
      ),
      '',
      table(
        ['target', 'measured', 'met'],
        targets.map((t) => [t.name, t.show, t.ok ? 'yes' : '**no**']),
      ),
    ],
  };
}

function largeLines(large) {
  const warmMs = large.warm.map((w) => w.ms);
  const warmEngine = large.warm.map((w) => w.engineMs);
  const b = large.before;
  const a = large.after;
  const m = large.afterMaintain;
  const heavy = (x) => x.bytes.steps + x.bytes.checkpointStored;
  const targets = [
    {
      name: 'audit() < 200 ms (cold, first call after opening)',
      show: ms(large.cold.ms),
      ok: large.cold.ms < 200,
    },
    {
      name: 'audit() < 200 ms (warm, worst of runs)',
      show: ms(Math.max(...warmMs)),
      ok: Math.max(...warmMs) < 200,
    },
    {
      name: 'cleanup() failures',
      sound: true,
      show: String(large.cleanup.failed),
      ok: large.cleanup.failed === 0,
    },
    {
      name: 'a call made during cleanup() answers in < 1 s (worst)',
      show:
        large.cleanup.callsDuring.length === 0
          ? 'no call landed during cleanup'
          : `${ms(Math.max(...large.cleanup.callsDuring))} (${large.cleanup.callsDuring.length} calls)`,
      ok: large.cleanup.callsDuring.length > 0 && Math.max(...large.cleanup.callsDuring) < 1000,
    },
    { name: 'integrity_check', sound: true, show: large.integrity[0], ok: large.integrity[0] === 'ok' },
  ];
  return {
    targets,
    lines: [
      `### (b) A generated ${mib(b.fileBytes)} MiB agent.db shaped like the seed's`,
      '',
      `${large.tasks} tasks in sessions (${large.protectedTasks} protected: each session's current task, what it references, ` +
        `some pinned); each task has ${large.entriesPerTask} checkpoint entries (new files; random base64 bodies, so they compress to about 3/4) and ${large.stepsPerTask} steps, sizes varying around the mean. ` +
        `Checkpoint bodies ${pct(b.bytes.checkpointStored / b.fileBytes)} of the file, steps ${pct(b.bytes.steps / b.fileBytes)}. ` +
        `Generated through the engine in ${(large.generateMs / 1000).toFixed(0)} s. Browser quota ${mib(large.quota.quota)} MiB.`,
      '',
      table(
        ['call', 'time (page → worker → page)', 'inside the engine'],
        [
          ['audit(), cold (fresh worker)', ms(large.cold.ms), ms(large.cold.engineMs)],
          [
            `audit(), warm (median / max of ${warmMs.length})`,
            `${ms(median(warmMs))} / ${ms(Math.max(...warmMs))}`,
            `${ms(median(warmEngine))} / ${ms(Math.max(...warmEngine))}`,
          ],
          [
            `planCleanup() (${large.plan.counts.keep} keep, ${large.plan.counts.clean} clean)`,
            ms(large.plan.ms),
            '',
          ],
          [`cleanup() (${large.cleanup.cleaned} tasks, one transaction each)`, ms(large.cleanup.ms), ''],
          [
            `a call made during cleanup() (getTask, median / max of ${large.cleanup.callsDuring.length})`,
            large.cleanup.callsDuring.length === 0
              ? '—'
              : `${ms(median(large.cleanup.callsDuring))} / ${ms(Math.max(...large.cleanup.callsDuring))} ` +
                `(slowest five: ${[...large.cleanup.callsDuring]
                  .sort((x, y) => y - x)
                  .slice(0, 5)
                  .map((x) => x.toFixed(0))
                  .join(', ')} ms)`,
            '',
          ],
          [
            `maintain({ budgetMs: 10000 }) (${large.maintain.pagesFreed} pages${large.maintain.more ? ', more left' : ''})`,
            ms(large.maintain.ms),
            '',
          ],
        ],
      ),
      '',
      table(
        ['', 'before cleanup', 'after cleanup', 'after maintain()'],
        [
          ['file', mib(b.fileBytes), mib(a.fileBytes), mib(m.fileBytes)],
          ['free pages in the file', mib(b.freeBytes), mib(a.freeBytes), mib(m.freeBytes)],
          [
            'checkpoint bodies (stored)',
            mib(b.bytes.checkpointStored),
            mib(a.bytes.checkpointStored),
            mib(m.bytes.checkpointStored),
          ],
          [
            'checkpoint bodies (raw)',
            mib(b.bytes.checkpointRaw),
            mib(a.bytes.checkpointRaw),
            mib(m.bytes.checkpointRaw),
          ],
          ['steps', mib(b.bytes.steps), mib(a.bytes.steps), mib(m.bytes.steps)],
          ['heavy total', mib(heavy(b)), mib(heavy(a)), mib(heavy(m))],
          [
            'reclaimable (audit)',
            mib(b.reclaimable.bytes),
            mib(a.reclaimable.bytes),
            mib(m.reclaimable.bytes),
          ],
        ],
      ),
      '',
      `All sizes in MiB. cleanup() reported ${mib(large.cleanup.bytesFreed)} MiB freed; planCleanup() had predicted ${mib(large.plan.freesBytes)} MiB; ` +
        `it reported progress ${large.cleanup.progressReports} times. Records of removed checkpoint entries after cleanup: ` +
        `${a.light.removedCheckpointEntries.rows} entries in ${(a.light.removedCheckpointEntries.bytes / 1024).toFixed(0)} KiB ` +
        `(${(a.light.removedCheckpointEntries.bytes / Math.max(1, a.light.removedCheckpointEntries.rows)).toFixed(1)} bytes an entry).`,
      '',
      table(
        ['target', 'measured', 'met'],
        targets.map((t) => [t.name, t.show, t.ok ? 'yes' : '**no**']),
      ),
    ],
  };
}

/** The smoke run's sizes (`--smoke`): both parts, a few tasks each. */
const smokeSizes = {
  seed: { tasks: 10, steps: 3, stepOutputBytes: 2_000, files: 2, edits: 2 },
  large: { targetMiB: 2, sessions: 2, tasksPerSession: 4, entriesPerTask: 3, stepsPerTask: 3, audits: 2 },
};

export async function run({ smoke = false } = {}) {
  const targetMiB = smoke ? smokeSizes.large.targetMiB : Number(process.env.BENCH_LIFECYCLE_MIB ?? 255);
  const tasks = smoke ? smokeSizes.seed.tasks : Number(process.env.BENCH_LIFECYCLE_TASKS ?? 100);
  const parts = smoke ? 'ab' : (process.env.BENCH_LIFECYCLE_PARTS ?? 'ab');
  const stamp = Date.now();
  const loadBefore = loadavg()[0];
  const { seed, large } = await withBenchPage(async (page) => {
    // A renderer that dies leaves page.evaluate waiting forever: fail instead.
    const crashed = new Promise((_, reject) =>
      page.on('crash', () => reject(new Error('The bench page crashed.'))),
    );
    page.on('console', (message) => {
      if (message.text().startsWith('[lifecycle]')) console.log(`  ${message.text()}`);
    });
    const evaluate = (fn, options) => Promise.race([page.evaluate(fn, options), crashed]);
    console.log(`  (a) ${tasks} tasks, with automatic cleanup and without…`);
    const seed = !parts.includes('a')
      ? null
      : await evaluate((o) => globalThis.bench.lifecycleSeed(o), {
          dbName: `bench-lifecycle-seed-${stamp}`,
          tasks,
          steps: 20,
          // ~14 KB of output a step, ~280 KB of steps a task: the seed's shape (≈85 MiB of steps over ~300 tasks).
          stepOutputBytes: 14_000,
          files: 4,
          edits: 5,
          seed: 11,
          ...(smoke ? smokeSizes.seed : {}),
        });
    console.log(`  (b) generating a ${targetMiB} MiB database…`);
    const large = !parts.includes('b')
      ? null
      : await evaluate((o) => globalThis.bench.lifecycleLarge(o), {
          dbName: `bench-lifecycle-large-${stamp}.db`,
          targetMiB,
          sessions: 5,
          tasksPerSession: 60,
          entriesPerTask: 40,
          stepsPerTask: 20,
          seed: 13,
          audits: 7,
          ...(smoke ? smokeSizes.large : {}),
        });
    return { seed, large };
  });
  const loadAfter = loadavg()[0];
  const none = { lines: [], targets: [] };
  const a = seed ? seedLines(seed) : none;
  const b = large ? largeLines(large) : none;
  const targets = [...a.targets, ...b.targets];
  return {
    lines: [
      `Load average (1 min, 2 cores): ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after. No native ` +
        'anchor: sizes are exact, times are what a caller waits on this machine.',
      '',
      ...a.lines,
      '',
      ...b.lines,
    ],
    ok: targets.every((t) => t.ok),
    // Correctness, whatever the sizes: entries readable or removed as they should be, no failure, integrity.
    sound: targets.filter((t) => t.sound).every((t) => t.ok),
  };
}
