/**
 * Check results from real runner output (test/fixtures/tool-calls/outputs, written as the runners print them):
 * the summary line, counts and first failing tests; the exit code where it is the check's own, the summary where
 * a pipe hides it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyToolCall, type CheckResult } from '../../src/core/tools';

const sample = (name: string) =>
  readFileSync(new URL(`../fixtures/tool-calls/outputs/${name}`, import.meta.url), 'utf8');

interface ResultCase {
  readonly name: string;
  readonly command: string;
  readonly output: string;
  readonly exitCode?: number | null;
  readonly expected: Partial<CheckResult>;
}

const summaryCases: readonly ResultCase[] = [
  {
    name: 'pytest, failures listed in the short summary',
    command: 'python -m pytest tests',
    output: sample('pytest-failed.txt'),
    expected: {
      status: 'failed',
      resultFrom: 'summary',
      counts: { passed: 40, failed: 2, errors: 0, skipped: 0, total: 42 },
      failures: ['tests/test_api.py::test_login', 'tests/test_models.py::TestUser::test_email'],
      summary: '========================= 2 failed, 40 passed in 1.23s =========================',
    },
  },
  {
    name: 'pytest -q, passed with skips and warnings',
    command: 'pytest -q',
    output: sample('pytest-quiet.txt'),
    expected: {
      status: 'passed',
      counts: { passed: 43, failed: 0, errors: 0, skipped: 1, warnings: 2, total: 44 },
    },
  },
  {
    name: 'pytest, no tests ran',
    command: 'pytest tests/none',
    output: sample('pytest-no-tests.txt'),
    expected: { status: 'error', counts: { total: 0 } },
  },
  {
    name: 'pytest, collection error',
    command: 'pytest',
    output: sample('pytest-collection-error.txt'),
    expected: {
      status: 'error',
      counts: { passed: 0, failed: 0, errors: 1, skipped: 0, total: 1 },
      failures: ['tests/test_parser.py'],
    },
  },
  {
    name: 'pytest -v through tail',
    command: 'cd repo && python -m pytest -xq tests/x.py::T 2>&1 | tail -20',
    output: sample('pytest-verbose-tail.txt'),
    exitCode: 0,
    expected: {
      status: 'failed',
      resultFrom: 'summary',
      exitCode: null,
      counts: { passed: 2, failed: 1, errors: 0, skipped: 0, total: 3 },
      failures: ['tests/test_x.py::T::test_b'],
      note: "piped into tail: the exit code is tail's",
    },
  },
  {
    name: 'unittest, a failure and an error',
    command: 'python -m unittest tests.test_parser',
    output: sample('unittest-failed.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 4, failed: 1, errors: 1, skipped: 0, total: 6 },
      failures: [
        'test_parse_empty (tests.test_parser.ParserTests.test_parse_empty)',
        'test_parse_quotes (tests.test_parser.ParserTests.test_parse_quotes)',
      ],
      summary: 'Ran 6 tests in 0.004s, FAILED (failures=1, errors=1)',
    },
  },
  {
    name: 'Django, OK with a skip',
    command: 'python manage.py test polls',
    output: sample('django-ok.txt'),
    expected: { status: 'passed', counts: { passed: 9, failed: 0, errors: 0, skipped: 1, total: 10 } },
  },
  {
    name: 'jest through npm test',
    command: 'npm test',
    output: sample('jest-failed.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 12, failed: 1, total: 13 },
      failures: ['ApiClient › retries on 503'],
      summary: 'Tests:       1 failed, 12 passed, 13 total',
    },
  },
  {
    name: 'vitest run',
    command: 'npx vitest run',
    output: sample('vitest-failed.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 12, failed: 1, total: 13 },
      failures: ['src/parser.test.ts > parser > parses quotes'],
      summary: 'Tests  1 failed | 12 passed (13)',
    },
  },
  {
    name: 'vitest with colours',
    command: 'FOO=1 timeout 600 npm test -- --run',
    output: sample('vitest-passed-ansi.txt'),
    expected: {
      status: 'passed',
      counts: { passed: 3, failed: 0, total: 3 },
      summary: 'Tests  3 passed (3)',
    },
  },
  {
    name: 'mocha',
    command: 'npx mocha test',
    output: sample('mocha-failed.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 1, failed: 1, total: 2 },
      failures: ['Array #indexOf() should return -1 when the value is not present'],
      summary: '1 passing (9ms)',
    },
  },
  {
    name: 'node --test, TAP',
    command: 'node --test test/',
    output: sample('node-test-tap.txt'),
    expected: { status: 'failed', counts: { passed: 1, failed: 1, total: 2 }, failures: ['parses quotes'] },
  },
  {
    name: 'node --test, spec reporter',
    command: 'node --test',
    output: sample('node-test-spec.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 1, failed: 1, total: 2 },
      failures: ['parses quotes'],
      summary: 'ℹ fail 1',
    },
  },
  {
    name: 'bun test',
    command: 'bun test',
    output: sample('bun.txt'),
    expected: { status: 'failed', counts: { passed: 1, failed: 1, total: 2 }, failures: ['parses quotes'] },
  },
  {
    name: 'go test, a failing package',
    command: 'go test ./...',
    output: sample('go-failed.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 1, failed: 1 },
      failures: ['TestQuote', 'TestQuote/empty'],
      summary: 'FAIL\texample.com/shell/parser\t0.012s',
    },
  },
  {
    name: 'go test, passing (one cached)',
    command: 'go test ./...',
    output: sample('go-passed.txt'),
    expected: { status: 'passed', counts: { passed: 2, failed: 0 } },
  },
  {
    name: 'go test, build failed',
    command: 'go test ./parser',
    output: sample('go-build-failed.txt'),
    expected: { status: 'failed', counts: { passed: 0, failed: 1 } },
  },
  {
    name: 'cargo test, one failure',
    command: 'cargo test',
    output: sample('cargo-failed.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 3, failed: 1, skipped: 0, total: 4 },
      failures: ['lexer::tests::quotes'],
      summary:
        'test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    },
  },
  {
    name: 'cargo test, three binaries summed',
    command: 'cargo test',
    output: sample('cargo-passed.txt'),
    expected: { status: 'passed', counts: { passed: 6, failed: 0, skipped: 1, total: 7 } },
  },
  {
    name: 'cargo nextest',
    command: 'cargo nextest run',
    output: sample('nextest.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 2, failed: 1, skipped: 0, total: 3 },
      failures: ['shellparse lexer::tests::quotes'],
    },
  },
  {
    name: 'tsc --pretty',
    command: 'npx tsc --noEmit',
    output: sample('tsc-pretty.txt'),
    expected: {
      status: 'failed',
      counts: { errors: 2 },
      summary: 'Found 2 errors in the same file, starting at: src/core/tools/lex.ts:12',
      failures: [
        "src/core/tools/lex.ts:12:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
        "src/core/tools/lex.ts:30:3 - error TS2304: Cannot find name 'foo'.",
      ],
    },
  },
  {
    name: 'tsc without --pretty: diagnostics alone',
    command: 'tsc --noEmit -p .',
    output: sample('tsc-plain.txt'),
    expected: {
      status: 'failed',
      counts: { errors: 3 },
      summary: null,
      note: 'no exit code: read from the output',
    },
  },
  {
    name: 'eslint',
    command: 'npx eslint src',
    output: sample('eslint.txt'),
    expected: {
      status: 'failed',
      counts: { errors: 2, warnings: 1 },
      failures: [
        '/work/app/src/a.ts:1:10 @typescript-eslint/no-unused-vars',
        '/work/app/src/b.ts:7:3 no-var',
      ],
      summary: '✖ 3 problems (2 errors, 1 warning)',
    },
  },
  {
    name: 'mypy, errors',
    command: 'mypy src',
    output: sample('mypy-failed.txt'),
    expected: {
      status: 'failed',
      counts: { errors: 2 },
      summary: 'Found 2 errors in 2 files (checked 12 source files)',
    },
  },
  {
    name: 'mypy, success',
    command: 'mypy src',
    output: sample('mypy-ok.txt'),
    expected: { status: 'passed', counts: { errors: 0 } },
  },
  {
    name: 'ruff, concise',
    command: 'ruff check .',
    output: sample('ruff-failed.txt'),
    expected: {
      status: 'failed',
      counts: { errors: 2 },
      failures: ['src/app/cli.py:1:8 F401', 'src/app/parser.py:22:5 E741'],
    },
  },
  {
    name: 'ruff, full format',
    command: 'ruff check .',
    output: sample('ruff-full-failed.txt'),
    expected: { status: 'failed', counts: { errors: 1 }, failures: ['src/app/cli.py:1:8 F401'] },
  },
  {
    name: 'ruff, clean',
    command: 'ruff check .',
    output: sample('ruff-ok.txt'),
    expected: { status: 'passed', summary: 'All checks passed!' },
  },
  {
    name: 'pyright',
    command: 'pyright',
    output: sample('pyright.txt'),
    expected: {
      status: 'failed',
      counts: { errors: 1, warnings: 1 },
      summary: '1 error, 1 warning, 0 informations',
    },
  },
  {
    name: 'prettier --check',
    command: 'npx prettier --check .',
    output: sample('prettier.txt'),
    expected: { status: 'failed', counts: { failed: 2 }, failures: ['src/a.ts', 'src/b.svelte'] },
  },
  {
    name: 'prettier clean',
    command: 'npx prettier --check .',
    output: sample('prettier-ok.txt'),
    expected: { status: 'passed' },
  },
  {
    name: 'tox over pytest',
    command: 'tox -e py311',
    output: sample('tox.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 5, failed: 1, errors: 0, skipped: 0, total: 6 },
      failures: ['tests/test_a.py::test_b'],
    },
  },
  {
    name: 'gradle',
    command: './gradlew test',
    output: sample('gradle.txt'),
    expected: {
      status: 'failed',
      counts: { passed: 4, failed: 1, skipped: 0, total: 5 },
      failures: ['FooTest > parsesQuotes()', ':app:test'],
    },
  },
  {
    name: 'maven',
    command: 'mvn -q test',
    output: sample('maven.txt'),
    expected: {
      status: 'failed',
      counts: { total: 3, failed: 1, errors: 0, skipped: 0, passed: 2 },
      failures: ['FooTest.parsesQuotes:21'],
    },
  },
  {
    name: 'an ad-hoc script that crashes',
    command: 'bash -lc "cd /testbed && python reproduce.py"',
    output: sample('traceback.txt'),
    expected: { status: 'failed', resultFrom: 'summary', failures: ['ValueError: unbalanced quote'] },
  },
];

const exitCases: readonly ResultCase[] = [
  {
    name: 'exit 0',
    command: 'pytest -q',
    output: '',
    exitCode: 0,
    expected: { status: 'passed', resultFrom: 'exit-code', exitCode: 0 },
  },
  {
    name: 'exit 1 wins over nothing to read',
    command: 'pytest -q',
    output: 'boom',
    exitCode: 1,
    expected: { status: 'failed', resultFrom: 'exit-code', exitCode: 1, counts: null },
  },
  {
    name: 'exit code and summary together',
    command: 'python -m pytest tests',
    output: sample('pytest-failed.txt'),
    exitCode: 1,
    expected: {
      status: 'failed',
      resultFrom: 'exit-code',
      exitCode: 1,
      counts: { passed: 40, failed: 2, errors: 0, skipped: 0, total: 42 },
    },
  },
  {
    name: 'pytest exit 5',
    command: 'pytest tests/none',
    output: '',
    exitCode: 5,
    expected: { status: 'error', note: 'no tests ran (exit 5)' },
  },
  {
    name: 'timeout 124',
    command: 'FOO=1 timeout 600 npm test -- --run',
    output: '',
    exitCode: 124,
    expected: { status: 'error', resultFrom: 'exit-code', note: 'timed out (timeout 600)' },
  },
  {
    name: 'not found',
    command: 'tox',
    output: 'bash: tox: command not found',
    exitCode: 127,
    expected: { status: 'error' },
  },
  {
    name: 'stash around a test: exit 0 means it passed',
    command: 'git stash && pytest && git stash pop',
    output: '',
    exitCode: 0,
    expected: { status: 'passed', resultFrom: 'exit-code' },
  },
  {
    name: 'stash around a test: exit 1 is the test',
    command: 'git stash && pytest && git stash pop',
    output: '',
    exitCode: 1,
    expected: { status: 'failed', resultFrom: 'exit-code', exitCode: 1 },
  },
  {
    name: '|| true hides the status',
    command: 'pytest tests || true',
    output: sample('pytest-quiet.txt'),
    exitCode: 0,
    expected: { status: 'passed', resultFrom: 'summary', exitCode: null },
  },
  {
    name: 'pipefail makes exit 0 the check’s',
    command: 'set -o pipefail; pytest | tail -5',
    output: '',
    exitCode: 0,
    expected: { status: 'passed', resultFrom: 'exit-code' },
  },
  {
    name: 'piped, nothing to read',
    command: 'pytest 2>&1 | tail -3',
    output: 'something else',
    exitCode: 0,
    expected: { status: 'unknown', resultFrom: 'none' },
  },
  {
    name: 'Claude Code: exit code in the error text',
    command: 'pytest -q',
    output: '',
    exitCode: undefined,
    expected: { status: 'failed', resultFrom: 'exit-code', exitCode: 1 },
  },
];

function resultOf(c: ResultCase, extra: { error?: string } = {}) {
  const meaning = classifyToolCall({
    tool: 'Bash',
    input: { command: c.command },
    output: c.output,
    exitCode: c.exitCode ?? null,
    ...extra,
  });
  expect(meaning.checks).toHaveLength(1);
  return meaning.checks[0]?.result as CheckResult;
}

describe('check results from runner output', () => {
  it.each(summaryCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(resultOf(c)).toMatchObject(c.expected);
  });
  it.each(exitCases.filter((c) => !c.name.startsWith('Claude')).map((c) => [c.name, c] as const))(
    '%s',
    (_name, c) => {
      expect(resultOf(c)).toMatchObject(c.expected);
    },
  );
  it('reads Claude Code’s "Exit code N" error text as the exit code', () => {
    const c = exitCases.find((x) => x.name.startsWith('Claude')) as ResultCase;
    expect(resultOf(c, { error: 'Exit code 1\n1 failed in 0.1s' })).toMatchObject(c.expected);
  });
});
