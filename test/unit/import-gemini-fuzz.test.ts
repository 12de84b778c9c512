/**
 * No importer of these formats throws on input: seeded random records built from each format's own vocabulary
 * (keys and kinds), values of every JSON type in every place, and the fixtures cut at random points. A control
 * proves the random records reach the parsers' inner paths (they produce tool calls and instructions).
 */
import { describe, expect, it } from 'vitest';
import { parseClineTask } from '../../src/core/importers/cline';
import { createGeminiLineParser, parseGeminiChatJson } from '../../src/core/importers/gemini';
import { parseOpenHandsConversation } from '../../src/core/importers/openhands';
import { parseMiniSweAgentTrajectory, parseSweAgentTrajectory } from '../../src/core/importers/swe-agent';
import type { TranscriptItem } from '../../src/core/importers/types';
import { createRandom, type Random } from '../helpers/random';

const keys = [
  'id',
  'type',
  'kind',
  'role',
  'content',
  'text',
  'toolCalls',
  'name',
  'args',
  'status',
  'result',
  '$set',
  '$rewindTo',
  'messages',
  'sessionId',
  'projectHash',
  'thoughts',
  'functionResponse',
  'response',
  'output',
  'error',
  'parent_id',
  'tool_call_id',
  'tool_name',
  'action',
  'observation',
  'llm_message',
  'source',
  'exit_code',
  'metadata',
  'trajectory',
  'history',
  'info',
  'extra',
  'actions',
  'command',
  'returncode',
  'raw_output',
  'tool_use_id',
  'input',
  'isSummary',
  'ts',
  'say',
  'ask',
  'conversationHistoryIndex',
  'conversationHistoryDeletedRange',
  'version',
  'tool_calls',
  'function',
  'arguments',
  'forgotten_event_ids',
  'summary',
  'path',
  'old_content',
  'new_content',
  'prev_exist',
  'timestamp',
  'thought',
  'reasoning_content',
];
const words = [
  'user',
  'gemini',
  'assistant',
  'tool',
  'exit',
  'success',
  'error',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'Condensation',
  'tool_use',
  'tool_result',
  'tool-call',
  'tool-result',
  'text',
  'run_shell_command',
  'terminal',
  '<task>\nx\n</task>',
  "[execute_command for 'ls'] Result:",
  '<execute_command><command>ls</command></execute_command>',
  '<returncode>1</returncode>\n<output>\nx\n</output>',
  '```bash\nls\n```',
  '<state_snapshot>',
  '2026-11-20T09:00:00',
  'Output: x\nExit Code: 2',
  '__root__',
  'c1',
  'm1',
];

function value(random: Random, depth: number): unknown {
  const r = random.int(0, depth > 3 ? 5 : 9);
  switch (r) {
    case 0:
      return null;
    case 1:
      return random.int(-5, 5);
    case 2:
      return random.next() < 0.5;
    case 3:
    case 4:
      return random.pick(words);
    case 5:
    case 6:
      return record(random, depth + 1);
    default:
      return Array.from({ length: random.int(0, 4) }, () =>
        random.next() < 0.6 ? record(random, depth + 1) : value(random, depth + 1),
      );
  }
}

function record(random: Random, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let k = random.int(0, 7); k > 0; k--) out[random.pick(keys)] = value(random, depth);
  return out;
}

const kinds = (items: readonly TranscriptItem[]) => new Set(items.map((i) => i.kind));

describe('importers never throw', () => {
  it("on random records in each format's vocabulary, and those records reach the inner paths", () => {
    const random = createRandom(20261201);
    const seen = new Set<string>();
    for (let round = 0; round < 400; round++) {
      const records = Array.from({ length: random.int(1, 12) }, () => record(random));
      const json = (v: unknown) => JSON.stringify(v);
      const gemini = createGeminiLineParser();
      const lines = records.map(json);
      const items = lines.flatMap((line, k) => gemini.push(line, k + 1));
      items.push(...gemini.finish({ torn: random.next() < 0.5 }));
      const parsed = [
        { items },
        parseGeminiChatJson(json({ sessionId: 's', projectHash: 'p', messages: records })),
        parseClineTask({
          apiConversationHistory: json(random.next() < 0.5 ? records : { version: 2, messages: records }),
          uiMessages: json(records.map((r) => ({ ...r, ts: random.int(0, 9) }))),
          taskMetadata: json(record(random)),
        }),
        parseOpenHandsConversation(
          records.map((r, k) => ({
            name: `events/event-${String(k).padStart(5, '0')}-0123abcd-ef.json`,
            text: json(r),
          })),
        ),
        parseSweAgentTrajectory(json({ trajectory: records, history: records, info: record(random) })),
        parseMiniSweAgentTrajectory(json({ info: record(random), messages: records })),
      ];
      for (const p of parsed) for (const kind of kinds(p.items)) seen.add(kind);
    }
    // The control: random records did get past the shape checks.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining(['assistant', 'compaction', 'instruction', 'other', 'rewind', 'tool_call']),
    );
  });

  it('on text cut at random points', () => {
    const random = createRandom(7);
    const doc = JSON.stringify(
      {
        sessionId: 's',
        projectHash: 'p',
        messages: [{ id: 'm', type: 'user', content: 'hi' }],
        trajectory: [{ action: 'ls', observation: 'x' }],
        info: {},
      },
      null,
      2,
    );
    for (let k = 0; k < 300; k++) {
      const cut = doc.slice(0, random.int(0, doc.length));
      const p = createGeminiLineParser();
      cut.split('\n').forEach((line, n) => p.push(line, n + 1));
      p.finish({ torn: true });
      for (const parse of [parseGeminiChatJson, parseSweAgentTrajectory, parseMiniSweAgentTrajectory]) {
        expect(parse(cut).stats).toBeDefined();
      }
      expect(
        parseClineTask({ apiConversationHistory: cut, uiMessages: cut, taskMetadata: cut }).stats,
      ).toBeDefined();
      expect(
        parseOpenHandsConversation([
          { name: 'events/event-00000-0123abcd-e.json', text: cut },
          { name: 'base_state.json', text: cut },
        ]).stats,
      ).toBeDefined();
    }
  });
});
