/**
 * How the history section times searches, shared by its two halves (the engine in the page, the native anchor in
 * Node) so both run the same queries in the same order, with the same warm-up, rounds and statistics.
 */

/** Query shapes cycle with the query index (see historyQueries in page/history-corpus.ts). */
export const QUERY_SHAPES = 7;

export interface SearchResultLike {
  readonly hits: readonly { readonly source: string; readonly sourceId: number }[];
}

export interface RoundFigures {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

export interface SearchTiming extends RoundFigures {
  /** Each round's figures; the top-level ones are their medians (max: the largest of all rounds). */
  readonly rounds: RoundFigures[];
  readonly shapes: { shape: number; example: string; p50: number; p95: number }[];
  readonly meanHits: number;
  readonly empty: number;
  /** Per query (first round): its hits in rank order as `source:id`, to check both halves found the same. */
  readonly hitKeys: string[];
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function timeSearches(
  search: (query: string) => Promise<SearchResultLike>,
  queries: readonly string[],
  warmup: readonly string[],
  rounds: number,
): Promise<SearchTiming> {
  for (const query of warmup) await search(query);
  // Rounds over the same queries: this machine is shared, so one noisy round should not decide the figure.
  const perRound: RoundFigures[] = [];
  const byShape = new Map<number, number[]>();
  const hitKeys: string[] = [];
  let hits = 0;
  let empty = 0;
  for (let round = 0; round < rounds; round++) {
    const times: number[] = [];
    for (let i = 0; i < queries.length; i++) {
      const t = performance.now();
      const result = await search(queries[i] as string);
      const ms = performance.now() - t;
      times.push(ms);
      byShape.set(i % QUERY_SHAPES, [...(byShape.get(i % QUERY_SHAPES) ?? []), ms]);
      if (round === 0) {
        hits += result.hits.length;
        if (result.hits.length === 0) empty++;
        hitKeys.push(result.hits.map((h) => `${h.source}:${h.sourceId}`).join(','));
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    perRound.push({
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? NaN,
    });
  }
  const shapes = [...byShape.entries()].map(([shape, list]) => {
    const s = [...list].sort((a, b) => a - b);
    return { shape, example: queries[shape] as string, p50: percentile(s, 50), p95: percentile(s, 95) };
  });
  return {
    rounds: perRound,
    p50: median(perRound.map((r) => r.p50)),
    p95: median(perRound.map((r) => r.p95)),
    p99: median(perRound.map((r) => r.p99)),
    max: Math.max(...perRound.map((r) => r.max)),
    shapes,
    meanHits: hits / queries.length,
    empty,
    hitKeys,
  };
}
