/**
 * Never throws on input: the generated Codex rollout and its subagent file, each line mutated at random (values of
 * the wrong type, keys dropped, arrays emptied, lines cut), 40 seeded rounds; a control checks the runs still reach
 * the inner paths (calls paired, patches, compactions, rollbacks).
 */
import { describe, expect, it } from 'vitest';
import { createCodexParser } from '../../src/core/importers/codex';
import type { TranscriptItem } from '../../src/core/importers/types';
import { createRandom } from '../helpers/random';
import { decodeLines } from '../fixtures/transcripts/claude-code';
import { mutateLine } from '../fixtures/transcripts/claude-code-mutate';
import { generateCodexSession } from '../fixtures/transcripts/codex';

const fixture = generateCodexSession(22, 20);
const small = (bytes: Uint8Array) => decodeLines(bytes).lines.filter((l) => l.length < 200_000);

describe('Codex parser fuzz', () => {
  it('reads mutated records without throwing, and still reaches its inner paths', () => {
    const kinds = new Map<string, number>();
    let withFiles = 0;
    for (let round = 0; round < 40; round++) {
      const random = createRandom(2000 + round);
      for (const file of [fixture.main, fixture.subagent]) {
        const parser = createCodexParser();
        const items: TranscriptItem[] = [];
        small(file.bytes).forEach((line, i) => {
          const mutated = random.next() < 0.5 ? mutateLine(random, line) : line;
          items.push(...parser.push(mutated, i + 1));
        });
        items.push(...parser.finish({ torn: random.next() < 0.5 }));
        for (const item of items) {
          kinds.set(item.kind, (kinds.get(item.kind) ?? 0) + 1);
          if (item.kind === 'tool_call' && item.files !== undefined) withFiles++;
        }
        expect(() => [parser.meta(), parser.stats(), parser.problems()]).not.toThrow();
      }
    }
    for (const kind of ['instruction', 'assistant', 'tool_call', 'compaction', 'rewind', 'other']) {
      expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
    expect(withFiles).toBeGreaterThan(0);
  }, 60_000);
});
