/**
 * What a search over recorded tool steps must find (test/unit/history-steps.test.ts, history-backfill.test.ts):
 * the distinctive terms of each step's output — words of one step only, noted when they begin a line or lie in
 * the last lines of a long output — and every path in it, its last two segments and its bare file name.
 */
import type { BrainApi, StepId } from '../../src/core/api';
import type { BashStep } from '../fixtures/bash-session';

export type Kind = 'word' | 'line-initial' | 'tail' | 'path' | 'path tail' | 'file name';

export interface Recorded {
  readonly id: StepId;
  readonly step: BashStep;
}

export interface Expected {
  readonly steps: Set<StepId>;
  readonly kinds: Set<Kind>;
}

/** A long output keeps (at least) this much of its start and of its end in the index. */
const KEPT_HEAD = 30_000;
const KEPT_TAIL = 15_000;
export const LONG = 48 * 1024;

/** The part of an output a search must find, cut at line ends so no word is half in it. */
function searchable(output: string): string[] {
  if (output.length <= LONG) return [output];
  return [
    output.slice(0, output.lastIndexOf('\n', KEPT_HEAD)),
    output.slice(output.indexOf('\n', output.length - KEPT_TAIL) + 1),
  ];
}

export const words = (text: string) => text.match(/[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*/g) ?? [];
const paths = (text: string) =>
  (text.match(/[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+/g) ?? []).map((p) => p.replace(/\.+$/, ''));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Whether `text` holds `query` as FTS5 tokens would see it: not inside a longer run of letters and digits. */
const holds = (text: string, query: string) =>
  new RegExp(`(?<![A-Za-z0-9])${escape(query)}(?![A-Za-z0-9])`).test(text);

/** What a search must find, by query: the steps it must return and why the query was asked. */
export function expectations(recorded: readonly Recorded[]): Map<string, Expected> {
  const stepsByWord = new Map<string, Set<StepId>>();
  const kindsByWord = new Map<string, Set<Kind>>();
  const note = (word: string, kind: Kind) => {
    const kinds = kindsByWord.get(word) ?? new Set<Kind>();
    kinds.add(kind);
    kindsByWord.set(word, kinds);
  };
  for (const { id, step } of recorded) {
    for (const part of searchable(step.output)) {
      for (const word of words(part)) {
        if (word.length < 4) continue;
        const steps = stepsByWord.get(word) ?? new Set<StepId>();
        steps.add(id);
        stepsByWord.set(word, steps);
        note(word, 'word');
      }
      // Every line but the first followed a "\n": in JSON text its first word was glued to that "n".
      for (const line of part.split('\n').slice(1)) {
        const first = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*/.exec(line)?.[0];
        if (first !== undefined) note(first, 'line-initial');
      }
    }
    if (step.output.length > 16 * 1024)
      for (const word of words(step.output.slice(-2_000))) note(word, 'tail');
  }
  const expected = new Map<string, Expected>();
  for (const [word, steps] of stepsByWord) {
    // Distinctive: a word of one step only.
    if (steps.size === 1) expected.set(word, { steps, kinds: kindsByWord.get(word) ?? new Set() });
  }
  const pathQueries = new Map<string, Kind>();
  for (const { step } of recorded)
    for (const part of searchable(step.output))
      for (const path of paths(part)) {
        const segments = path.split('/');
        pathQueries.set(path, 'path');
        pathQueries.set(segments.slice(-2).join('/'), 'path tail');
        const file = segments.at(-1) as string;
        if (file.includes('.')) pathQueries.set(file, 'file name');
      }
  for (const [query, kind] of pathQueries) {
    const steps = new Set(
      recorded.filter(({ step }) => searchable(step.output).some((p) => holds(p, query))).map((r) => r.id),
    );
    expected.set(query, { steps, kinds: new Set([kind]) });
  }
  return expected;
}

/** The queries whose hits lack a step they must return. */
export async function misses(api: Pick<BrainApi, 'searchHistory'>, expected: Map<string, Expected>) {
  const missed: { query: string; kinds: Kind[]; missing: StepId[] }[] = [];
  for (const [query, { steps, kinds }] of expected) {
    const { hits } = await api.searchHistory(query, { limit: 200, kinds: ['step'] });
    const found = new Set(hits.map((h) => h.stepId));
    const missing = [...steps].filter((id) => !found.has(id));
    if (missing.length > 0) missed.push({ query, kinds: [...kinds], missing });
  }
  return missed;
}

export const ofKind = (expected: Map<string, Expected>, kind: Kind) =>
  [...expected].filter(([, e]) => e.kinds.has(kind)).map(([query]) => query);
