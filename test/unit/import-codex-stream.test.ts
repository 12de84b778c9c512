/**
 * Streaming in bounded memory: a 100,000-line Codex rollout (~0.5 KB a line on average) parsed with the heap
 * measured after a full GC; a control run that keeps one line in five shows the measure sees an accumulation.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createCodexParser } from '../../src/core/importers/codex';
import { codexStream, type CodexStreamCounts } from '../fixtures/transcripts/codex-stream';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function run(keepEvery: number | null) {
  const counts: CodexStreamCounts = { lines: 0, prompts: 0, calls: 0 };
  const kept: string[] = [];
  const parser = createCodexParser();
  let instructions = 0;
  let calls = 0;
  let bytes = 0;
  const before = heapAfterGc();
  let n = 0;
  for (const line of codexStream(5, 100_000, counts)) {
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

describe('Codex parser memory', () => {
  it('parses 100,000 lines with the heap bounded, not growing with the input', () => {
    const r = run(null);
    expect(r.counts.lines).toBe(100_000);
    expect(r.bytes).toBeGreaterThan(40_000_000);
    expect(r.instructions).toBe(r.counts.prompts);
    expect(r.calls).toBe(r.counts.calls);
    expect(r.parser.stats().duplicates).toBeGreaterThan(r.counts.prompts);
    expect(r.growth).toBeLessThan(2 * 1024 * 1024);
  }, 120_000);

  it('control: keeping one line in five is seen by the same measure', () => {
    const r = run(5);
    expect(r.kept).toBe(20_000);
    expect(r.growth).toBeGreaterThan(2 * 1024 * 1024);
  }, 120_000);
});
