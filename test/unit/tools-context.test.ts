/**
 * What needs more than one call: ad-hoc checks (a script run again after edits, by the context the engine keeps),
 * several checks in one call sharing an exit code, and a plain step's text kept for search.
 */
import { describe, expect, it } from 'vitest';
import { classifyToolCall, type ClassifyContext } from '../../src/core/tool-calls';

const run = (command: string, context?: ClassifyContext, output = '', exitCode: number | null = 0) =>
  classifyToolCall({ tool: 'Bash', input: { command }, output, exitCode }, context);

describe('ad-hoc checks', () => {
  it('a plain script is a script run, not a check — until it is run again after edits', () => {
    const first = run('python scratch.py');
    expect(first.checks).toEqual([]);
    expect(first.scripts).toEqual([
      { id: 'python scratch.py', interpreter: 'python', path: 'scratch.py', args: [] },
    ]);
    const again = run('python scratch.py', { priorScriptRuns: { 'python scratch.py': { editsSince: 2 } } });
    expect(again.checks.map((c) => [c.id, c.certainty, c.result.status])).toEqual([
      ['python scratch.py', 'rerun', 'passed'],
    ]);
    const noEdits = run('python scratch.py', { priorScriptRuns: { 'python scratch.py': { editsSince: 0 } } });
    expect(noEdits.checks).toEqual([]);
  });

  it('a script named for a check is a candidate on its first run', () => {
    const meaning = run(
      'python reproduce_issue.py',
      undefined,
      'Traceback (most recent call last):\nKeyError: x',
      1,
    );
    expect(meaning.checks[0]).toMatchObject({
      id: 'python reproduce_issue.py',
      kind: 'script',
      certainty: 'candidate',
      result: { status: 'failed' },
    });
  });

  it('relative to the root, /testbed/x.py and x.py after cd /testbed are one script', () => {
    const context = { root: '/testbed' };
    expect(run('python /testbed/reproduce.py', context).scripts[0]?.id).toBe('python reproduce.py');
    expect(run('cd /testbed && python reproduce.py', context).scripts[0]?.id).toBe('python reproduce.py');
  });

  it('ignores a context key that is an Object.prototype name', () => {
    expect(run('python constructor', { priorScriptRuns: {} }).checks).toEqual([]);
  });
});

describe('several checks in one call', () => {
  const lint = '/w/a.ts\n  1:1  error  Bad  no-var\n\n✖ 1 problem (1 error, 0 warnings)\n';
  const jestPass = 'Tests:       3 passed, 3 total\n';

  it('exit 0 through && means both passed', () => {
    expect(run('npm run lint && npm test').checks.map((c) => c.result.status)).toEqual(['passed', 'passed']);
  });

  it('a shared non-zero exit goes to the one not shown to pass', () => {
    const results = run(
      'npm run lint && npm test',
      undefined,
      `all clean\n${'Tests:       1 failed, 2 passed, 3 total\n'}`,
      1,
    ).checks;
    expect(results.map((c) => [c.result.status, c.result.resultFrom])).toEqual([
      ['unknown', 'none'],
      ['failed', 'summary'],
    ]);
    const withLintSummary = run(
      'npx eslint . && npm test',
      undefined,
      '✖ 0 problems (0 errors, 0 warnings)\n',
      1,
    ).checks;
    expect(withLintSummary.map((c) => [c.result.status, c.result.resultFrom])).toEqual([
      ['passed', 'summary'],
      ['failed', 'exit-code'],
    ]);
  });

  it('after a failed check joined by &&, the next one did not run', () => {
    const results = run('npx eslint src && npm test', undefined, lint, 1).checks;
    expect(results[0]?.result.status).toBe('failed');
    expect(results[1]?.result).toMatchObject({
      status: 'unknown',
      note: 'not run: an earlier check joined by && failed',
    });
  });

  it('checks of one runner take their summaries in order', () => {
    const out = '1 passed in 0.1s\n2 failed, 1 passed in 0.2s\n';
    const results = run('pytest a.py; pytest b.py', undefined, out, 1).checks;
    expect(results.map((c) => [c.id, c.result.status, c.result.resultFrom, c.result.counts?.failed])).toEqual(
      [
        ['pytest a.py', 'passed', 'summary', 0],
        ['pytest b.py', 'failed', 'exit-code', 2],
      ],
    );
  });

  it('a jest check beside a failing lint reads its own summary', () => {
    const results = run('npm run lint; npm test', undefined, lint + jestPass, 0).checks;
    expect(results.map((c) => [c.result.status, c.result.resultFrom])).toEqual([
      ['failed', 'summary'],
      ['passed', 'exit-code'],
    ]);
  });
});

describe('plain steps', () => {
  it('keeps the command text of an unknown tool for search', () => {
    const meaning = classifyToolCall({
      tool: 'WebFetch',
      input: { url: 'https://example.com/docs', prompt: 'read' },
    });
    expect(meaning).toMatchObject({ kind: 'other', family: 'unknown', command: 'https://example.com/docs' });
    expect(run('git log --oneline').command).toBe('git log --oneline');
  });

  it('reads exit codes that agents write into the output', () => {
    const check = (output: string) =>
      classifyToolCall({ tool: 'shell', input: { command: 'pytest' }, output }).checks[0]?.result;
    expect(check('Exit code: 1\nWall time: 0.5 seconds\nOutput:\n1 failed in 0.1s')).toMatchObject({
      exitCode: 1,
      resultFrom: 'exit-code',
    });
    expect(
      check(
        JSON.stringify({ output: '3 passed in 0.2s\n', metadata: { exit_code: 0, duration_seconds: 0.3 } }),
      ),
    ).toMatchObject({
      status: 'passed',
      exitCode: 0,
      counts: { passed: 3 },
    });
    expect(check('<returncode>2</returncode>\n<output>\nerror\n</output>')).toMatchObject({
      exitCode: 2,
      status: 'error',
    });
    expect(check('...\n[The command completed with exit code 0.]')).toMatchObject({
      exitCode: 0,
      status: 'passed',
    });
  });
});
