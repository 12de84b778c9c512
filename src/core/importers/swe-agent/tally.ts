/**
 * The counters every parse keeps (records, skipped, unknown, malformed, duplicates) and its problems, turned
 * into the plain `TranscriptStats` at the end. Each importer folder keeps its own copy of this small helper.
 */
import type { TranscriptProblem, TranscriptStats } from '../types';

export interface Tally {
  records: number;
  malformed: number;
  duplicates: number;
  tornLastLine: boolean;
  readonly skipped: Record<string, number>;
  readonly unknown: Record<string, number>;
  readonly problems: TranscriptProblem[];
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
    stats: () => ({
      records: tally.records,
      skipped: { ...skipped },
      unknown: { ...unknown },
      malformed: tally.malformed,
      duplicates: tally.duplicates,
      tornLastLine: tally.tornLastLine,
    }),
  };
  return tally;
}

/** Epoch ms of an ISO time (or a number already in ms); null when it is neither. */
export function timeOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
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
