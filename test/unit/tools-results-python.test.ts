/** Check results read from real Python runners (pytest, unittest, Django, mypy, ruff, pyright, tox) and an ad-hoc script output: summary line, counts, first failures. */
import { describe, expect, it } from 'vitest';
import { resultOf, sample, type ResultCase } from '../fixtures/tool-calls/results';

const cases: readonly ResultCase[] = [
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
    name: 'an ad-hoc script that crashes',
    command: 'bash -lc "cd /testbed && python reproduce.py"',
    output: sample('traceback.txt'),
    expected: { status: 'failed', resultFrom: 'summary', failures: ['ValueError: unbalanced quote'] },
  },
];

describe('check results: python', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(resultOf(c)).toMatchObject(c.expected);
  });
});
