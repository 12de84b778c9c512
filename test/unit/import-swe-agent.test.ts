/**
 * SWE-agent `.traj` and mini-swe-agent `.traj.json` against the generators' own record
 * (test/fixtures/transcripts/swe-agent.ts): the task, every command, files changed and checks; the step or
 * message that is not an object (named by index, the rest read), unknown keys and roles, the format error, the
 * 5 MB output (whole from `raw_output` though the text elides it), U+FFFD, exit codes where the format has them.
 */
import { describe, expect, it } from 'vitest';
import { parseMiniSweAgentTrajectory, parseSweAgentTrajectory } from '../../src/core/importers/swe-agent';
import {
  generateMiniSweAgentTrajectory,
  generateSweAgentTrajectory,
} from '../fixtures/transcripts/swe-agent';
import { expectTruth } from './import-gemini-truth';

describe('SWE-agent .traj', () => {
  const { text, name, truth } = generateSweAgentTrajectory();
  const parsed = parseSweAgentTrajectory(text, { name });

  it('is long, and the task, every command, file change and check is accounted for', () => {
    expect(truth.records).toBeGreaterThanOrEqual(200);
    expect(parsed.stats.records).toBe(truth.records);
    // The root: the submit step's patch names its files from the repository's top (/testbed).
    expectTruth(parsed.items, truth, '/testbed');
    expect(truth.checks.map((c) => c.status)).toEqual(expect.arrayContaining(['passed', 'failed']));
    expect(truth.filesChanged.length).toBeGreaterThan(5);
  });

  it('reads the run: instance, working directory, model, version; keeps the submission; no exit codes', () => {
    expect(parsed.meta).toMatchObject({
      agent: 'swe-agent',
      sessionId: 'pallets__flask-5063',
      cwd: '/testbed',
      model: 'claude-sonnet-4-5-20250929',
      version: '1.1.0',
    });
    expect(parsed.items.at(-1)).toMatchObject({ kind: 'run_end', outcome: 'submitted' });
    expect(parsed.items.at(-2)).toMatchObject({ kind: 'other', recordType: 'submission' });
    const calls = parsed.items.flatMap((i) => (i.kind === 'tool_call' ? [i.call] : []));
    expect(calls.every((c) => c.exitCode === null)).toBe(true);
    expect(calls.some((c) => (c.output?.length ?? 0) >= 5 * 1024 * 1024)).toBe(true);
    expect(calls.some((c) => c.output?.includes('\uFFFD'))).toBe(true);
  });

  it('reports the step that is not an object by its index, counts the unknown key, parses the rest', () => {
    expect(parsed.problems).toEqual(
      truth.malformedLines.map((line) => ({ line, message: 'step is not an object' })),
    );
    expect(parsed.stats.unknown).toEqual(truth.unknown);
    expect(parseSweAgentTrajectory('{"history": []}').problems[0]?.message).toMatch(/no trajectory array/);
    expect(parseSweAgentTrajectory(text.slice(0, 1000)).problems[0]?.line).toBe(1);
  });
});

describe('mini-swe-agent .traj.json', () => {
  const { text, name, truth } = generateMiniSweAgentTrajectory();
  const parsed = parseMiniSweAgentTrajectory(text, { name });

  it('is long, and the task, every command, file change and check is accounted for', () => {
    expect(truth.records).toBeGreaterThanOrEqual(200);
    expect(parsed.stats.records).toBe(truth.records);
    expectTruth(parsed.items, truth);
    expect(truth.checks.map((c) => c.status)).toEqual(expect.arrayContaining(['passed', 'failed']));
  });

  it('reads <returncode>, the whole output from raw_output, U+FFFD, and ends with the exit and its submission', () => {
    const calls = parsed.items.flatMap((i) => (i.kind === 'tool_call' ? [i.call] : []));
    expect(calls.slice(0, -1).every((c) => c.exitCode === 0)).toBe(true);
    expect(calls.some((c) => (c.output?.length ?? 0) >= 5 * 1024 * 1024)).toBe(true);
    expect(calls.some((c) => c.output?.includes('\uFFFD'))).toBe(true);
    expect(calls.at(-1)).toMatchObject({ output: expect.stringContaining('diff --git'), exitCode: null });
    expect(parsed.items.at(-1)).toMatchObject({ kind: 'run_end', outcome: 'submitted' });
    expect(parsed.items.at(-2)).toMatchObject({ kind: 'other', recordType: 'exit' });
    expect(parsed.meta).toMatchObject({
      agent: 'mini-swe-agent',
      sessionId: 'pallets__flask-5063',
      cwd: '/testbed',
      model: 'anthropic/claude-sonnet-4-5-20250929',
      version: '2.1.0',
    });
    expect(parsed.meta.startedAt).toBeGreaterThan(Date.UTC(2026, 10, 24, 7, 0, 0));
  });

  it('skips the format error, reports the message that is not an object, counts the unknown role', () => {
    expect(parsed.stats.skipped).toEqual({ 'format-error or notice': 1 });
    expect(parsed.problems).toEqual(
      truth.malformedLines.map((line) => ({ line, message: 'message is not an object' })),
    );
    expect(parsed.stats.unknown).toEqual(truth.unknown);
  });

  it('reads tool-call mode: actions with their ids, results in role "tool" messages', () => {
    const doc = {
      info: {},
      messages: [
        { role: 'user', content: 'Fix it.' },
        {
          role: 'assistant',
          content: 'THOUGHT: look',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command": "ls"}' } },
          ],
          extra: { actions: [{ command: 'ls', tool_call_id: 'c1' }] },
        },
        {
          role: 'tool',
          tool_call_id: 'c1',
          content: '<returncode>0</returncode>\n<output>\nsrc\n</output>',
          extra: { raw_output: 'src\n', returncode: 0 },
        },
        {
          role: 'assistant',
          content: 'THOUGHT: again',
          tool_calls: [
            { id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command": "pwd"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c2', content: '<returncode>2</returncode>\n<output>\nno\n</output>' },
      ],
      trajectory_format: 'mini-swe-agent-1.1',
    };
    const calls = parseMiniSweAgentTrajectory(JSON.stringify(doc)).items.flatMap((i) =>
      i.kind === 'tool_call' ? [i] : [],
    );
    expect(calls.map((c) => [c.callId, c.call.input, c.call.output, c.call.exitCode])).toEqual([
      ['c1', { command: 'ls' }, 'src\n', 0],
      ['c2', { command: 'pwd' }, 'no', 2],
    ]);
  });

  it('reads the older text form without extra: returncode and output from the text', () => {
    const old = {
      info: { exit_status: 'Submitted', submission: '' },
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'Fix the bug.' },
        { role: 'assistant', content: 'THOUGHT: run it\n\n```bash\npytest -q\n```' },
        {
          role: 'user',
          content: '<returncode>1</returncode>\n<output>\n1 failed, 2 passed in 0.1s\n</output>',
        },
      ],
      trajectory_format: 'mini-swe-agent-1',
    };
    const p = parseMiniSweAgentTrajectory(JSON.stringify(old));
    expect(
      p.items.filter((i) => i.kind === 'tool_call').map((i) => (i.kind === 'tool_call' ? i.call : null)),
    ).toEqual([
      { tool: 'bash', input: { command: 'pytest -q' }, output: '1 failed, 2 passed in 0.1s', exitCode: 1 },
    ]);
    expect(p.items[0]).toMatchObject({ kind: 'instruction', text: 'Fix the bug.' });
  });
});
