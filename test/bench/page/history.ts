/**
 * In-page half of the history section: 100 000 events recorded through the real engine (worker, OPFS) in batches,
 * compressed away, then searched: every query's latency is measured as a caller sees it (a Comlink round trip
 * included), after a short warm-up.
 */
import { openBrain } from '../../../src/lib/index';
import { historyQueries, syntheticHistory } from './history-corpus';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export interface HistoryBenchOptions {
  readonly dbName: string;
  readonly records: number;
  readonly queries: number;
  readonly seed: number;
  readonly rounds: number;
}

export async function historyBench(options: HistoryBenchOptions) {
  const brain = await openBrain({ dbName: options.dbName, closeOnPageHide: false });
  try {
    const { id: sessionId } = await brain.startSession({ title: 'history bench' });
    await brain.startTask({ sessionId, title: 'a long task' });
    let started = performance.now();
    for (const batch of syntheticHistory(sessionId, options.records, options.seed))
      await brain.recordEvents(batch);
    const insertSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const compressed = await brain.compressContext(sessionId, { keepTail: 40 });
    const compressSeconds = (performance.now() - started) / 1000;

    const queries = historyQueries(options.queries, options.seed + 1);
    for (const query of historyQueries(30, options.seed + 99)) await brain.searchHistory(query);
    // Rounds over the same queries: this machine is shared, so one noisy round should not decide the figure.
    const rounds: { p50: number; p95: number; p99: number; max: number }[] = [];
    const byShape = new Map<number, number[]>();
    let hits = 0;
    let empty = 0;
    for (let round = 0; round < options.rounds; round++) {
      const times: number[] = [];
      for (let i = 0; i < queries.length; i++) {
        const t = performance.now();
        const result = await brain.searchHistory(queries[i] as string);
        const ms = performance.now() - t;
        times.push(ms);
        byShape.set(i % 7, [...(byShape.get(i % 7) ?? []), ms]);
        if (round === 0) {
          hits += result.hits.length;
          if (result.hits.length === 0) empty++;
        }
      }
      const sorted = [...times].sort((a, b) => a - b);
      rounds.push({
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        max: sorted[sorted.length - 1] ?? NaN,
      });
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
    const shapes = [...byShape.entries()].map(([shape, list]) => {
      const s = [...list].sort((a, b) => a - b);
      return { shape, example: queries[shape] as string, p50: percentile(s, 50), p95: percentile(s, 95) };
    });
    const info = await brain.info();
    return {
      records: options.records,
      insertSeconds,
      compressSeconds,
      moved: compressed.movedToHistory,
      fileBytes: info.fileBytes,
      queries: queries.length,
      rounds,
      meanHits: hits / queries.length,
      empty,
      p50: median(rounds.map((r) => r.p50)),
      p95: median(rounds.map((r) => r.p95)),
      p99: median(rounds.map((r) => r.p99)),
      max: Math.max(...rounds.map((r) => r.max)),
      shapes,
      integrity: await brain.integrityCheck(),
    };
  } finally {
    await brain.close();
  }
}
