/**
 * pytest's summary parser on awkward single lines, as pytest prints them (src/_pytest/terminal.py: the
 * `=== N failed, M passed in 1.23s ===` line centred in `=`, `-v`'s `path::test STATUS [ 50%]`, `-rA`'s
 * `FAILED path::test - message`): which lines make a reading and which failures are named. The parser only tries
 * its patterns on lines that can match them; these cases sit on either side of that.
 */
import { describe, expect, it } from 'vitest';
import { pytestSummaries } from '../../src/core/tool-calls/checks/summaries-python';

const summary = (lines: string[]) =>
  pytestSummaries(lines).map((r) => ({ status: r.status, line: r.line, failures: r.failures }));

describe('pytestSummaries on single lines', () => {
  it('reads a summary line however it is framed, and only a summary line', () => {
    const reads: [string, string | null][] = [
      ['=== 1 passed in 0.12s ===', 'passed'],
      ['1 passed in 0.12s', 'passed'],
      ['== 2 failed, 1 passed in 3.40s (0:00:03) ==', 'failed'],
      ['2 failed, 1 passed in 3.40s (0:00:03)', 'failed'],
      ['===== 1 error in 0.05s =====   ', 'error'],
      ['   1 passed, 1 warning in 9s', 'passed'],
      ['=== no tests ran in 0.01s ===', 'error'],
      // Not summary lines: the time is not last, a word is not pytest's, or there is no time at all.
      ['=== 1 passed in 0.12s === extra', null],
      ['1 passed in 0.12s)', null],
      ['1 passed in 0.12', null],
      ['1 banana in 0.12s', null],
      ['=== 1 passed ===', null],
      ['', null],
      ['s', null],
      [')', null],
    ];
    for (const [line, status] of reads)
      expect(
        summary([line]).map((r) => r.status),
        line,
      ).toEqual(status === null ? [] : [status]);
  });

  it('names failures from -v and -rA lines, and not from lines that only look like them', () => {
    const lines = [
      'tests/test_a.py::test_one PASSED                                  [ 25%]',
      'tests/test_a.py::test_two FAILED                                  [ 50%]',
      'tests/test_a.py::T::test_three ERROR',
      'tests/test_a.py:test_four FAILED',
      'tests/test_a.py::test_five FAILEDX',
      'FAILED tests/test_b.py::test_six - AssertionError: assert 1 == 2',
      'ERROR tests/test_b.py',
      'sub::test FAILED',
      '=== 3 failed, 1 passed, 1 error in 0.50s ===',
    ];
    expect(summary(lines)).toEqual([
      {
        status: 'failed',
        line: '=== 3 failed, 1 passed, 1 error in 0.50s ===',
        failures: [
          'tests/test_a.py::test_two',
          'tests/test_a.py::T::test_three',
          'tests/test_b.py::test_six',
          'tests/test_b.py',
          'sub::test',
        ],
      },
    ]);
  });
});
