/**
 * A check's result from the call's exit code (when it is the check's own, see exit-status.ts) and its runner's
 * summary line (counts, failing tests). Several checks of one call that read with the same parser take that
 * parser's readings in order, aligned from the end of the output (a `| tail` cuts the beginning, not the end).
 */
import type { ShellLine, ShellUnit } from '../shell/units';
import { maxFailures, type CheckCertainty, type CheckKind, type CheckResult, type CheckRun } from '../types';
import { errorExit, ownExit, type OwnExit } from './exit-status';
import type { SummaryFamily } from './runners';
import { createFailureList, readSummaries, type Reading } from './summaries';

export interface PendingCheck {
  readonly unit: ShellUnit;
  readonly id: string;
  readonly kind: CheckKind;
  readonly runner: string;
  readonly targets: readonly string[];
  readonly certainty: CheckCertainty;
  readonly family: SummaryFamily;
  /** Run while the agent's changes were set aside (`git stash` … `git stash pop`). */
  readonly baseline?: boolean;
}

export interface CallOutcome {
  readonly exitCode: number | null;
  /** The output lines (outputLines), read once for every check of the call. */
  readonly lines: readonly string[];
  /** The tool's own error text, when it reported one and no exit code. */
  readonly error: string | null;
}

export function checkResults(
  line: ShellLine,
  pending: readonly PendingCheck[],
  outcome: CallOutcome,
): CheckRun[] {
  const cache = new Map<string, Reading[]>();
  const found = pending.map((p) => {
    const fr = readSummaries(p.family, p.kind, outcome.lines, cache);
    const readings =
      fr.readings.length === 0 && p.kind === 'script' ? crashReadings(outcome.lines) : fr.readings;
    return { parser: fr.readings.length === 0 && p.kind === 'script' ? 'crash' : fr.parser, readings };
  });
  const readingOf = alignReadings(found);
  const units = pending.map((p) => p.unit);
  const exits = pending.map((p) => ownExit(line, p.unit, units, outcome.exitCode));
  const results = pending.map((p, k) => resultOf(p, exits[k] as OwnExit, readingOf[k] ?? null, outcome));
  resolveShared(results, exits, outcome.exitCode);
  return pending.map((p, k) => ({
    id: p.id,
    kind: p.kind,
    runner: p.runner,
    targets: p.targets,
    command: p.unit.text,
    scope: p.unit.scope,
    certainty: p.certainty,
    result: results[k] as CheckResult,
    ...(p.baseline ? { baseline: true } : {}),
  }));
}

/** The k-th check of a parser group takes the reading at the same distance from the end. */
function alignReadings(
  found: readonly { parser: string; readings: readonly Reading[] }[],
): (Reading | null)[] {
  const groups = new Map<string, number[]>();
  found.forEach((f, k) => groups.set(f.parser, [...(groups.get(f.parser) ?? []), k]));
  const out: (Reading | null)[] = found.map(() => null);
  for (const members of groups.values()) {
    const readings = found[members[0] as number]?.readings ?? [];
    const offset = readings.length - members.length;
    members.forEach((k, j) => {
      out[k] = readings[j + offset] ?? null;
    });
  }
  return out;
}

function resultOf(p: PendingCheck, own: OwnExit, reading: Reading | null, outcome: CallOutcome): CheckResult {
  const base = {
    counts: reading?.counts ?? null,
    failures: reading?.failures.slice(0, maxFailures) ?? [],
    summary: reading?.line ?? null,
  };
  if (own.code !== null) {
    const error = own.code === 0 ? null : errorExit(p.family, own.code, p.unit.timeout);
    const status = own.code === 0 ? 'passed' : error ? 'error' : 'failed';
    return { ...base, status, resultFrom: 'exit-code', exitCode: own.code, note: error };
  }
  if (reading) {
    const source = reading.line === null ? 'the output' : 'the summary line';
    const note = own.note ?? (outcome.exitCode === null ? `no exit code: read from ${source}` : null);
    return { ...base, status: reading.status, resultFrom: 'summary', exitCode: null, note };
  }
  if (outcome.error !== null && outcome.exitCode === null) {
    const note = `the tool reported an error: ${outcome.error.slice(0, 200)}`;
    return { ...base, status: 'error', resultFrom: 'none', exitCode: null, note };
  }
  return { ...base, status: 'unknown', resultFrom: 'none', exitCode: null, note: own.note };
}

/**
 * Checks that share a non-zero exit code (`a && b`, exit 1): when all but one are shown to have passed, the
 * remaining one failed; a check after one that failed did not run.
 */
function resolveShared(results: CheckResult[], exits: readonly OwnExit[], exitCode: number | null) {
  const shared = results.map((_, k) => k).filter((k) => exits[k]?.shared);
  if (shared.length === 0 || exitCode === null) return;
  const open = shared.filter((k) => results[k]?.status === 'unknown');
  if (open.length === 1 && shared.every((k) => k === open[0] || results[k]?.status === 'passed')) {
    const k = open[0] as number;
    const note = `the only one of ${shared.length} checks joined by && not shown to pass`;
    results[k] = {
      ...(results[k] as CheckResult),
      status: 'failed',
      resultFrom: 'exit-code',
      exitCode,
      note,
    };
    return;
  }
  const firstFailed = shared.find((k) => results[k]?.status === 'failed' || results[k]?.status === 'error');
  if (firstFailed === undefined) return;
  for (const k of open) {
    if (k > firstFailed) {
      results[k] = { ...(results[k] as CheckResult), note: 'not run: an earlier check joined by && failed' };
    }
  }
}

/** A script's crash: a Python traceback or a JavaScript stack, with the exception line as the failure. */
function crashReadings(lines: readonly string[]): Reading[] {
  const failures = createFailureList();
  let at = -1;
  let inTraceback = false;
  lines.forEach((line, k) => {
    if (line === 'Traceback (most recent call last):') {
      inTraceback = true;
      at = k;
      return;
    }
    if (inTraceback && /^[A-Za-z_][\w.]{0,100}(?:Error|Exception|Exit|Interrupt)\b/.test(line)) {
      failures.add(line);
      inTraceback = false;
      at = k;
    } else if (/^\s+at .{1,500}:\d+:\d+\)?$/.test(line) && k > 0 && at < 0) {
      const head = lines.slice(Math.max(0, k - 4), k).find((l) => /^(?:Uncaught )?[A-Za-z]*Error\b/.test(l));
      if (head) {
        failures.add(head);
        at = k;
      }
    }
  });
  if (at < 0) return [];
  return [{ status: 'failed', counts: null, line: null, at, failures: failures.take() }];
}
