/**
 * Section "history": searchHistory on 100 000 compressed-away events, in the real engine (headless Chromium,
 * worker, OPFS), against a native anchor measured in the same run: the same queries (same list, order, limit,
 * warm-up and rounds) through the same search code (the history feature over src/storage/sqlite/repos/history-repo.ts)
 * on the engine's exported database opened with better-sqlite3 in Node. Target: p95 < 50 ms per query, measured
 * as a caller sees it.
 *
 * BENCH_HISTORY_RECORDS=<n> (default 100000) records fewer events for a quick run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runnerImport } from 'vite';
import { withBenchPage } from '../lib/browser.mjs';
import { ratio, table } from '../lib/format.mjs';

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

function recordsFromEnv() {
  const value = process.env.BENCH_HISTORY_RECORDS;
  if (value === undefined || value === '') return 100_000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 100)
    throw new Error(
      `BENCH_HISTORY_RECORDS must be an integer of at least 100; got ${JSON.stringify(value)}.`,
    );
  return n;
}

/** The native anchor on the engine's database file (written to a temporary directory, opened read-only). */
async function nativeAnchor(bytes, engine) {
  const { module } = await runnerImport(new URL('../lib/history-native.ts', import.meta.url).pathname);
  const dir = mkdtempSync(join(tmpdir(), 'agent-brain-bench-history-'));
  try {
    const file = join(dir, 'agent.db');
    writeFileSync(file, bytes);
    return await module.nativeHistoryBench(new Database(file, { readonly: true }), {
      queries: engine.queries,
      warmup: engine.warmup,
      rounds: engine.rounds.length,
      limit: engine.limit,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (x) => `${x.toFixed(1)} ms`;
const msFine = (x) => `${x.toFixed(2)} ms`;

export async function run({ smoke = false } = {}) {
  // Smoke run: a few hundred events, a few queries of every shape, one round.
  const records = smoke ? 300 : recordsFromEnv();
  const queries = smoke ? 21 : 300;
  const rounds = smoke ? 1 : 3;
  const seed = 7;
  const limit = 20;
  const loadBefore = loadavg()[0];
  const engine = await withBenchPage((page) =>
    page.evaluate((options) => globalThis.bench.history(options), {
      dbName: `bench-history-${Date.now()}.db`,
      records,
      queries,
      rounds,
      seed,
      limit,
    }),
  );
  const loadBetween = loadavg()[0];
  const native = await nativeAnchor(Buffer.from(engine.databaseBase64, 'base64'), engine);
  const loadAfter = loadavg()[0];
  const sameHits = engine.hitKeys.filter((keys, i) => keys === native.hitKeys[i]).length;
  console.log(
    `  ${engine.records} events recorded in ${engine.insertSeconds.toFixed(1)} s (batches of 10 000), ` +
      `all but the last 40 compressed away as they came (automatic compression; a final compressContext took ${engine.compressSeconds.toFixed(1)} s); ` +
      `agent.db ${(engine.fileBytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  const ok = engine.p95 < 50 && engine.integrity[0] === 'ok' && sameHits === engine.queries.length;
  const lines = [
    `${engine.records.toLocaleString('en')} events (Zipf-distributed vocabulary of 20 000 words, 400 paths, 5 checks), compressed away; ` +
      `${engine.queries.length} queries of 7 shapes (limit ${engine.limit}), ${engine.meanHits.toFixed(1)} hits per query on average (${engine.empty} with none), ` +
      `run ${engine.rounds.length} times after a ${engine.warmup.length}-query warm-up; figures are the median of the rounds (each round's p95: ` +
      `engine ${engine.rounds.map((r) => r.p95.toFixed(1)).join(', ')} ms; native ${native.rounds.map((r) => r.p95.toFixed(2)).join(', ')} ms).`,
    '',
    'Engine: latency per `searchHistory` call from the page (Comlink round trip to the worker, wa-sqlite FTS5 match on OPFS, ' +
      'bm25 ranking, snippets). Native anchor, same run: the same queries in the same order through the same code ' +
      "(the history feature over `history-repo.ts`, via a better-sqlite3 driver adapter) on the engine's exported " +
      `database, in Node (SQLite ${native.sqliteVersion}, same cache_size and temp_store), after the engine's run. ` +
      `Same hits, in the same order, for ${sameHits} of ${engine.queries.length} queries. ` +
      `Load average (1 min, 2 cores): ${loadBefore.toFixed(2)} before, ${loadBetween.toFixed(2)} between the halves, ${loadAfter.toFixed(2)} after.`,
    '',
    table(
      ['target', 'measured', 'met'],
      [
        ['p95 < 50 ms', ms(engine.p95), engine.p95 < 50 ? 'yes' : 'NO'],
        ['p50', ms(engine.p50), ''],
        ['p99', ms(engine.p99), ''],
        ['max (all rounds)', ms(engine.max), ''],
        ['integrity_check', engine.integrity[0], engine.integrity[0] === 'ok' ? 'yes' : 'NO'],
        [
          'same hits as native',
          `${sameHits}/${engine.queries.length}`,
          sameHits === engine.queries.length ? 'yes' : 'NO',
        ],
      ],
    ),
    '',
    table(
      ['query shape', 'example', 'engine p50', 'native p50', 'ratio', 'engine p95', 'native p95', 'ratio'],
      [
        ...engine.shapes.map((s, i) => {
          const n = native.shapes[i];
          return [
            shapeNames[s.shape] ?? s.shape,
            `\`${s.example}\``,
            ms(s.p50),
            msFine(n.p50),
            ratio(s.p50 / n.p50),
            ms(s.p95),
            msFine(n.p95),
            ratio(s.p95 / n.p95),
          ];
        }),
        [
          '**all**',
          '',
          ms(engine.p50),
          msFine(native.p50),
          ratio(engine.p50 / native.p50),
          ms(engine.p95),
          msFine(native.p95),
          ratio(engine.p95 / native.p95),
        ],
      ],
    ),
    '',
    'ratio = engine / native (1.00 = as fast as native SQLite in Node on the same file; higher = slower). ' +
      'Per-shape figures pool all rounds (about 43 queries per shape per round); the all row is the median of the rounds.',
  ];
  // The engine and the native anchor must agree on every query's hits; the file must be sound.
  const sound = engine.integrity[0] === 'ok' && sameHits === engine.queries.length;
  return { lines, ok, sound };
}
