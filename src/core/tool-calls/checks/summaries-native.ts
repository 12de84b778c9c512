/**
 * Closing lines of go (`ok  \tpkg\t0.01s`, `FAIL\tpkg\t0.01s`, `--- FAIL: TestX (0.00s)`), cargo (`test result:
 * FAILED. 3 passed; 1 failed; …`, nextest's `Summary […] 3 tests run: …`), gradle, maven, and the generic ones
 * any runner may print (`N passed, N failed`, rspec/mix, ctest, dotnet, phpunit, npm/yarn/pnpm/make failures).
 */
import { counts, createFailureList, type Reading } from './summaries';

/** go test: one reading for the whole output (every package line of the run), at its last package line. */
export function goSummaries(lines: readonly string[]): Reading[] {
  const failures = createFailureList();
  let ok = 0;
  let failed = 0;
  let buildFailed = 0;
  let at = -1;
  let summary: string | null = null;
  let testFailed = false;
  let bare: 'PASS' | 'FAIL' | null = null;
  lines.forEach((line, k) => {
    const test = /^\s*--- FAIL: (\S+)/.exec(line);
    if (test) {
      failures.add(test[1] as string);
      testFailed = true;
      return;
    }
    if (/^ok\s+\S+\s+(?:[\d.]+s|\(cached\))/.test(line)) {
      ok++;
      at = k;
      summary ??= line;
    } else if (/^FAIL\s+\S+\s+(?:[\d.]+s|\[(?:build|setup) failed\])/.test(line)) {
      if (line.includes('failed]')) buildFailed++;
      else failed++;
      at = k;
      if (!summary || summary.startsWith('ok')) summary = line;
    } else if (line === 'PASS' || line === 'FAIL') {
      bare = line;
      if (at < 0) at = k;
    }
  });
  const mark = bare as 'PASS' | 'FAIL' | null;
  if (at < 0 || (ok === 0 && failed === 0 && buildFailed === 0 && !mark)) return [];
  const anyFailed = failed > 0 || testFailed || mark === 'FAIL';
  const status = anyFailed ? 'failed' : buildFailed > 0 ? 'error' : 'passed';
  const fields = { passed: ok, failed: failed + buildFailed };
  return [{ status, counts: counts(fields), line: summary ?? mark, at, failures: failures.take() }];
}

/** cargo test: every `test result:` line of the run (unit, integration, doc tests) summed into one reading. */
export function cargoSummaries(lines: readonly string[]): Reading[] {
  const failures = createFailureList();
  let passed = 0;
  let failed = 0;
  let ignored = 0;
  let found = false;
  let compileError = false;
  let at = -1;
  let summary: string | null = null;
  lines.forEach((line, k) => {
    const t = /^test (\S+) \.\.\. (FAILED|ok|ignored)/.exec(line);
    if (t?.[2] === 'FAILED') failures.add(t[1] as string);
    const nextestFail = /^\s+(?:FAIL|SIGSEGV|TIMEOUT) \[\s*[\d.]+s\] (.+)$/.exec(line);
    if (nextestFail) failures.add(nextestFail[1] as string);
    if (/^error: could not compile `/.test(line)) {
      compileError = true;
      at = k;
      summary ??= line;
    }
    const r = /^test result: (ok|FAILED)\. (\d{1,9}) passed; (\d{1,9}) failed; (\d{1,9}) ignored/.exec(line);
    const n =
      /^\s*Summary \[[^\]]{1,30}\] (\d{1,9}) tests? run: (\d{1,9}) passed(?: \([^)]*\))?, (\d{1,9}) failed/.exec(
        line,
      );
    if (!r && !n) return;
    found = true;
    at = k;
    if (r) {
      passed += Number(r[2]);
      failed += Number(r[3]);
      ignored += Number(r[4]);
      if (!summary || (r[1] === 'FAILED' && !summary.includes('FAILED'))) summary = line;
    } else if (n) {
      passed += Number(n[2]);
      failed += Number(n[3]);
      summary = line.trim();
    }
  });
  if (!found && !compileError) return [];
  const status = failed > 0 ? 'failed' : compileError ? 'error' : 'passed';
  const fields = found
    ? { passed, failed, skipped: ignored, total: passed + failed + ignored }
    : { errors: 1 };
  return [{ status, counts: counts(fields), line: summary, at, failures: failures.take() }];
}

export function gradleSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let tests: { total: number; failed: number; skipped: number } | null = null;
  lines.forEach((line, at) => {
    const f = line.endsWith(' FAILED') ? /^(\S.*) > (.+) FAILED$/.exec(line) : null;
    if (f) failures.add(`${f[1]} > ${f[2]}`);
    const task = /^> Task (\S+) FAILED$/.exec(line);
    if (task) failures.add(task[1] as string);
    const t = /^(\d{1,9}) tests? completed, (\d{1,9}) failed(?:, (\d{1,9}) skipped)?/.exec(line);
    if (t) tests = { total: Number(t[1]), failed: Number(t[2]), skipped: Number(t[3] ?? 0) };
    const b = /^BUILD (SUCCESSFUL|FAILED)\b/.exec(line);
    if (!b) return;
    const known = tests as { total: number; failed: number; skipped: number } | null;
    const fields = known
      ? {
          passed: known.total - known.failed - known.skipped,
          failed: known.failed,
          skipped: known.skipped,
          total: known.total,
        }
      : {};
    readings.push({
      status: b[1] === 'SUCCESSFUL' ? 'passed' : 'failed',
      counts: known ? counts(fields) : null,
      line,
      at,
      failures: failures.take(),
    });
    tests = null;
  });
  return readings;
}

export function mavenSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  const failures = createFailureList();
  let tests: Record<string, number> | null = null;
  lines.forEach((line, at) => {
    const failure = /^\[ERROR\] {3}(\S+)/.exec(line);
    if (failure && !failure[1]?.startsWith('Run ')) failures.add(failure[1] as string);
    const t =
      /^\[(?:INFO|WARNING|ERROR)\] Tests run: (\d{1,9}), Failures: (\d{1,9}), Errors: (\d{1,9}), Skipped: (\d{1,9})$/.exec(
        line,
      );
    if (t) tests = { total: Number(t[1]), failed: Number(t[2]), errors: Number(t[3]), skipped: Number(t[4]) };
    const b = /^\[INFO\] BUILD (SUCCESS|FAILURE)$/.exec(line);
    if (!b) return;
    const k = tests as Record<string, number> | null;
    const c = k
      ? counts({ ...k, passed: (k.total ?? 0) - (k.failed ?? 0) - (k.errors ?? 0) - (k.skipped ?? 0) })
      : null;
    readings.push({
      status: b[1] === 'SUCCESS' ? 'passed' : 'failed',
      counts: c,
      line,
      at,
      failures: failures.take(),
    });
    tests = null;
  });
  return readings;
}

const generic: readonly {
  pattern: RegExp;
  read: (m: RegExpExecArray) => Pick<Reading, 'status' | 'counts'>;
}[] = [
  {
    // The plain closing line: "N passed, N failed" (", N skipped" may follow; one word and a colon may lead).
    pattern: /^(?:\w{1,20}: )?(\d{1,9}) passed, (\d{1,9}) failed(?:, (\d{1,9}) skipped)?\s*$/,
    read: (m) => ({
      status: Number(m[2]) > 0 ? 'failed' : 'passed',
      counts: counts({
        passed: Number(m[1]),
        failed: Number(m[2]),
        skipped: m[3] ? Number(m[3]) : undefined,
      }),
    }),
  },
  {
    pattern:
      /^(\d{1,9}) (?:examples?|tests?), (\d{1,9}) failures?(?:, (\d{1,9}) (?:pending|skipped|excluded))?/, // rspec, mix
    read: (m) => ({
      status: Number(m[2]) > 0 ? 'failed' : 'passed',
      counts: counts({ total: Number(m[1]), failed: Number(m[2]), passed: Number(m[1]) - Number(m[2]) }),
    }),
  },
  {
    pattern: /^\d{1,3}% tests passed, (\d{1,9}) tests? failed out of (\d{1,9})/, // ctest
    read: (m) => ({
      status: Number(m[1]) > 0 ? 'failed' : 'passed',
      counts: counts({ failed: Number(m[1]), total: Number(m[2]) }),
    }),
  },
  {
    pattern:
      /^(Passed|Failed)!\s+-\s+Failed:\s+(\d{1,9}), Passed:\s+(\d{1,9}), Skipped:\s+(\d{1,9}), Total:\s+(\d{1,9})/, // dotnet
    read: (m) => ({
      status: m[1] === 'Passed' ? 'passed' : 'failed',
      counts: counts({
        failed: Number(m[2]),
        passed: Number(m[3]),
        skipped: Number(m[4]),
        total: Number(m[5]),
      }),
    }),
  },
  {
    pattern: /^OK \((\d{1,9}) tests?, \d{1,9} assertions?\)$/, // phpunit
    read: (m) => ({ status: 'passed', counts: counts({ passed: Number(m[1]), total: Number(m[1]) }) }),
  },
  {
    pattern: /^Tests: (\d{1,9}), Assertions: \d{1,9}, (?:Errors: (\d{1,9}), )?Failures: (\d{1,9})/, // phpunit
    read: (m) => ({
      status: 'failed',
      counts: counts({ total: Number(m[1]), errors: m[2] ? Number(m[2]) : undefined, failed: Number(m[3]) }),
    }),
  },
  {
    pattern:
      /^(?:npm ERR!|npm error) (?:Test failed|Lifecycle script `[^`]{1,100}` failed)|^error Command failed with exit code (\d{1,3})|ELIFECYCLE\s+(?:Test|Command) failed|^make(?:\[\d+\])?: \*\*\* \[[^\]]{1,200}\] Error \d{1,3}/,
    read: () => ({ status: 'failed', counts: null }),
  },
];

export function genericSummaries(lines: readonly string[]): Reading[] {
  const readings: Reading[] = [];
  lines.forEach((line, at) => {
    const text = line.trim();
    for (const { pattern, read } of generic) {
      const m = pattern.exec(text);
      if (m) {
        readings.push({ ...read(m), line: text, at, failures: [] });
        break;
      }
    }
  });
  return readings;
}
