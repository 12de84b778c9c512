/**
 * A synthetic, deterministic session history for the recall benchmark: event texts drawn from a Zipf-distributed
 * vocabulary (a few words are in most events, most words are rare — as in real logs), file changes over a few
 * hundred paths, validation runs of a handful of checks. Same seed, same history.
 */
import type { NewEventInput, SessionId } from '../../../src/lib/index';
import { createRandom, type Random } from '../../helpers/random';

const common = (
  'the a to of and in is for that it on with test fix file change add remove update parser function error ' +
  'value return type check build run case data input output line use when not should new old config module'
).split(' ');
const domain = (
  'csv export quote delimiter header row column report button query cache retry timeout token session ' +
  'checkpoint diff merge branch commit schema migration index search rank snippet worker opfs sqlite wasm ' +
  'render layout style theme dialog modal form field validate format parse serialise encode decode stream ' +
  'buffer chunk hash compress inflate deflate zlib delta plan step progress blocker decision instruction'
).split(' ');
const syllables = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tu',
  'sa',
  'vo',
  'qui',
  'zan',
  'pe',
  'dor',
  'fi',
  'gu',
  'hal',
  'jo',
  'nex',
  'wy',
  'xo',
];

function vocabulary(random: Random, size: number): string[] {
  const words = new Set<string>([...common, ...domain]);
  while (words.size < size) {
    const n = random.int(2, 5);
    let w = '';
    for (let i = 0; i < n; i++) w += random.pick(syllables);
    words.add(w);
  }
  return [...words];
}

/** Zipf(s≈1) rank sampling over `n` items by inverting the harmonic CDF. */
function zipf(random: Random, n: number): () => number {
  const cdf: number[] = [];
  let sum = 0;
  for (let k = 1; k <= n; k++) cdf.push((sum += 1 / k));
  return () => {
    const u = random.next() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface HistoryCorpus {
  readonly words: readonly string[];
  readonly paths: readonly string[];
}

export function corpusVocabulary(seed: number): HistoryCorpus {
  const random = createRandom(seed);
  const words = vocabulary(random, 20_000);
  const dirs = ['src', 'src/core', 'src/ui', 'src/worker', 'test/unit', 'test/browser', 'docs'];
  const paths: string[] = [];
  for (let i = 0; i < 400; i++)
    paths.push(`${dirs[i % dirs.length]}/${words[50 + i * 7]}-${words[60 + i * 3]}.ts`);
  return { words, paths };
}

/** `count` events for `sessionId`, in batches of at most 10 000 (what recordEvents takes). */
export function syntheticHistory(sessionId: SessionId, count: number, seed: number): NewEventInput[][] {
  const random = createRandom(seed);
  const { words, paths } = corpusVocabulary(seed);
  const rank = zipf(random, words.length);
  const sentence = (min: number, spread: number) => {
    const n = random.int(min, min + spread);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(words[rank()] as string);
    return out.join(' ');
  };
  const checks = ['npm test', 'typecheck', 'lint', 'e2e', 'build'];
  const batches: NewEventInput[][] = [];
  let batch: NewEventInput[] = [];
  for (let i = 0; i < count; i++) {
    const r = random.next();
    const event: NewEventInput =
      r < 0.3
        ? { sessionId, kind: 'note', text: sentence(8, 30) }
        : r < 0.5
          ? {
              sessionId,
              kind: 'file_change',
              path: random.pick(paths),
              text: sentence(4, 10),
            }
          : r < 0.65
            ? {
                sessionId,
                kind: 'validation',
                name: random.pick(checks),
                result: random.next() < 0.3 ? 'failed' : 'passed',
                text: sentence(3, 12),
              }
            : r < 0.8
              ? { sessionId, kind: 'decision', text: sentence(6, 14), why: sentence(4, 10) }
              : r < 0.9
                ? { sessionId, kind: 'instruction', text: sentence(5, 15) }
                : { sessionId, kind: 'progress', text: sentence(6, 12), next: sentence(3, 6) };
    batch.push(event);
    if (batch.length === 10_000) {
      batches.push(batch);
      batch = [];
    }
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** A mix of what people search for: common and rare words, two or three words, a path, a prefix. */
export function historyQueries(count: number, seed: number): string[] {
  const random = createRandom(seed);
  const { words, paths } = corpusVocabulary(7);
  const pick = (from: number, to: number) => words[random.int(from, to)] as string;
  const shapes = [
    () => pick(0, 40),
    () => pick(40, 400),
    () => pick(400, 20_000),
    () => `${pick(0, 100)} ${pick(40, 2_000)}`,
    () => `${pick(40, 400)} ${pick(40, 400)} ${pick(400, 5_000)}`,
    () => random.pick(paths),
    () => `${pick(40, 200).slice(0, 4)}*`,
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push((shapes[i % shapes.length] as () => string)());
  return out;
}
