/**
 * Python runners' closing lines: pytest (`=== 2 failed, 40 passed in 1.23s ===`, `FAILED x::t - …`), unittest
 * and Django (`Ran 12 tests in 0.3s` + `FAILED (failures=1)`), mypy, ruff, pyright, tox.
 */
import { counts, countWords, createFailureList, errorsAndWarnings, type Reading } from './summaries';

/** `s` without leading and trailing `chars` (a loop, not a regex: no quadratic backtracking). */
export function trimChars(s: string, chars: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && chars.includes(s[a] as string)) a++;
  while (b > a && chars.includes(s[b - 1] as string)) b--;
  return s.slice(a, b);
}

const pytestWord = /^\d{1,9} (failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)$/;
const pytestTime = / in \d{1,9}(?:\.\d{1,6})?s(?: \([0-9:.]{1,20}\))?$/;

export function pytestSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  // A loop, not forEach: it runs per output line, and a callback per line is dear while the code is still cold.
  for (let at = 0; at < lines.length; at++) {
    const raw = lines[at] as string;
    if (raw.startsWith('FAILED ') || raw.startsWith('ERROR ')) {
      const rest = raw.slice(raw.indexOf(' ') + 1);
      const cut = rest.indexOf(' - ');
      failures.add(cut >= 0 ? rest.slice(0, cut) : rest);
      continue;
    }
    // Each pattern is tried only on a line that has what it needs (`::`; an ending in `s` or `)`).
    const verbose = raw.includes('::') ? /^(\S+::\S+) (FAILED|ERROR)\b/.exec(raw) : null;
    if (verbose) {
      failures.add(verbose[1] as string);
      continue;
    }
    const line = trimChars(raw, '= ');
    const end = line.charCodeAt(line.length - 1);
    if (end !== 0x73 && end !== 0x29) continue;
    const time = pytestTime.exec(line);
    if (!time) continue;
    const head = line.slice(0, time.index);
    if (head === 'no tests ran') {
      readings.push({
        status: 'error',
        counts: counts({ total: 0 }),
        line: raw.trim(),
        at,
        failures: failures.take(),
      });
      continue;
    }
    const parts = head.split(', ');
    if (!parts.every((p) => pytestWord.test(p))) continue;
    const words = countWords(head, ', ');
    const passed = words.get('passed') ?? 0;
    const failed = words.get('failed') ?? 0;
    const errors = (words.get('error') ?? 0) + (words.get('errors') ?? 0);
    const skipped = words.get('skipped') ?? 0;
    const warnings = (words.get('warning') ?? 0) + (words.get('warnings') ?? 0);
    const status = failed > 0 ? 'failed' : errors > 0 ? (passed > 0 ? 'failed' : 'error') : 'passed';
    readings.push({
      status,
      counts: counts({
        passed,
        failed,
        errors,
        skipped,
        warnings: warnings || undefined,
        total: passed + failed + errors + skipped,
      }),
      line: raw.trim(),
      at,
      failures: failures.take(),
    });
  }
  return readings;
}

export function unittestSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let ran: { total: number; at: number; line: string } | null = null;
  lines.forEach((line, at) => {
    if (line.startsWith('FAIL: ') || line.startsWith('ERROR: ')) {
      failures.add(line.slice(line.indexOf(' ') + 1));
      return;
    }
    const r = /^Ran (\d{1,9}) tests? in \d{1,9}(?:\.\d{1,6})?s$/.exec(line);
    if (r) {
      ran = { total: Number(r[1]), at, line };
      return;
    }
    if (!ran || at - ran.at > 4) return;
    const v = /^(OK|FAILED|NO TESTS RAN)(?: \(([^)]{0,200})\))?$/.exec(line.trim());
    if (!v) return;
    const fields = new Map<string, number>();
    for (const part of (v[2] ?? '').split(', ')) {
      const eq = part.indexOf('=');
      if (eq > 0) fields.set(part.slice(0, eq), Number(part.slice(eq + 1)));
    }
    const failed = fields.get('failures') ?? 0;
    const errors = fields.get('errors') ?? 0;
    const skipped = fields.get('skipped') ?? 0;
    const total = ran.total;
    const status = v[1] === 'FAILED' ? 'failed' : total === 0 || v[1] === 'NO TESTS RAN' ? 'error' : 'passed';
    readings.push({
      status,
      counts: counts({
        passed: Math.max(0, total - failed - errors - skipped),
        failed,
        errors,
        skipped,
        total,
      }),
      line: `${ran.line}, ${line.trim()}`,
      at,
      failures: failures.take(),
    });
    ran = null;
  });
  return readings;
}

export function mypySummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  lines.forEach((line, at) => {
    const e = line.indexOf(': error: ');
    if (e > 0 && /^\S+:\d+(:\d+)?$/.test(line.slice(0, e))) {
      failures.add(line);
      return;
    }
    const found = /^Found (\d{1,9}) errors? in (\d{1,9}) files?/.exec(line);
    if (found) {
      const errors = Number(found[1]);
      readings.push({ status: 'failed', counts: counts({ errors }), line, at, failures: failures.take() });
    } else if (line.startsWith('Success: no issues found')) {
      readings.push({ status: 'passed', counts: counts({ errors: 0 }), line, at, failures: failures.take() });
    }
  });
  return readings;
}

export function ruffSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let code: string | null = null;
  lines.forEach((line, at) => {
    const concise = /^(\S+:\d+:\d+): ([A-Z]{1,4}\d{1,5})\b/.exec(line);
    if (concise) failures.add(`${concise[1]} ${concise[2]}`);
    const head = /^([A-Z]{1,4}\d{1,5}) /.exec(line);
    if (head) code = head[1] as string;
    const arrow = /^\s*--> (\S+:\d+:\d+)$/.exec(line);
    if (arrow && code) failures.add(`${arrow[1]} ${code}`);
    if (line.startsWith('Would reformat: ')) failures.add(line.slice('Would reformat: '.length));
    const found = /^Found (\d{1,9}) errors?(?: \((\d{1,9}) fixed, (\d{1,9}) remaining\))?\.$/.exec(line);
    if (found) {
      const remaining = found[3] !== undefined ? Number(found[3]) : Number(found[1]);
      const status = remaining > 0 ? 'failed' : 'passed';
      readings.push({ status, counts: counts({ errors: remaining }), line, at, failures: failures.take() });
    } else if (line === 'All checks passed!') {
      readings.push({ status: 'passed', counts: counts({ errors: 0 }), line, at, failures: failures.take() });
    } else if (/^\d{1,9} files? would be reformatted/.test(line)) {
      const n = Number(/^\d+/.exec(line)?.[0]);
      readings.push({ status: 'failed', counts: counts({ failed: n }), line, at, failures: failures.take() });
    } else if (/^\d{1,9} files? (?:left unchanged|already formatted)$/.test(line)) {
      readings.push({ status: 'passed', counts: counts({ failed: 0 }), line, at, failures: failures.take() });
    }
  });
  return readings;
}

export function pyrightSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  lines.forEach((line, at) => {
    const e = line.indexOf(' - error: ');
    if (e > 0 && /^\s+\S/.test(line)) {
      failures.add(line);
      return;
    }
    const m = /^(\d{1,9}) errors?, (\d{1,9}) warnings?, (\d{1,9}) (?:informations?|notes?)\s*$/.exec(line);
    if (!m) return;
    readings.push(errorsAndWarnings(Number(m[1]), Number(m[2]), line, at, failures));
  });
  return readings;
}

/** tox 3 (`py311: commands succeeded`, `ERROR: py311: commands failed`) and 4 (`py311: OK`, `FAIL code 1`). */
export function toxSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let lastFail: { at: number; line: string } | null = null;
  let ok = 0;
  let failed = 0;
  lines.forEach((line, at) => {
    const env = /^(?:ERROR:)?\s+(\S+): (OK|FAIL|commands succeeded|commands failed)\b/.exec(line);
    if (env) {
      if (env[2] === 'OK' || env[2] === 'commands succeeded') ok++;
      else {
        failed++;
        failures.add(env[1] as string);
        lastFail = { at, line: line.trim() };
      }
      return;
    }
    const done = /^\s+(congratulations :\)|evaluation failed :\()/.exec(line);
    if (!done) return;
    const status = done[1]?.startsWith('congratulations') ? 'passed' : 'failed';
    readings.push({
      status,
      counts: counts({ passed: ok, failed }),
      line: line.trim(),
      at,
      failures: failures.take(),
    });
    lastFail = null;
    ok = 0;
    failed = 0;
  });
  const tail = lastFail as { at: number; line: string } | null;
  if (tail)
    readings.push({
      status: 'failed',
      counts: counts({ passed: ok, failed }),
      line: tail.line,
      at: tail.at,
      failures: failures.take(),
    });
  return readings;
}
