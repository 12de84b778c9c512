/**
 * The counters every parse keeps (records, skipped, unknown, malformed, duplicates) and its problems, turned
 * into the plain `TranscriptStats` at the end — shared by the importers of document and folder formats.
 */
import type { AgentKind, TranscriptItem, TranscriptMeta, TranscriptProblem, TranscriptStats } from './types';

/** What every parse counts, the streaming line parsers' states included. */
export interface ParseCounters {
  records: number;
  malformed: number;
  duplicates: number;
  readonly skipped: Record<string, number>;
  readonly unknown: Record<string, number>;
  readonly problems: TranscriptProblem[];
}

export const newCounters = (): ParseCounters => ({
  records: 0,
  malformed: 0,
  duplicates: 0,
  skipped: {},
  unknown: {},
  problems: [],
});

/** A line that could not be read: counted and named; it yields no item. */
export function malformedLine(c: ParseCounters, line: number, message: string): TranscriptItem[] {
  c.malformed++;
  c.problems.push({ line, message });
  return [];
}

/** Takes back the malformed-line problem of `line` (a torn last line is not malformed); true when there was one. */
export function retractMalformed(c: ParseCounters, line: number): boolean {
  const at = c.problems.findIndex((p) => p.line === line);
  if (at < 0) return false;
  c.problems.splice(at, 1);
  c.malformed--;
  return true;
}

/** The plain stats of what was counted (copies: the parse goes on counting). */
export const countedStats = (c: ParseCounters, tornLastLine: boolean): TranscriptStats => ({
  records: c.records,
  skipped: { ...c.skipped },
  unknown: { ...c.unknown },
  malformed: c.malformed,
  duplicates: c.duplicates,
  tornLastLine,
});

export interface Tally extends ParseCounters {
  tornLastLine: boolean;
  skip(type: string): void;
  unknownType(type: string): void;
  problem(line: number, message: string, file?: string): void;
  stats(): TranscriptStats;
}

export function createTally(): Tally {
  const skipped: Record<string, number> = {};
  const unknown: Record<string, number> = {};
  const problems: TranscriptProblem[] = [];
  const tally: Tally = {
    records: 0,
    malformed: 0,
    duplicates: 0,
    tornLastLine: false,
    skipped,
    unknown,
    problems,
    skip(type) {
      skipped[type] = (skipped[type] ?? 0) + 1;
    },
    unknownType(type) {
      unknown[type] = (unknown[type] ?? 0) + 1;
    },
    problem(line, message, file) {
      problems.push(file === undefined ? { line, message } : { line, message, file });
    },
    stats: () => countedStats(tally, tally.tornLastLine),
  };
  return tally;
}

/**
 * Epoch ms of an ISO time (or a number already in ms); null when it is neither. A time without a zone (the
 * OpenHands SDK writes `datetime.now().isoformat()`) is read as UTC, so a parse does not depend on the machine's.
 */
export function timeOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string' || value === '') return null;
  const naive = /T\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/.test(value);
  const ms = Date.parse(naive ? `${value.replace(/(\.\d{3})\d+$/, '$1')}Z` : value);
  return Number.isNaN(ms) ? null : ms;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function strField(record: Record<string, unknown>, key: string): string | null {
  const value = Object.hasOwn(record, key) ? record[key] : undefined;
  return typeof value === 'string' ? value : null;
}

/** Why `JSON.parse` refused a text, in one short line. */
export function jsonError(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? 'not JSON') : 'not JSON';
}

/**
 * A text parsed as JSON — or, when it is not JSON, `{ ok: false }` with it counted as malformed and the problem
 * (`not valid JSON: …`) said at `line` of `file`.
 */
export function parseJsonCounted(
  text: string,
  tally: Tally,
  line = 1,
  file?: string,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    tally.malformed++;
    tally.problem(line, `not valid JSON: ${jsonError(error)}`, file);
    return { ok: false };
  }
}

/** What a transcript tells of its session before its records are read: its agent, and the id its name gives. */
export function emptyMeta(agent: AgentKind, sessionId: string | null = null): TranscriptMeta {
  return {
    agent,
    sessionId,
    title: null,
    cwd: null,
    startedAt: null,
    model: null,
    version: null,
    parentSessionId: null,
  };
}

/**
 * A record of unknown shape as searchable text: its string leaves as `key: value` lines, depth first, at most
 * `limit` characters and 10,000 values visited (iterative: no recursion limit).
 */
export function leafText(value: unknown, limit = 4000): string {
  const lines: string[] = [];
  let size = 0;
  let visited = 0;
  const stack: [string, unknown][] = [['', value]];
  while (stack.length > 0 && size < limit && visited++ < 10_000) {
    const [key, v] = stack.pop() as [string, unknown];
    if (typeof v === 'string' && v !== '') {
      const line = (key === '' ? v : `${key}: ${v}`).slice(0, limit - size);
      lines.push(line);
      size += line.length + 1;
    } else if (Array.isArray(v)) {
      for (let k = v.length - 1; k >= 0; k--) stack.push([key, v[k]]);
    } else if (isRecord(v)) {
      const entries = Object.entries(v);
      for (let k = entries.length - 1; k >= 0; k--) stack.push(entries[k] as [string, unknown]);
    }
  }
  return lines.join('\n');
}

/**
 * Every item a `sourceId` unique within the file and stable as it grows: the format's own id, else `L<line>`;
 * the k-th repeat of an id gets `#k` (`counts` is the caller's, per line for line formats).
 */
export function withSourceIds(items: TranscriptItem[], counts = new Map<string, number>()): TranscriptItem[] {
  return items.map((item) => {
    const base = item.sourceId ?? `L${item.line}`;
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    const sourceId = n === 0 ? base : `${base}#${n}`;
    return sourceId === item.sourceId ? item : { ...item, sourceId };
  });
}
