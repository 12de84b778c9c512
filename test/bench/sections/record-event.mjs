/**
 * Section "record-event": the cost of recording one event (an automatic compression included when the active
 * context passes its bound) in a 1,000,000-event session against the same in a 1,000-event session, in the same
 * run, through the real engine (headless Chromium, worker, wa-sqlite on OPFS). Targets: the long session's p95 <
 * 50 ms and ≤ 2× the short one's.
 *
 * BENCH_EVENTS=<n> (default 1000000) seeds a smaller long session for a quick run; BENCH_ROUNDS (3) rounds of
 * 200 timed events per session, in blocks of 50 that alternate between the two sessions.
 */
import { loadavg } from 'node:os';
import { withBenchPage } from '../lib/browser.mjs';
import { mib, ratio, table } from '../lib/format.mjs';

export const title = 'Recording one event in a long session';

function intFromEnv(name, fallback, min) {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be an integer of at least ${min}; got ${JSON.stringify(value)}.`);
  return n;
}

const ms = (x) => (Number.isNaN(x) ? '–' : `${x.toFixed(1)} ms`);

export async function run({ smoke = false } = {}) {
  // Smoke run: a 2,000-event "long" session against 200 events, one round of a few calls.
  const long = smoke ? 2_000 : intFromEnv('BENCH_EVENTS', 1_000_000, 2_000);
  const short = smoke ? 200 : 1_000;
  const rounds = smoke ? 1 : intFromEnv('BENCH_ROUNDS', 3, 1);
  const perBlock = smoke ? 5 : 50;
  const seed = 11;
  const loadBefore = loadavg()[0];
  const [small, large] = await withBenchPage((page) =>
    page.evaluate((options) => globalThis.bench.recordEvent(options), {
      dbName: `bench-record-${Date.now()}`,
      sizes: [short, long],
      perBlock,
      blocks: rounds * 4,
      seed,
    }),
  );
  const loadAfter = loadavg()[0];
  const p95Ratio = large.p95 / small.p95;
  const p50Ratio = large.p50 / small.p50;
  const counted = [small, large].every((r) => r.eventCount === r.expectedEvents);
  const ok = large.p95 < 50 && p95Ratio <= 2 && counted;
  const row = (r) => [
    `${r.size.toLocaleString('en')} events`,
    ms(r.p50),
    ms(r.p95),
    ms(r.p99),
    ms(r.max),
    `${r.compressions}: ${ms(r.compressionP50)} / ${ms(r.compressionMax)}`,
    `${mib(r.fileBytes)} MiB`,
    `${r.seedSeconds.toFixed(0)} s`,
    `${ms(r.readP50)} / ${ms(r.readP95)}`,
  ];
  const lines = [
    `Two sessions seeded through the public API — \`recordEvents\` in batches of 10 000 (one transaction and one ` +
      `automatic compression each), mixed kinds with supersede/resolve/answer links — then ${rounds * 4 * perBlock} ` +
      `single \`recordEvent\` calls per session in blocks of ${perBlock} alternating between the two, after 20 ` +
      'warm-up events each; each call timed ' +
      'from the page (Comlink round trip, the insert with its search document, the SESSION.jsonl step, the automatic ' +
      'compression check and, every ~160 events, the compression itself). No project folder open. Control: after ' +
      'each block, as many `recordMessage` calls on the same brain (the smallest write: one row, the same round ' +
      "trip and commit on OPFS, no search document, no compression): what the machine's load and the syncs cost alone. " +
      `Load average (1 min, 2 cores): ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after.`,
    '',
    table(
      [
        'session',
        'p50',
        'p95',
        'p99',
        'max',
        'compressing calls: n, p50 / max',
        'agent.db',
        'seeded in',
        'control: recordMessage p50 / p95',
      ],
      [row(small), row(large)],
    ),
    '',
    table(
      ['target', 'measured', 'met'],
      [
        [
          `p95 at ${large.size.toLocaleString('en')} events < 50 ms`,
          ms(large.p95),
          large.p95 < 50 ? 'yes' : 'NO',
        ],
        [
          'p95 ratio long / short ≤ 2×',
          `${ratio(p95Ratio)}× (p50 ${ratio(p50Ratio)}×)`,
          p95Ratio <= 2 ? 'yes' : 'NO',
        ],
        [
          'checkpoint counts every event',
          `${large.eventCount.toLocaleString('en')} / ${large.expectedEvents.toLocaleString('en')}`,
          counted ? 'yes' : 'NO',
        ],
      ],
    ),
  ];
  return { lines, ok, sound: counted };
}
