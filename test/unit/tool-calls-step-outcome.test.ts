/**
 * `stepOutcome` — what an import's line reader uses to write a step ahead without classifying the call — says the
 * exit code and error the classification says, for every kind of call: the Codex and Claude Code streams' calls,
 * and a table of edge cases (edits refused, read and plan tools, errors, flags, envelopes, empty inputs).
 */
import { describe, expect, it } from 'vitest';
import { classifyToolCall, stepOutcome } from '../../src/core/tool-calls';
import type { ToolCall } from '../../src/core/tool-calls/types';
import { createClaudeCodeParser } from '../../src/core/importers/claude-code';
import { createCodexParser } from '../../src/core/importers/codex';
import { codexStream, type CodexStreamCounts } from '../fixtures/transcripts/codex-stream';
import { claudeCodeStream, type StreamCounts } from '../fixtures/transcripts/claude-code-stream';

const edgeCases: ToolCall[] = [
  { tool: 'Bash', input: { command: 'npm test' }, output: 'Exit code 1\nFAIL src/a.test.ts', isError: true },
  { tool: 'Bash', input: { command: 'ls' }, output: 'a\nb', result: { interrupted: false } },
  {
    tool: 'exec_command',
    input: { cmd: 'pytest -q' },
    output: '{"output":"1 failed","metadata":{"exit_code":1}}',
  },
  { tool: 'shell', input: { command: ['bash', '-lc', 'make'] }, output: 'ok', exitCode: 0 },
  { tool: 'shell', input: {}, output: 'no command' },
  { tool: 'run_shell_command', input: { command: 'false' }, error: 'Command failed', exitCode: 1 },
  { tool: 'submit', input: {}, output: 'diff --git a/x b/x' },
  {
    tool: 'apply_patch',
    input: { input: '*** Begin Patch\n*** End Patch' },
    output: 'Invalid patch: no hunks',
  },
  {
    tool: 'apply_patch',
    input: { input: '*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch' },
    output: 'Done!',
  },
  {
    tool: 'Edit',
    input: { file_path: '/p/a.ts', old_string: 'a', new_string: 'b' },
    error: 'String not found',
  },
  { tool: 'Write', input: { file_path: '/p/a.ts', content: 'x' }, output: 'ok', exitCode: 3 },
  {
    tool: 'str_replace_editor',
    input: { command: 'create', path: '/p/b.py', file_text: 'x' },
    isError: true,
    output: 'exists',
  },
  { tool: 'Read', input: { file_path: '/p/a.ts' }, output: '1\ta', exitCode: 2 },
  { tool: 'Grep', input: { pattern: 'x' }, error: 'bad regex' },
  { tool: 'TodoWrite', input: { todos: [{ content: 'a', status: 'pending' }] }, output: 'ok' },
  { tool: 'update_plan', input: { plan: [] }, error: 'empty' },
  { tool: 'WebFetch', input: { url: 'https://example.com' }, output: 'page', exitCode: 0 },
  { tool: 'mcp__github__create_issue', input: null, isError: true, output: 'denied' },
  { tool: '', input: 'echo hi', output: '' },
];

function streamCalls(): ToolCall[] {
  const calls: ToolCall[] = [];
  const codex = createCodexParser();
  const c1: CodexStreamCounts = { lines: 0, prompts: 0, calls: 0 };
  let n = 0;
  for (const line of codexStream(3, 3_000, c1))
    for (const item of codex.push(line, ++n)) if (item.kind === 'tool_call') calls.push(item.call);
  const claude = createClaudeCodeParser();
  const c2: StreamCounts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
  n = 0;
  for (const line of claudeCodeStream(3, 3_000, c2))
    for (const item of claude.push(line, ++n)) if (item.kind === 'tool_call') calls.push(item.call);
  return calls;
}

describe('stepOutcome', () => {
  it.each([
    ['edge cases', () => edgeCases],
    ['the Codex and Claude Code streams', streamCalls],
  ])('%s: the exit code and error the classification states', (_, calls) => {
    const all = calls();
    expect(all.length).toBeGreaterThan(edgeCases.length - 1);
    for (const call of all) {
      const { exitCode, error } = classifyToolCall(call, { priorScriptRuns: {}, root: '/p' });
      expect(stepOutcome(call), JSON.stringify(call).slice(0, 200)).toEqual({ exitCode, error });
    }
    // Not all alike: exit codes known and not, errors where the calls have them.
    const outcomes = all.map(stepOutcome);
    expect(outcomes.some((o) => o.exitCode !== null)).toBe(true);
    expect(outcomes.some((o) => o.exitCode === null)).toBe(true);
    if (all === edgeCases) expect(outcomes.filter((o) => o.error !== null).length).toBeGreaterThan(5);
  });
});
