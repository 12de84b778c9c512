/**
 * JavaScript runners' closing lines: jest (`Tests:       1 failed, 12 passed, 13 total`), vitest (`Tests  1 failed
 * | 3 passed (4)`), mocha (`12 passing` / `2 failing`), `node --test` (`# pass 4` / `ℹ fail 1`), bun, tsc (`Found
 * 2 errors in the same file…`, or its diagnostics alone), eslint (`✖ 5 problems (3 errors, 2 warnings)`),
 * `prettier --check`.
 */
import { counts, countWords, createFailureList, errorsAndWarnings, type Reading } from './summaries';

export function jestSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  lines.forEach((line, at) => {
    const bullet = /^\s*● (.+)$/.exec(line);
    if (bullet && !bullet[1]?.startsWith('Console')) failures.add(bullet[1] as string);
    const m = /^Tests:\s+(.+)$/.exec(line);
    if (!m) return;
    const words = countWords(m[1] as string, ', ');
    const failed = words.get('failed') ?? 0;
    const total = words.get('total');
    const status = failed > 0 ? 'failed' : total === 0 ? 'error' : 'passed';
    const fields = { passed: words.get('passed'), failed, skipped: words.get('skipped'), total };
    readings.push({ status, counts: counts(fields), line: line.trim(), at, failures: failures.take() });
  });
  return readings;
}

export function vitestSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let suitesFailed = false;
  lines.forEach((line, at) => {
    const fail = /^\s*FAIL\s+(.+ > .+)$/.exec(line);
    if (fail) failures.add(trimDuration(fail[1] as string));
    const files = /^\s*Test Files\s+(.+)\((\d{1,9})\)\s*$/.exec(line);
    if (files) suitesFailed = (countWords(files[1] as string, '|').get('failed') ?? 0) > 0;
    const m = /^\s*Tests\s+(.+)\((\d{1,9})\)\s*$/.exec(line);
    if (!m) return;
    const words = countWords(m[1] as string, '|');
    const failed = words.get('failed') ?? 0;
    const total = Number(m[2]);
    const status = failed > 0 || suitesFailed ? 'failed' : total === 0 ? 'error' : 'passed';
    const fields = { passed: words.get('passed'), failed, skipped: words.get('skipped'), total };
    readings.push({ status, counts: counts(fields), line: line.trim(), at, failures: failures.take() });
    suitesFailed = false;
  });
  return readings;
}

function trimDuration(name: string): string {
  return name.replace(/ \d{1,7}(?:\.\d{1,3})?ms$/, '');
}

export function mochaSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  lines.forEach((line, at) => {
    const passing = /^\s+(\d{1,9}) passing \(\d/.exec(line);
    if (!passing) return;
    let failed = 0;
    let pending = 0;
    let end = at;
    for (let k = at + 1; k < Math.min(lines.length, at + 3); k++) {
      const next = /^\s+(\d{1,9}) (failing|pending)$/.exec(lines[k] as string);
      if (!next) continue;
      if (next[2] === 'failing') failed = Number(next[1]);
      else pending = Number(next[1]);
      end = k;
    }
    const passed = Number(passing[1]);
    const failures = failed > 0 ? mochaFailures(lines, end + 1) : [];
    const status = failed > 0 ? 'failed' : 'passed';
    const fields = { passed, failed, skipped: pending || undefined, total: passed + failed + pending };
    readings.push({ status, counts: counts(fields), line: line.trim(), at, failures });
  });
  return readings;
}

/** After `N failing`: `  1) Suite` then deeper lines until one ends in `:` — joined as the test's name. */
function mochaFailures(lines: readonly string[], from: number): string[] {
  const list = createFailureList();
  for (let k = from; k < Math.min(lines.length, from + 2000) && list.size < 10; k++) {
    const head = /^\s{2}(\d{1,5})\) (.+)$/.exec(lines[k] as string);
    if (!head) continue;
    const parts = [head[2] as string];
    for (let j = k + 1; j < Math.min(lines.length, k + 6); j++) {
      const part = (lines[j] as string).trim();
      if (part === '') break;
      parts.push(part);
      if (part.endsWith(':')) break;
    }
    list.add(parts.join(' ').replace(/:$/, ''));
  }
  return list.take();
}

export function nodeTestSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let tests: number | null = null;
  let pass = 0;
  let skipped = 0;
  lines.forEach((line, at) => {
    const notOk = /^\s*not ok \d{1,9} - (.+)$/.exec(line);
    if (notOk) failures.add((notOk[1] as string).replace(/ # .*$/, ''));
    const cross = /^\s*✖ (.+?) \(\d/.exec(line);
    if (cross && !line.includes('failing tests')) failures.add(cross[1] as string);
    const m = /^(?:#|ℹ) (tests|pass|fail|skipped|todo|cancelled) (\d{1,9})$/.exec(line);
    if (!m) return;
    const n = Number(m[2]);
    if (m[1] === 'tests') tests = n;
    else if (m[1] === 'pass') pass = n;
    else if (m[1] === 'skipped') skipped = n;
    else if (m[1] === 'fail' && tests !== null) {
      const status = n > 0 ? 'failed' : tests === 0 ? 'error' : 'passed';
      const fields = { passed: pass, failed: n, skipped: skipped || undefined, total: tests };
      readings.push({ status, counts: counts(fields), line: line.trim(), at, failures: failures.take() });
      tests = null;
    }
  });
  return readings;
}

export function bunSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let pass = 0;
  let fail = 0;
  lines.forEach((line, at) => {
    const f = /^\(fail\) (.+?)(?: \[[\d.]+ms\])?$/.exec(line);
    if (f) failures.add(f[1] as string);
    const c = /^\s*(\d{1,9}) (pass|fail)$/.exec(line);
    if (c) {
      if (c[2] === 'pass') pass = Number(c[1]);
      else fail = Number(c[1]);
    }
    const ran = /^Ran (\d{1,9}) tests? across (\d{1,9}) files?/.exec(line);
    if (!ran) return;
    const total = Number(ran[1]);
    const status = fail > 0 ? 'failed' : total === 0 ? 'error' : 'passed';
    readings.push({
      status,
      counts: counts({ passed: pass, failed: fail, total }),
      line: line.trim(),
      at,
      failures: failures.take(),
    });
    pass = 0;
    fail = 0;
  });
  return readings;
}

const tscDiagnostic = /^(\S.*?)(?:\((\d+),(\d+)\): | ?:(\d+):(\d+) - )error (TS\d{1,6}): /;

/** tsc: `Found N errors…`; without it (no --pretty, as when piped), the `error TS…` diagnostics are the reading. */
export function tscSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let diagnostics = 0;
  let lastDiagnostic = -1;
  lines.forEach((line, at) => {
    const e = line.indexOf('error TS');
    if (e > 0 && tscDiagnostic.test(line.slice(0, e + 16))) {
      diagnostics++;
      lastDiagnostic = at;
      failures.add(line.length > 200 ? line.slice(0, 200) : line);
      return;
    }
    const found = /^Found (\d{1,9}) errors?\b/.exec(line);
    if (!found) return;
    const errors = Number(found[1]);
    readings.push({
      status: errors > 0 ? 'failed' : 'passed',
      counts: counts({ errors }),
      line: line.trim(),
      at,
      failures: failures.take(),
    });
    diagnostics = 0;
  });
  if (diagnostics > 0) {
    readings.push({
      status: 'failed',
      counts: counts({ errors: diagnostics }),
      line: null,
      at: lastDiagnostic,
      failures: failures.take(),
    });
  }
  return readings;
}

export function eslintSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let file = '';
  lines.forEach((line, at) => {
    if (line !== '' && !/^\s/.test(line) && !line.startsWith('✖')) file = line.trim();
    const parts = line.trim().split(/\s{2,}/);
    if (/^\s+\d+:\d+\s/.test(line) && parts[1] === 'error')
      failures.add(`${file}:${parts[0]} ${parts[parts.length - 1]}`);
    const m = /^✖ (\d{1,9}) problems? \((\d{1,9}) errors?, (\d{1,9}) warnings?\)/.exec(line);
    if (!m) return;
    readings.push(errorsAndWarnings(Number(m[2]), Number(m[3]), line, at, failures));
  });
  return readings;
}

export function prettierSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let files = 0;
  lines.forEach((line, at) => {
    if (line.startsWith('[warn] ') && !line.includes('Code style issues')) {
      files++;
      failures.add(line.slice('[warn] '.length));
      return;
    }
    if (/Code style issues (?:found|were found)/.test(line)) {
      const n = /in (\d{1,9}) files?/.exec(line);
      const failed = n ? Number(n[1]) : files;
      readings.push({
        status: 'failed',
        counts: counts({ failed }),
        line: line.trim(),
        at,
        failures: failures.take(),
      });
      files = 0;
    } else if (line.startsWith('All matched files use Prettier code style')) {
      readings.push({
        status: 'passed',
        counts: counts({ failed: 0 }),
        line: line.trim(),
        at,
        failures: failures.take(),
      });
      files = 0;
    }
  });
  return readings;
}
