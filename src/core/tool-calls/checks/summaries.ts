/**
 * Summary-line parsers: a runner's output lines → its readings (status, counts, the summary line, the failing
 * tests named before it), in output order. Every pattern is anchored and free of nested quantifiers, and lines
 * are already cut to `maxLineChars`, so a parser costs linear time in the output.
 */
import { maxFailures, type CheckCounts, type CheckKind } from '../types';
import type { SummaryFamily } from './runners';
import {
  cargoSummaries,
  genericSummaries,
  goSummaries,
  gradleSummaries,
  mavenSummaries,
} from './summaries-native';
import {
  bunSummaries,
  eslintSummaries,
  jestSummaries,
  mochaSummaries,
  nodeTestSummaries,
  prettierSummaries,
  tscSummaries,
  vitestSummaries,
} from './summaries-js';
import {
  mypySummaries,
  pyrightSummaries,
  pytestSummaries,
  ruffSummaries,
  toxSummaries,
  unittestSummaries,
} from './summaries-python';

export interface Reading {
  readonly status: 'passed' | 'failed' | 'error';
  readonly counts: CheckCounts | null;
  /** The summary line as printed; null when the reading is built from diagnostics alone (tsc without --pretty). */
  readonly line: string | null;
  /** Index of the line it was read at. */
  readonly at: number;
  /** Failing tests or error diagnostics named since the previous reading, at most `maxFailures`. */
  readonly failures: readonly string[];
}

export type Parser = (lines: readonly string[]) => Reading[];

type Concrete = Exclude<SummaryFamily, 'any' | 'none'>;

const parsers: Record<Concrete, Parser> = {
  pytest: pytestSummaries,
  unittest: unittestSummaries,
  jest: jestSummaries,
  vitest: vitestSummaries,
  mocha: mochaSummaries,
  'node-test': nodeTestSummaries,
  bun: bunSummaries,
  go: goSummaries,
  cargo: cargoSummaries,
  tsc: tscSummaries,
  eslint: eslintSummaries,
  prettier: prettierSummaries,
  ruff: ruffSummaries,
  mypy: mypySummaries,
  pyright: pyrightSummaries,
  gradle: gradleSummaries,
  maven: mavenSummaries,
  tox: toxSummaries,
};

/** For a wrapper (`npm test`, `make lint`, `tox`): the parsers to try, in order, by the kind of check. */
const byKind: Record<CheckKind, readonly Concrete[]> = {
  test: [
    'pytest',
    'unittest',
    'vitest',
    'jest',
    'mocha',
    'node-test',
    'bun',
    'go',
    'cargo',
    'gradle',
    'maven',
  ],
  typecheck: ['tsc', 'mypy', 'pyright'],
  lint: ['eslint', 'ruff', 'mypy', 'pyright', 'tsc'],
  format: ['prettier', 'ruff'],
  build: ['tsc', 'cargo', 'gradle', 'maven'],
  check: ['tsc', 'eslint', 'pytest', 'vitest', 'jest', 'mypy', 'ruff', 'prettier', 'go', 'cargo'],
  script: ['pytest', 'unittest'],
};

export interface FamilyReadings {
  /** Which parser the readings came from (for grouping several checks of one call). */
  readonly parser: string;
  readonly readings: readonly Reading[];
}

/**
 * The readings for a check of `family` and `kind`: its own parser's; for `any`, the first parser (in the kind's
 * order) that finds a summary, else the generic closing lines (`N passed, N failed`, rspec, ctest, dotnet,
 * npm/make failure lines); tox adds its environments' verdict after the inner runner's counts.
 */
export function readSummaries(
  family: SummaryFamily,
  kind: CheckKind,
  lines: readonly string[],
  cache: Map<string, Reading[]>,
): FamilyReadings {
  const run = (name: Concrete | 'generic'): Reading[] => {
    const cached = cache.get(name);
    if (cached) return cached;
    const readings = name === 'generic' ? genericSummaries(lines) : parsers[name](lines);
    cache.set(name, readings);
    return readings;
  };
  if (family === 'none') return { parser: 'none', readings: [] };
  if (family === 'tox') {
    const inner = byKind[kind].map((name) => run(name)).find((r) => r.length > 0) ?? [];
    return { parser: 'tox', readings: mergeVerdict(run('tox'), inner) };
  }
  if (family !== 'any') return { parser: family, readings: run(family) };
  for (const name of byKind[kind]) {
    const readings = run(name);
    if (readings.length > 0) return { parser: name, readings };
  }
  return { parser: 'generic', readings: run('generic') };
}

/** tox's verdicts, each with the counts and failures of the inner runner's reading just before it. */
function mergeVerdict(verdicts: readonly Reading[], inner: readonly Reading[]): Reading[] {
  if (verdicts.length === 0) return [...inner];
  return verdicts.map((verdict) => {
    const before = inner.filter((r) => r.at <= verdict.at);
    const last = before[before.length - 1];
    if (!last) return verdict;
    return {
      ...verdict,
      counts: last.counts,
      failures: before.flatMap((r) => r.failures).slice(0, maxFailures),
    };
  });
}

/** Collects failure names between readings: `add` while scanning, `take` when a reading is made. */
export function createFailureList() {
  let names: string[] = [];
  const seen = new Set<string>();
  return {
    add(name: string) {
      const trimmed = name.trim().slice(0, 300);
      if (trimmed === '' || seen.has(trimmed) || names.length >= maxFailures) return;
      seen.add(trimmed);
      names.push(trimmed);
    },
    take(): string[] {
      const taken = names;
      names = [];
      seen.clear();
      return taken;
    },
    get size() {
      return names.length;
    },
  };
}

/** `2 failed, 40 passed` / `1 failed | 3 passed` → word → number. Parts that are not `N word` are ignored. */
export function countWords(text: string, separator: string | RegExp): Map<string, number> {
  const counts = new Map<string, number>();
  for (const part of text.split(separator)) {
    const m = /^\s*(\d{1,9}) ([a-zA-Z]+)/.exec(part);
    if (m) counts.set((m[2] as string).toLowerCase(), Number(m[1]));
  }
  return counts;
}

/** A linter's closing line of errors and warnings (mypy, eslint): failed when it counts an error. */
export function errorsAndWarnings(
  errors: number,
  warnings: number,
  line: string,
  at: number,
  failures: ReturnType<typeof createFailureList>,
): Reading {
  return {
    status: errors > 0 ? 'failed' : 'passed',
    counts: counts({ errors, warnings }),
    line: line.trim(),
    at,
    failures: failures.take(),
  };
}

/** A CheckCounts with only the fields that were given. */
export function counts(fields: Partial<Record<keyof CheckCounts, number | undefined>>): CheckCounts {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined && Number.isFinite(value)) out[key] = value;
  return out as CheckCounts;
}
