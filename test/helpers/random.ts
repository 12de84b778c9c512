/**
 * The one seeded-random helper of the tests and benches: the same seed gives the same numbers on every run and
 * every machine, in Node and in the browser (no `Math.random`, no patched globals). Imported by relative path
 * from test/unit, test/browser (workers too) and test/bench (page and lib), so it stays free of Node and DOM APIs.
 *
 * New code takes the default generator (mulberry32). The other two are the generators earlier tests were written
 * against, kept so that their data — and so their expectations — stay exactly what they were.
 */

/**
 * - `mulberry32`: the default; good statistics for a 32-bit state.
 * - `lcg`: a linear congruential generator (Numerical Recipes constants); the checkpoint tests and bench.
 * - `xorshift32`: Marsaglia's 13/17/5; the write-coalescing tests (the low byte of each output is a data byte).
 */
export type RandomAlgorithm = 'mulberry32' | 'lcg' | 'xorshift32';

export interface Random {
  /** A float in [0, 1): the next 32-bit output divided by 2^32. */
  next(): number;
  /** The next raw 32-bit output, an unsigned integer. */
  uint32(): number;
  /** An integer in [min, max): `min + Math.floor(next() * (max - min))`. */
  int(min: number, max: number): number;
  /** An element chosen uniformly (one `next()`); throws on an empty list. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates from the end, one `next()` per element after the first). */
  shuffled<T>(items: readonly T[]): T[];
  /** `length` bytes, each `int(0, 256)`. */
  bytes(length: number): Uint8Array;
}

function source(seed: number, algorithm: RandomAlgorithm): () => number {
  switch (algorithm) {
    case 'mulberry32': {
      let a = seed >>> 0;
      return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return (t ^ (t >>> 14)) >>> 0;
      };
    }
    case 'lcg': {
      let state = seed >>> 0;
      return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
    }
    case 'xorshift32': {
      // A zero state would stay zero for ever.
      let x = seed | 0 || 1;
      return () => {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        return x >>> 0;
      };
    }
    default: {
      const unknown: never = algorithm;
      throw new Error(`Unknown random algorithm: ${String(unknown)}`);
    }
  }
}

/** A generator seeded with `seed` (an integer; the same seed, the same sequence). */
export function createRandom(seed: number, algorithm: RandomAlgorithm = 'mulberry32'): Random {
  const uint32 = source(seed, algorithm);
  // Plain closures, not methods on `this`: `random.next` can be handed on as a `() => number`.
  const next = () => uint32() / 4294967296;
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min));
  return {
    next,
    uint32,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick() from an empty list');
      return items[int(0, items.length)] as T;
    },
    shuffled<T>(items: readonly T[]): T[] {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i + 1);
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy;
    },
    bytes(length: number): Uint8Array {
      return Uint8Array.from({ length }, () => int(0, 256));
    },
  };
}
