/**
 * In-page half of the history section: 100 000 events recorded through the real engine (worker, OPFS) in batches,
 * compressed away, then searched: every query's latency is measured as a caller sees it (a Comlink round trip
 * included), after a short warm-up. Returns the queries and the database file too, for the native anchor that
 * Node runs on the same data (test/bench/lib/history-native.ts).
 */
import { openBrain } from '../../../src/lib/index';
import { timeSearches } from '../lib/history-timing';
import { historyQueries, syntheticHistory } from './history-corpus';
import { progress } from './progress';

export interface HistoryBenchOptions {
  readonly dbName: string;
  readonly records: number;
  readonly queries: number;
  readonly seed: number;
  readonly rounds: number;
  readonly limit: number;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export async function historyBench(options: HistoryBenchOptions) {
  const brain = await openBrain({ dbName: options.dbName, closeOnPageHide: false });
  try {
    const { id: sessionId } = await brain.startSession({ title: 'history bench' });
    await brain.startTask({ sessionId, title: 'a long task' });
    let started = performance.now();
    let recorded = 0;
    for (const batch of syntheticHistory(sessionId, options.records, options.seed)) {
      await brain.recordEvents(batch);
      recorded += batch.length;
      progress('recording events', recorded, options.records);
    }
    const insertSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const compressed = await brain.compressContext(sessionId, { keepTail: 40 });
    const compressSeconds = (performance.now() - started) / 1000;

    const queries = historyQueries(options.queries, options.seed + 1);
    const warmup = historyQueries(30, options.seed + 99);
    const timing = await timeSearches(
      (query) => brain.searchHistory(query, { limit: options.limit }),
      queries,
      warmup,
      options.rounds,
    );
    const info = await brain.info();
    const integrity = await brain.integrityCheck();
    const exported = await brain.exportDatabase();
    return {
      ...timing,
      records: options.records,
      insertSeconds,
      compressSeconds,
      moved: compressed.movedToHistory,
      fileBytes: info.fileBytes,
      queries,
      warmup,
      limit: options.limit,
      integrity,
      databaseBase64: toBase64(exported),
    };
  } finally {
    await brain.close();
  }
}
