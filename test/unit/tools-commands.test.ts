import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/core/tool-calls';
import { allCommandCases, type CommandCase } from '../fixtures/tool-calls/commands';

function run(c: CommandCase) {
  const meaning = classifyToolCall({ tool: 'Bash', input: { command: c.command }, output: '', exitCode: 0 });
  return {
    checks: meaning.checks.map((check) => [check.id, check.kind]),
    effects: meaning.fileEffects.map((e) => `${e.kind}:${e.path}`),
    reads: meaning.reads.map((r) => `${r.kind}:${r.path}`),
    kind: meaning.kind,
    notes: meaning.notes,
  };
}

describe('command lines: checks, file effects, reads', () => {
  it('has at least 150 cases', () => {
    expect(allCommandCases.length).toBeGreaterThanOrEqual(150);
  });

  it.each(allCommandCases.map((c) => [c.command, c] as const))('%s', (_name, c) => {
    const got = run(c);
    expect(got.checks).toEqual(c.checks);
    if (c.effects) expect(got.effects).toEqual(c.effects);
    if (c.reads) expect(got.reads).toEqual(c.reads);
    if (c.kind) expect(got.kind).toBe(c.kind);
    expect(got.notes).toEqual([]);
  });
});
