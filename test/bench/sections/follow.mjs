/**
 * Section "follow" (issue 30: follow a running agent): a Claude-Code-shaped session (the import bench's generator,
 * test/fixtures/transcripts/claude-code-stream.ts) grows in a followed folder while the brain follows it by itself.
 * A writer worker in the page (test/bench/page/follow-writer.ts) first writes a backlog of BENCH_FOLLOW_MB MiB
 * (default 1024) into a file of an OPFS folder — the folder stands in for a picked `~/.claude/projects/<project>/`,
 * as in the e2e — then the brain follows the folder (`followFolder({ handle })`) and reads the backlog (timed to
 * searchable: the catch-up), then the writer appends at BENCH_FOLLOW_RATE_MB MiB/s (default 1) for
 * BENCH_FOLLOW_SECONDS (default 120), an append every BENCH_FOLLOW_TICK_MS (250), a unique marker in a Bash
 * result's output every BENCH_FOLLOW_MARK_MS (1000).
 * Measured over the append phase: the latency from a marked append's flush to the search that finds its marker
 * (the page searches for pending markers at each `follow` change of the brain, never on a timer), the bytes each
 * look of the brain read (deltas of `listFollowedFolders().bytesRead` between looks), the brain worker's CPU — its
 * thread's CPU time from /proc (test/bench/lib/thread-cpu.mjs; the target's figure), and beside it a CDP CPU profile
 * of the worker (time outside `(idle)`: it also counts time blocked in a synchronous OPFS call) — and its memory peak (as the import
 * bench measures it, test/bench/lib/worker-memory.mjs; the writer worker left out). The catch-up's time and memory.
 * Targets (issue 30): latency p95 < 2 s, worker CPU < 10 % of a core, memory < 256 MiB; bytes read per look
 * O(appended bytes), not O(file) (`sound`: the append phase read about what was appended, every marker found).
 */
import { loadavg } from 'node:os';
import { withBenchPage } from '../lib/browser.mjs';
import { table } from '../lib/format.mjs';
import { newThreads, threadCpuMs, workerThreads } from '../lib/thread-cpu.mjs';
import { mib, sampleWorkerMemory } from '../lib/worker-memory.mjs';

export const title = 'Following a growing session';

const MiB = 1024 * 1024;
const LATENCY_TARGET_MS = 2000;
const CPU_TARGET = 0.1;
const MEMORY_TARGET = 256 * MiB;
/** What a look may read past the appended lines: the slices read ahead (2 × 1 MiB, engine/importers/bytes.ts). */
const READ_AHEAD = 2 * MiB;
const metOr = (ok) => (ok ? 'met' : '**NOT met**');
const load1 = () => loadavg()[0].toFixed(2);

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : '—');
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

export async function run({ smoke = false } = {}) {
  const sizes = smoke
    ? { mb: 3, seconds: 4, rate: 0.5, tickMs: 250, markEveryMs: 500 }
    : {
        mb: Number(process.env.BENCH_FOLLOW_MB ?? 1024),
        seconds: Number(process.env.BENCH_FOLLOW_SECONDS ?? 120),
        rate: Number(process.env.BENCH_FOLLOW_RATE_MB ?? 1),
        tickMs: Number(process.env.BENCH_FOLLOW_TICK_MS ?? 250),
        markEveryMs: Number(process.env.BENCH_FOLLOW_MARK_MS ?? 1000),
      };
  const loads = { start: load1() };
  const r = await withBenchPage(async (page) => {
    // Which phase a page error came in (the run then fails with the page's errors): said once, on stderr.
    const phase = { name: 'prepare', at: Date.now() };
    let told = false;
    page.on('console', (message) => {
      if (message.type() !== 'error' || told) return;
      told = true;
      console.error(
        `  follow: first page error in step ${phase.name}, ${((Date.now() - phase.at) / 1000).toFixed(1)} s into it: ${message.text()}`,
      );
    });
    const call = (step) => {
      phase.name = step.step;
      phase.at = Date.now();
      return page.evaluate((s) => globalThis.bench.follow(s), step);
    };
    // The brain's worker only: the writer is the agent, not the brain.
    const sampler = await sampleWorkerMemory(page, { worker: (url) => !url.includes('follow-writer') });
    try {
      const made = await call({ step: 'prepare', mb: sizes.mb });
      loads.backlogWritten = load1();
      // The brain's worker thread: the one dedicated worker that `open` starts (the writer's runs already).
      const browser = page.context().browser();
      const before = await workerThreads(browser);
      await call({ step: 'open', dbName: `bench-follow-${Date.now()}` });
      const started = newThreads(before, await workerThreads(browser));
      const thread = started.length === 1 ? started[0] : null;
      try {
        sampler.start(100);
        let catchup;
        try {
          catchup = await call({ step: 'catchup' });
        } finally {
          catchup = { ...catchup, memory: await sampler.stop() };
        }
        loads.caughtUp = load1();
        await sampler.startCpu();
        const cpu0 = thread && { ms: threadCpuMs(thread), at: performance.now() };
        sampler.start(250);
        let appended;
        let cpu;
        let memory;
        try {
          appended = await call({ step: 'append', ...sizes, rate: sizes.rate * MiB });
        } finally {
          memory = await sampler.stop();
          cpu = await sampler.stopCpu();
          if (cpu0)
            cpu.thread = {
              ms: threadCpuMs(thread) - cpu0.ms,
              wallMs: performance.now() - cpu0.at,
            };
        }
        loads.appended = load1();
        const drained = await call({ step: 'drain', timeoutMs: 60_000 });
        return { made, catchup, appended, drained, cpu, memory };
      } finally {
        const closed = await call({ step: 'close' });
        if (closed.failed.length > 0)
          console.error(
            `  follow: closing failed (storage ${closed.usage.usageMb} of ${closed.usage.quotaMb} MB): ${closed.failed.join('; ')}`,
          );
      }
    } finally {
      await sampler.dispose();
    }
  });
  return report(r, sizes, loads);
}

function report({ made, catchup, appended, drained, cpu, memory }, sizes, loads) {
  const lat = [...drained.latencies].sort((a, b) => a - b);
  const p50 = quantile(lat, 0.5);
  const p95 = quantile(lat, 0.95);
  const looks = drained.looks.filter((l) => l.bytes > 0);
  const perLook = looks.map((l) => l.bytes).sort((a, b) => a - b);
  const readInAppend = drained.looks.reduce((n, l) => n + l.bytes, 0);
  const gaps = [];
  for (let i = 1; i < drained.looks.length; i++) gaps.push(drained.looks[i].at - drained.looks[i - 1].at);
  gaps.sort((a, b) => a - b);
  const peak = Math.max(catchup.memory.sum, memory.sum);
  const latencyOk = lat.length > 0 && p95 < LATENCY_TARGET_MS;
  // The thread's CPU time where /proc tells it (Linux), else the profile's busy time (an upper bound).
  const cpuShare = cpu.thread ? cpu.thread.ms / cpu.thread.wallMs : cpu.busy;
  const cpuOk = cpuShare < CPU_TARGET;
  const memoryOk = peak < MEMORY_TARGET;
  // O(appended): all of the append phase's looks together read what was appended, plus at most the read-ahead of
  // each look; no look read more than the writer appended in the phase (never the 1 GB file).
  const proportional =
    readInAppend <= appended.bytes + looks.length * READ_AHEAD &&
    Math.max(0, ...perLook) <= appended.bytes + READ_AHEAD;
  const allRead = drained.offset === drained.fileBytes;
  const sound = drained.missing.length === 0 && proportional && allRead && drained.errors.length === 0;
  const ok = latencyOk && cpuOk && memoryOk && sound;
  return {
    ok,
    sound,
    lines: [
      `A Claude-Code-shaped session (the import bench's generator: mostly \`progress\` records, Bash and Edit ` +
        `calls, a ~1 MB result every 100 turns, compactions) written by a writer worker into a file of an OPFS ` +
        `folder (standing in for a picked \`~/.claude/projects/<project>/\`): a backlog of ${mb(made.bytes)} ` +
        `(${made.lines.toLocaleString('en')} lines), then ${sizes.rate} MiB/s for ${sizes.seconds} s, an append ` +
        `(one sync access handle held open: write at the end, flush) every ${sizes.tickMs} ms, a unique marker in a Bash ` +
        `result's output every ${sizes.markEveryMs} ms. The brain follows by itself (pace: \`${drained.pace}\`); the ` +
        `page only listens to its \`follow\` changes and searches for pending markers at each. Load average (1 min, ` +
        `2 cores): ${loads.start} at the start, ${loads.backlogWritten} backlog written, ${loads.caughtUp} caught up, ` +
        `${loads.appended} after the appends. OPFS use: ${made.storage.usageMb} MB of a ${made.storage.quotaMb} MB ` +
        `quota with the backlog written, ${drained.storage.usageMb} MB at the end.`,
      '',
      `**Catch-up** (the first follow reads the backlog in its bounded turns, timed to searchable): ` +
        `${catchup.seconds.toFixed(1)} s for ${mb(made.bytes)} = ${(made.bytes / 1e6 / catchup.seconds).toFixed(1)} ` +
        `MB/s (all lines read at ${catchup.readSeconds.toFixed(1)} s; ${mb(catchup.bytesRead)} read in ` +
        `${catchup.looks} looks seen, the largest ${mb(catchup.maxLookBytes)}); worker peak ` +
        `**${mib(catchup.memory.sum)}** (heap ${mib(catchup.memory.heapUsed)} / ${mib(catchup.memory.heapTotal)}, ` +
        `ArrayBuffers ${mib(catchup.memory.backing)}, wasm ${mib(catchup.memory.wasm)}).`,
      '',
      table(
        ['while appending', 'measured', 'target'],
        [
          [
            'latency, append flushed → its marker found by a search',
            `p50 ${ms(p50)}, **p95 ${ms(p95)}**, max ${ms(lat[lat.length - 1])} (${lat.length} markers` +
              `${drained.missing.length > 0 ? `, **${drained.missing.length} never found**` : ''})`,
            `p95 < ${LATENCY_TARGET_MS} ms: ${metOr(latencyOk)}`,
          ],
          [
            'bytes read per look (looks that read)',
            `${looks.length} looks: p50 ${mb(quantile(perLook, 0.5))}, p95 ${mb(quantile(perLook, 0.95))}, max ` +
              `${mb(Math.max(0, ...perLook))}; all looks ${mb(readInAppend)} for ${mb(appended.bytes)} appended ` +
              `(${(readInAppend / appended.bytes).toFixed(3)}×); the file ${mb(drained.fileBytes)}`,
            `O(appended), not O(file): ${metOr(proportional)}`,
          ],
          [
            'time between looks',
            `p50 ${ms(quantile(gaps, 0.5))}, p95 ${ms(quantile(gaps, 0.95))} (${drained.looks.length} looks seen)`,
            '',
          ],
          [
            'brain worker CPU: its thread (/proc utime + stime); a CDP profile (outside `(idle)`, with blocking I/O)',
            `${cpu.thread ? `**${((cpu.thread.ms / cpu.thread.wallMs) * 100).toFixed(1)} %** of a core (${(cpu.thread.ms / 1000).toFixed(1)} s of ${(cpu.thread.wallMs / 1000).toFixed(1)} s)` : 'thread not found'}; ` +
              `profile ${(cpu.busy * 100).toFixed(1)} % (${(cpu.busyMs / 1000).toFixed(1)} s busy of ` +
              `${(cpu.wallMs / 1000).toFixed(1)} s; GC ${(cpu.gcMs / 1000).toFixed(1)} s); ${drained.searches} marker searches included`,
            `< ${CPU_TARGET * 100} %: ${metOr(cpuOk)}`,
          ],
          [
            'brain worker memory, peak (heap committed + ArrayBuffers + wasm)',
            `**${mib(memory.sum)}** appending (heap ${mib(memory.heapUsed)} / ${mib(memory.heapTotal)}, ` +
              `ArrayBuffers ${mib(memory.backing)}, wasm ${mib(memory.wasm)}, ${memory.samples} samples); ` +
              `${mib(catchup.memory.sum)} catching up`,
            `< ${mib(MEMORY_TARGET)}: ${metOr(memoryOk)}`,
          ],
          [
            'writer',
            `${mb(appended.bytes)} in ${appended.appends} appends (longest gap ${ms(appended.maxGapMs)}), ` +
              `${appended.markers} markers; all read: ${allRead ? 'yes' : `**no** (${drained.offset} of ${drained.fileBytes})`}`,
            '',
          ],
        ],
      ),
      ...(drained.errors.length > 0 ? ['', `Errors while listening: ${drained.errors.join('; ')}`] : []),
      '',
      `All targets: ${ok ? 'met' : '**NOT met**'}.`,
    ],
  };
}
