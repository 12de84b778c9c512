/**
 * Which command of a command line the exit code speaks for: its own (alone, or with only `&&` after it), not
 * its own (piped into `tail`, followed by `||` or `;`), pipefail, timeouts and the runners' error codes.
 */
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/core/tool-calls';
import { resultOf, sample, type ResultCase } from '../fixtures/tool-calls/results';

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

describe('exit codes', () => {
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
  it('reads a Claude Code Bash result without an error as exit 0 (it stores no exit code on success)', () => {
    const call = {
      tool: 'Bash',
      input: { command: 'npx tsc --noEmit' },
      output: '',
      result: { stdout: '', stderr: '', interrupted: false, isImage: false },
    };
    expect(classifyToolCall(call).checks[0]?.result).toMatchObject({ status: 'passed', exitCode: 0 });
    // Without Claude Code's result shape, silence says nothing.
    expect(classifyToolCall({ ...call, result: undefined }).checks[0]?.result.status).toBe('unknown');
    expect(classifyToolCall({ ...call, error: 'Exit code 2\nerror TS2322' }).checks[0]?.result.status).toBe(
      'failed',
    );
  });
});
