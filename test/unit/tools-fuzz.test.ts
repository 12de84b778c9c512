/**
 * The classifier never throws: random strings and random JSON (seeded) in every tool's input, and values JSON
 * cannot hold. The top-level guard (which turns a throw into a note) must never be what saves a call; a control
 * proves the check would see it. Bounded work on huge inputs: tools-bounds.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { applyEdit, classifyToolCall, type ToolCall, type ToolCallMeaning } from '../../src/core/tool-calls';
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
});
