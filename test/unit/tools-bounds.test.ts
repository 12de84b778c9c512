/**
 * Bounded work: hostile shell text (unterminated quotes, deep nesting, thousands of here-documents), a 5 MB output,
 * a 100 KB command line, megabyte lines that look like summaries, and replays on a 200,000-line body — each well
 * under the limits below on a loaded 2-core machine (linear scans, no backtracking regular expressions).
 */
import { describe, expect, it } from 'vitest';
import { applyEdit, classifyToolCall, type ToolCallMeaning } from '../../src/core/tool-calls';

function assertSane(meaning: ToolCallMeaning) {
  expect(meaning.notes.filter((n) => n.startsWith('The classifier failed'))).toEqual([]);
  for (const check of meaning.checks) expect(check.result.failures.length).toBeLessThanOrEqual(10);
}

describe('bounds', () => {
  it('handles hostile shell text in bounded time', () => {
    const cases = [
      '$('.repeat(20_000),
      '"'.repeat(50_001),
      "'".repeat(50_001),
      '`'.repeat(50_001),
      'cat <<EOF\n'.repeat(5_000),
      'a && '.repeat(20_000),
      'bash -c "'.repeat(2_000),
      ' '.repeat(100_000) + 'x',
      '='.repeat(100_000),
      `sed -i '${'s/a/b/;'.repeat(10_000)}' f`,
      `echo ${'x'.repeat(100_000)} > f`,
    ];
    for (const command of cases) {
      const started = performance.now();
      assertSane(classifyToolCall({ tool: 'Bash', input: { command }, output: command, exitCode: 1 }));
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  it('reads a 5 MB output and a 100 KB command line quickly, and their summaries still count', () => {
    const noise = 'tests/test_x.py::test_case PASSED                                   [ 50%]\n';
    const output =
      noise.repeat(Math.ceil(5_000_000 / noise.length)) +
      'FAILED tests/a.py::t - x\n=== 1 failed, 99 passed in 9.9s ===\n';
    const command = `pytest ${'tests/test_a.py '.repeat(6_500)}`;
    expect(output.length).toBeGreaterThan(5_000_000);
    expect(command.length).toBeGreaterThan(100_000);
    const started = performance.now();
    const meaning = classifyToolCall({
      tool: 'Bash',
      input: { command: `${command} | tail -5` },
      output,
      exitCode: 0,
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(meaning.checks[0]?.result).toMatchObject({
      status: 'failed',
      resultFrom: 'summary',
      counts: { failed: 1, passed: 99 },
    });
  });

  it('bounds huge lines and pathological summary-like text', () => {
    const lines = [
      'FAIL ' + ' > '.repeat(100_000),
      '='.repeat(1_000_000) + ' 1 passed in ',
      'src/x.ts' + ':1'.repeat(200_000) + ' error TS',
      ' '.repeat(1_000_000) + '✖',
      'Tests: ' + '1 failed, '.repeat(100_000),
    ].join('\n');
    const started = performance.now();
    for (const command of [
      'npm test',
      'pytest',
      'tsc',
      'npx eslint .',
      'go test ./...',
      'cargo test',
      'make check',
    ]) {
      assertSane(classifyToolCall({ tool: 'Bash', input: { command }, output: lines }));
    }
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('replays edits on a large body in bounded time', () => {
    const body = 'line\n'.repeat(200_000);
    const patch = `*** Begin Patch\n*** Update File: f\n@@\n-${'nomatch\n-'.repeat(500)}x\n+y\n*** End Patch`;
    const [effect] = classifyToolCall({ tool: 'apply_patch', input: patch }).fileEffects;
    const started = performance.now();
    expect(applyEdit(body, effect as never).ok).toBe(false);
    const [sed] = classifyToolCall({
      tool: 'Bash',
      input: { command: "sed -i 's/line/LINE/g' f" },
    }).fileEffects;
    expect(applyEdit(body, sed as never)).toMatchObject({ ok: true });
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
