/**
 * Never throws on input: the generated Claude Code session and its subagent file, each line mutated at random
 * (values of the wrong type, keys dropped, arrays emptied, lines cut), 30 seeded rounds. A control checks the
 * mutated runs still reach the inner paths (tool calls paired, compactions, threads).
 */
import { describe, expect, it } from 'vitest';
import { createClaudeCodeParser } from '../../src/core/importers/claude-code';
import type { TranscriptItem } from '../../src/core/importers/types';
import { createRandom } from '../helpers/random';
import { decodeLines, generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { mutateLine } from '../fixtures/transcripts/claude-code-mutate';

const fixture = generateClaudeCodeSession(21, 26);
const small = (bytes: Uint8Array) => decodeLines(bytes).lines.filter((l) => l.length < 200_000);

describe('Claude Code parser fuzz', () => {
  it('reads mutated records without throwing, and still reaches its inner paths', () => {
    const kinds = new Map<string, number>();
    for (let round = 0; round < 30; round++) {
      const random = createRandom(1000 + round);
      for (const [file, options] of [
        [fixture.main, {}],
        [fixture.subagent, { thread: { id: 'agent-x' } }],
      ] as const) {
        const parser = createClaudeCodeParser(options);
        const items: TranscriptItem[] = [];
        small(file.bytes).forEach((line, i) => {
          const mutated = random.next() < 0.5 ? mutateLine(random, line) : line;
          items.push(...parser.push(mutated, i + 1));
        });
        items.push(...parser.finish({ torn: random.next() < 0.5 }));
        for (const item of items) kinds.set(item.kind, (kinds.get(item.kind) ?? 0) + 1);
        expect(() => [parser.meta(), parser.stats(), parser.problems()]).not.toThrow();
      }
    }
    for (const kind of [
      'instruction',
      'assistant',
      'tool_call',
      'compaction',
      'thread',
      'file_backup',
      'other',
      'rewind',
    ]) {
      expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  }, 60_000);
});
