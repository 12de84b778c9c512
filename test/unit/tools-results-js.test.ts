/** Check results read from real JavaScript runners (jest, vitest, mocha, node --test, bun, tsc, eslint, prettier) output: summary line, counts, first failures. */
import { describe, expect, it } from 'vitest';
import { resultOf, sample, type ResultCase } from '../fixtures/tool-calls/results';

const cases: readonly ResultCase[] = [
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
        '/home/dev/app/src/a.ts:1:10 @typescript-eslint/no-unused-vars',
        '/home/dev/app/src/b.ts:7:3 no-var',
      ],
      summary: '✖ 3 problems (2 errors, 1 warning)',
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
];

describe('check results: js', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(resultOf(c)).toMatchObject(c.expected);
  });
});
