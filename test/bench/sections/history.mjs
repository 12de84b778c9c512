/**
 * Section "history": searchHistory on 100 000 compressed-away events, in the real engine (headless Chromium,
 * worker, OPFS). Target: p95 < 50 ms per query, measured as a caller sees it.
 */
import { withBenchPage } from '../lib/browser.mjs';
import { table } from '../lib/format.mjs';

export const title = 'History search (recall)';

const shapeNames = [
  'common word',
  'frequent word',
  'rare word',
  'two words',
  'three words',
  'file path',
  'prefix*',
];

export async function run({ records = 100_000, queries = 300, rounds = 3, seed = 7 } = {}) {
  const result = await withBenchPage((page) =>
    page.evaluate((options) => globalThis.bench.history(options), {
      dbName: `bench-history-${Date.now()}.db`,
      records,
      queries,
      rounds,
      seed,
    }),
  );
  console.log(
    `  ${result.records} events recorded in ${result.insertSeconds.toFixed(1)} s (batches of 10 000), ` +
      `all but the last 40 compressed away as they came (automatic compression; a final compressContext took ${result.compressSeconds.toFixed(1)} s); ` +
      `agent.db ${(result.fileBytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  const ok = result.p95 < 50 && result.integrity[0] === 'ok';
  const lines = [
    `${result.records.toLocaleString('en')} events (Zipf-distributed vocabulary of 20 000 words, 400 paths, 5 checks), compressed away; ` +
      `${result.queries} queries of 7 shapes, ${result.meanHits.toFixed(1)} hits per query on average (${result.empty} with none), ` +
      `run ${result.rounds.length} times after a 30-query warm-up; figures are the median of the rounds (each round's p95: ` +
      `${result.rounds.map((r) => r.p95.toFixed(1)).join(', ')} ms). ` +
      'Latency per `searchHistory` call from the page: worker round trip, FTS5 match, bm25 ranking, snippets.',
    '',
    table(
      ['target', 'measured', 'met'],
      [
        ['p95 < 50 ms', `${result.p95.toFixed(1)} ms`, result.p95 < 50 ? 'yes' : 'NO'],
        ['p50', `${result.p50.toFixed(1)} ms`, ''],
        ['p99', `${result.p99.toFixed(1)} ms`, ''],
        ['max (all rounds)', `${result.max.toFixed(1)} ms`, ''],
        ['integrity_check', result.integrity[0], result.integrity[0] === 'ok' ? 'yes' : 'NO'],
      ],
    ),
    '',
    table(
      ['query shape', 'example', 'p50', 'p95'],
      result.shapes.map((s) => [
        shapeNames[s.shape] ?? s.shape,
        `\`${s.example}\``,
        `${s.p50.toFixed(1)} ms`,
        `${s.p95.toFixed(1)} ms`,
      ]),
    ),
  ];
  return { lines, ok };
}
