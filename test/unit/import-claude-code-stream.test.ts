/**
 * Streaming in bounded memory: a 100,000-line Claude Code session (most of it `progress` records, ~1 KB a line)
 * parsed with the heap measured after a full GC — growth bounded by the ids it must keep, not by the input. A
 * control run that keeps one line in ten shows the measure would see an accumulation. And `progress` records are
 * skipped without a JSON.parse.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { createClaudeCodeParser } from '../../src/core/importers/claude-code';
import { claudeCodeStream, type StreamCounts } from '../fixtures/transcripts/claude-code-stream';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function run(lines: number, keepEvery: number | null) {
  const counts: StreamCounts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
  const kept: string[] = [];
  const parser = createClaudeCodeParser();
  let instructions = 0;
  let calls = 0;
  let bytes = 0;
  const before = heapAfterGc();
  let n = 0;
  for (const line of claudeCodeStream(7, lines, counts)) {
    n++;
    bytes += line.length;
    if (keepEvery !== null && n % keepEvery === 0) kept.push(line);
    for (const item of parser.push(line, n)) {
      if (item.kind === 'instruction') instructions++;
      if (item.kind === 'tool_call') calls++;
    }
  }
  for (const item of parser.finish()) if (item.kind === 'tool_call') calls++;
  const growth = heapAfterGc() - before;
  return { counts, parser, instructions, calls, bytes, growth, kept: kept.length };
}

describe('Claude Code parser memory', () => {
  it('parses 100,000 lines with the heap bounded by the ids it keeps, not by the input', () => {
    const r = run(100_000, null);
    expect(r.counts.lines).toBe(100_000);
    expect(r.bytes).toBeGreaterThan(90_000_000);
    expect(r.instructions).toBe(r.counts.prompts);
    expect(r.calls).toBe(r.counts.calls);
    expect(r.parser.stats().skipped['progress']).toBe(r.counts.progress);
    // ~17k non-progress records: their uuids (and tips) are what stays — a few MB, never the ~95 MB read.
    expect(r.growth).toBeLessThan(12 * 1024 * 1024);
  }, 120_000);

  it('control: keeping one line in ten is seen by the same measure', () => {
    const r = run(100_000, 10);
    expect(r.kept).toBe(10_000);
    expect(r.growth).toBeGreaterThan(12 * 1024 * 1024);
  }, 120_000);

  it('skips progress records without parsing them', () => {
    const counts: StreamCounts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
    const lines = [...claudeCodeStream(3, 2_400, counts)];
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const parser = createClaudeCodeParser();
      lines.forEach((line, i) => parser.push(line, i + 1));
      expect(parser.stats().skipped['progress']).toBe(counts.progress);
      expect(counts.progress).toBeGreaterThan(lines.length * 0.8);
      expect(parse).toHaveBeenCalledTimes(lines.length - counts.progress);
    } finally {
      parse.mockRestore();
    }
  });
});
