/**
 * Section "tool-calls": a real agent's tool calls recorded through the page (headless Chromium, worker, wa-sqlite
 * on OPFS): `recordToolCalls` throughput (target ≥ 5,000 calls/s) and `recordToolCall` p50/p95, against the same
 * calls made one by one the way an integrator had to before (a step, then an engine call per check, file change
 * and checkpoint), in the same run.
 *
 * BENCH_TOOL_CALLS=<n> (default 5000) calls in the batched session; 300 single calls and 300 anchor calls.
 */
import { loadavg } from 'node:os';
import { withBenchPage } from '../lib/browser.mjs';
import { table } from '../lib/format.mjs';
import { sampleWorkerMemory } from '../lib/worker-memory.mjs';

const ratio = (x) => `${x.toFixed(2)}×`;

export const title = 'Recording tool calls';

const ms = (x) => (Number.isNaN(x) ? '–' : `${x.toFixed(1)} ms`);
const rate = (x) => `${Math.round(x).toLocaleString('en')} calls/s`;

export async function run({ smoke = false } = {}) {
  // Smoke run: two batches of 100 (and a warm-up batch of 100), 25 single and 25 anchor calls.
  const batchCalls = smoke ? 200 : Number(process.env.BENCH_TOOL_CALLS ?? 5000);
  const singleCalls = smoke ? 25 : 300;
  const batchSize = smoke ? 100 : 1000;
  const loadBefore = loadavg()[0];
  const r = await withBenchPage(async (page) => {
    // BENCH_CPU_PROFILE=<prefix>: a CPU profile of the engine's worker over the whole section, started once the
    // brain is open; the page leaves it open until the profile is taken (a closed worker's profile is gone).
    const profile = Boolean(process.env.BENCH_CPU_PROFILE);
    const options = { dbName: `bench-tool-calls-${Date.now()}`, batchCalls, batchSize, singleCalls };
    const sampler = profile ? await sampleWorkerMemory(page) : null;
    if (sampler) {
      await page.evaluate((name) => globalThis.bench.openToolCallsBrain(name), options.dbName);
      sampler.start();
    }
    const result = await page.evaluate((o) => globalThis.bench.toolCalls(o), {
      ...options,
      leaveOpen: profile,
    });
    if (sampler) {
      await sampler.stop();
      await sampler.dispose();
      await page.evaluate(() => globalThis.bench.closeLeftOpen());
    }
    return result;
  });
  const loadAfter = loadavg()[0];
  /** One line of the table: a throughput, with the latencies of one-call-at-a-time figures, against the anchor. */
  const row = (label, perSecond, latency = null) => [
    label,
    rate(perSecond),
    ...(latency ? [ms(latency.p50), ms(latency.p95), ms(latency.max)] : ['–', '–', '–']),
    ratio(perSecond / r.anchor.perSecond),
  ];
  const ok = r.batch.perSecond >= 5000 && r.batch.steps === batchCalls && r.integrity.join() === 'ok';
  const lines = [
    `${batchCalls.toLocaleString('en')} calls of SWE-bench-shaped bash sessions (grep, cat, sed -i, pytest with ` +
      'long outputs, reproduce scripts) with a Claude Code Edit every fifth call (bodies from its result), then ' +
      `${singleCalls} single calls and ${singleCalls} anchor calls alternating in blocks of 25. Each timed from the page ` +
      '(Comlink round trip included). Anchor: the same kind of calls recorded the way an integrator had to before ' +
      '`recordToolCall` — `recordStep`, then `checkpointFile` / `recordFileChange` / `recordValidation` one engine ' +
      `call each, the classifier run in the page. Load average (1 min, 2 cores): ${loadBefore.toFixed(2)} before, ` +
      `${loadAfter.toFixed(2)} after.`,
    '',
    table(
      ['', 'throughput', 'p50 per call', 'p95 per call', 'max', 'vs anchor'],
      [
        row(`**recordToolCalls**, batches of ${r.batch.batchSize}`, r.batch.perSecond),
        row(`… its first batch in a new worker (JavaScript not yet compiled)`, r.batch.cold.perSecond),
        row('… until the search index has caught up (batches + first search)', r.batch.indexedPerSecond),
        row('storage floor: step rows alone', r.rowsFloor.perSecond),
        row('storage floor: step rows and search documents alone', r.floor.perSecond),
        row('**recordToolCall**, one call each', r.single.perSecond, r.single),
        row('anchor: one by one, as before', r.anchor.perSecond, r.anchor),
      ],
    ),
    '',
    `Batched session: ${r.batch.steps.toLocaleString('en')} steps stored, ${r.checks} checks and ${r.files} changed files ` +
      `in its checkpoint; integrity_check: ${r.integrity.join(', ')}. Target ≥ 5,000 calls/s: ${r.batch.perSecond >= 5000 ? 'met' : 'NOT met'}.`,
    '',
    `The steps' search documents are written behind the calls (marked pending in each batch's transaction, indexed ` +
      'when the worker is idle, and before any search). The first line times the recordToolCalls calls alone ' +
      `(${(r.batch.ms / 1000).toFixed(2)} s, ${(r.batch.wallMs / 1000).toFixed(2)} s from the first call to the ` +
      `last answer, indexing between the batches included; each batch: ` +
      `${r.batch.batchMs.map((x) => Math.round(x)).join(', ')} ms); the second runs until a search found the last ` +
      `call's output, every step then indexed (${(r.batch.indexedMs / 1000).toFixed(2)} s).`,
    '',
    `Warm-up: a batch of ${r.batch.cold.calls.toLocaleString('en')} other calls in another task before the clock starts ` +
      `(${Math.round(r.batch.cold.ms)} ms, the second line): a new worker runs its first thousand calls with its ` +
      'JavaScript still being compiled, slower than later; the first line is the warm worker, as in a ' +
      "playground's session.",
    '',
    `Storage floor: the same ${batchCalls.toLocaleString('en')} calls' step rows and search documents (FTS5) alone, ` +
      "written by the engine's repositories in transactions of the same size, in a worker of their own on the same " +
      'SQLite and OPFS — no classification, events, checks, checkpoints or Comlink. recordToolCalls with its indexing runs at ' +
      `${((100 * r.batch.indexedPerSecond) / r.floor.perSecond).toFixed(0)} % of it; no recording that stores and ` +
      `indexes each call can pass ${rate(r.floor.perSecond)} here. The step rows alone (what recording behind the ` +
      `index still writes): ${rate(r.rowsFloor.perSecond)}; recordToolCalls runs at ` +
      `${((100 * r.batch.perSecond) / r.rowsFloor.perSecond).toFixed(0)} % of that.`,
  ];
  // Every call stored, the search found the last one's output (the page throws otherwise), the file sound.
  const sound = r.batch.steps === batchCalls && r.integrity.join() === 'ok';
  return { lines, ok, sound };
}
