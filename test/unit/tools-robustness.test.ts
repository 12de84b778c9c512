/**
 * The classifier never throws and does bounded work: random strings and random JSON in every tool's input,
 * hostile shell text (unterminated quotes, deep nesting, thousands of here-documents), a 5 MB output and a
 * 100 KB command line. The top-level guard (which turns a throw into a note) must never be what saves a call.
 */
import { describe, expect, it } from 'vitest';
import { applyEdit, classifyToolCall, type ToolCall, type ToolCallMeaning } from '../../src/core/tools';
import { createRandom, type Random } from '../helpers/random';

const tools = [
  'Bash',
  'shell',
  'exec_command',
  'local_shell_call',
  'run_shell_command',
  'execute_command',
  'Edit',
  'MultiEdit',
  'Write',
  'str_replace_editor',
  'replace',
  'write_file',
  'replace_in_file',
  'apply_diff',
  'insert_content',
  'apply_patch',
  'NotebookEdit',
  'Read',
  'Grep',
  'Glob',
  'LS',
  'read_many_files',
  'TodoWrite',
  'update_plan',
  'write_todos',
  'TaskCreate',
  'TaskUpdate',
  'mcp__x__edit_file',
  'Unknown',
  '',
  '__proto__',
  'constructor',
];
const keys = [
  'command',
  'cmd',
  'action',
  'workdir',
  'file_path',
  'path',
  'old_string',
  'new_string',
  'replace_all',
  'edits',
  'content',
  'file_text',
  'old_str',
  'new_str',
  'insert_line',
  'view_range',
  'diff',
  'input',
  'todos',
  'plan',
  'status',
  'step',
  'content',
  'taskId',
  'subject',
  'paths',
  'pattern',
  'offset',
  'limit',
  'line',
  'task_progress',
  '__proto__',
  'constructor',
  'toString',
];
const shellBits = [
  ' ',
  '\n',
  "'",
  '"',
  '\\',
  '$',
  '$(',
  ')',
  '(',
  '`',
  '{',
  '}',
  '|',
  '||',
  '&&',
  ';',
  '&',
  '>',
  '>>',
  '2>&1',
  '<',
  '<<',
  '<<-',
  "<<'EOF'",
  'EOF',
  '#',
  '*',
  'pytest',
  'npm test',
  'cd x',
  'sed -i',
  's/a/b/g',
  'bash -lc',
  'timeout 5',
  'git stash',
  'rm -rf',
  'cat > f',
  '*** Begin Patch',
  '*** Update File: a',
  '@@',
  '-x',
  '+y',
  '------- SEARCH',
  '=======',
  '+++++++ REPLACE',
  'Tests: 1 failed, 2 passed, 3 total',
  '=== 1 failed in 0.1s ===',
  'FAIL\tpkg\t0.1s',
  'Exit code 1',
  '\r',
  '\x1b[31m',
  '✖',
];

function randomString(r: Random, max = 60): string {
  let s = '';
  const n = r.int(0, max);
  for (let k = 0; k < n; k++) s += r.next() < 0.6 ? r.pick(shellBits) : String.fromCharCode(r.int(0, 0x2fff));
  return s;
}

function randomJson(r: Random, depth = 0): unknown {
  const roll = r.next();
  if (depth > 4 || roll < 0.25) return randomString(r);
  if (roll < 0.35) return r.int(-5, 1000);
  if (roll < 0.4) return r.next() < 0.5;
  if (roll < 0.45) return null;
  if (roll < 0.65) return Array.from({ length: r.int(0, 5) }, () => randomJson(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let k = r.int(0, 6); k > 0; k--) o[r.pick(keys)] = randomJson(r, depth + 1);
  return o;
}

function randomCall(r: Random): ToolCall {
  const input = r.next() < 0.3 ? randomString(r, 200) : randomJson(r);
  const call: Record<string, unknown> = { tool: r.pick(tools), input };
  if (r.next() < 0.6) call['output'] = randomString(r, 200);
  if (r.next() < 0.5) call['exitCode'] = r.pick([0, 1, 2, 5, 124, 127, null, -1, 1.5, NaN]);
  if (r.next() < 0.2) call['error'] = randomString(r, 30);
  if (r.next() < 0.2) call['result'] = randomJson(r);
  return call as unknown as ToolCall;
}

function assertSane(meaning: ToolCallMeaning) {
  expect(meaning.notes.filter((n) => n.startsWith('The classifier failed'))).toEqual([]);
  expect(() => JSON.stringify(meaning)).not.toThrow();
  for (const check of meaning.checks) expect(check.result.failures.length).toBeLessThanOrEqual(10);
  for (const effect of meaning.fileEffects) {
    const replayed = applyEdit('a\nb\n', effect);
    expect(typeof replayed.ok).toBe('boolean');
  }
}

describe('robustness', () => {
  it('never throws on 4,000 random calls (seeded)', () => {
    const r = createRandom(20261130);
    for (let k = 0; k < 4000; k++)
      assertSane(
        classifyToolCall(randomCall(r), {
          root: '/testbed',
          priorScriptRuns: { 'python x.py': { editsSince: 1 } },
        }),
      );
  });

  it('control: a call that does throw (a getter) is caught and said so — the check above would see it', () => {
    const hostile = {
      tool: 'Bash',
      get input(): unknown {
        throw new Error('boom');
      },
    } as unknown as ToolCall;
    const meaning = classifyToolCall(hostile);
    expect(meaning.kind).toBe('other');
    expect(meaning.notes).toEqual(['The classifier failed on this call: boom']);
  });

  it('never throws on values outside JSON', () => {
    const odd: unknown[] = [
      undefined,
      Symbol('s'),
      10n,
      () => 1,
      new Map(),
      Object.create(null),
      [1, [2, [3]]],
      new Date(0),
    ];
    for (const input of odd) {
      for (const tool of tools)
        assertSane(classifyToolCall({ tool, input, output: 'x', result: input } as ToolCall));
    }
    assertSane(classifyToolCall({ tool: 42, input: null } as unknown as ToolCall));
  });

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
