/** Check results read from real go, cargo (and nextest), gradle and maven output: summary line, counts, first failures. */
import { describe, expect, it } from 'vitest';
import { resultOf, sample, type ResultCase } from '../fixtures/tool-calls/results';

const cases: readonly ResultCase[] = [
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
];

describe('check results: native', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(resultOf(c)).toMatchObject(c.expected);
  });
});
