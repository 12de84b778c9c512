/**
 * The Claude Code parser line by line on hand-written records: a malformed line reported by number with the rest
 * read, a torn last line told apart from a malformed one, rewinds only where a person branches off the tip, a
 * nested `"type":"progress"` that is not a progress record, calls flushed without a result.
 */
import { describe, expect, it } from 'vitest';
import { createClaudeCodeParser } from '../../src/core/importers/claude-code';
import type { TranscriptItem } from '../../src/core/importers/types';

type Of<K extends TranscriptItem['kind']> = Extract<TranscriptItem, { kind: K }>;
const of = <K extends TranscriptItem['kind']>(items: TranscriptItem[], kind: K) =>
  items.filter((i): i is Of<K> => i.kind === kind);

describe('Claude Code bad input', () => {
  const good = (uuid: string, parent: string | null, text: string) =>
    JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      type: 'user',
      message: { role: 'user', content: text },
      uuid,
      sessionId: 's',
      timestamp: '2026-11-20T09:00:00.000Z',
    });

  it('reports a malformed line by number and reads the rest', () => {
    const p = createClaudeCodeParser();
    const out = [
      ...p.push(good('u1', null, 'first'), 1),
      ...p.push('{"type":"user", oops', 2),
      ...p.push('[1,2]', 3),
    ];
    out.push(...p.push(good('u2', 'u1', 'second'), 4), ...p.finish());
    expect(of(out, 'instruction').map((i) => i.text)).toEqual(['first', 'second']);
    expect(p.problems().map((x) => x.line)).toEqual([2, 3]);
    expect(p.stats()).toMatchObject({ malformed: 2, tornLastLine: false });
  });

  describe('records with the same uuid: the valid one is read, the malformed one reported', () => {
    const answer = (uuid: string, parent: string, message: unknown) =>
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        type: 'assistant',
        message,
        uuid,
        sessionId: 's',
        timestamp: '2026-11-20T09:00:01.000Z',
      });
    const valid = answer('a1', 'u1', { role: 'assistant', content: [{ type: 'text', text: 'the answer' }] });
    const read = (...lines: string[]) => {
      const p = createClaudeCodeParser();
      const out = lines.flatMap((line, i) => p.push(line, i + 1));
      out.push(...p.push(good('u2', 'a1', 'next'), lines.length + 1), ...p.finish());
      return { out, p };
    };
    const said = (out: TranscriptItem[]) => of(out, 'assistant').map((i) => i.text);

    it('a malformed record first: the valid one with its uuid is read in its place, the malformed one named', () => {
      for (const broken of [
        answer('a1', 'u1', null),
        answer('a1', 'u1', { role: 'assistant', content: 7 }),
      ]) {
        const { out, p } = read(good('u1', null, 'ask'), broken, valid);
        expect(said(out)).toEqual(['the answer']);
        expect(p.problems()).toEqual([
          {
            line: 2,
            message: expect.stringMatching(/^Line 2: a record of type assistant .*uuid a1.*line 3/),
          },
        ]);
        // Read in its place: no rewind for the next prompt, no duplicate counted.
        expect(of(out, 'rewind')).toEqual([]);
        expect(p.stats().duplicates).toBe(0);
      }
    });

    it('a malformed record after the valid one: skipped and named', () => {
      const { out, p } = read(good('u1', null, 'ask'), valid, answer('a1', 'u1', null));
      expect(said(out)).toEqual(['the answer']);
      expect(p.problems()).toEqual([
        { line: 3, message: expect.stringMatching(/^Line 3: .*repeats uuid a1/) },
      ]);
      expect(p.stats().duplicates).toBe(1);
    });

    it('control: a repeat of a valid record (a fork’s prefix) is counted, not reported; alone, read', () => {
      const twice = read(good('u1', null, 'ask'), valid, valid);
      expect(said(twice.out)).toEqual(['the answer']);
      expect(twice.p.problems()).toEqual([]);
      expect(twice.p.stats().duplicates).toBe(1);
      const once = read(good('u1', null, 'ask'), valid);
      expect(said(once.out)).toEqual(['the answer']);
    });

    it('a malformed record alone: not read, its children read, and named at the end', () => {
      const { out, p } = read(good('u1', null, 'ask'), answer('a1', 'u1', null));
      expect(said(out)).toEqual([]);
      expect(of(out, 'instruction').map((i) => i.text)).toEqual(['ask', 'next']);
      expect(of(out, 'rewind')).toEqual([]);
      expect(p.problems()).toEqual([
        {
          line: 2,
          message: 'Line 2: a record of type assistant with no message object (uuid a1): not read.',
        },
      ]);
    });
  });

  it('tells a torn last line from a malformed one', () => {
    const torn = good('u2', 'u1', 'cut').slice(0, 50);
    for (const isTorn of [true, false]) {
      const p = createClaudeCodeParser();
      p.push(good('u1', null, 'first'), 1);
      p.push(torn, 2);
      p.finish({ torn: isTorn });
      expect(p.stats().tornLastLine).toBe(isTorn);
      expect(p.problems()).toHaveLength(isTorn ? 0 : 1);
    }
  });

  it('takes only a person off the tip for a rewind, not a tool result', () => {
    const p = createClaudeCodeParser();
    const use = (uuid: string, parent: string, id: string) =>
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        type: 'assistant',
        uuid,
        message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: {} }] },
      });
    const result = (uuid: string, parent: string, id: string) =>
      JSON.stringify({
        parentUuid: parent,
        isSidechain: false,
        type: 'user',
        uuid,
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
      });
    const lines = [
      good('u1', null, 'first'),
      use('a1', 'u1', 't1'),
      use('a2', 'a1', 't2'),
      result('r1', 'a2', 't1'),
      result('r2', 'a2', 't2'),
      good('u2', 'a1', 'again'),
    ];
    const out = lines.flatMap((l, i) => p.push(l, i + 1));
    expect(of(out, 'rewind')).toEqual([
      expect.objectContaining({ toSourceId: 'a1', sourceId: 'rewind:u2', inclusive: false }),
    ]);
    expect(of(out, 'tool_call')).toHaveLength(2);
  });

  it('takes the feedback a person gave when refusing a call for an instruction', () => {
    const p = createClaudeCodeParser();
    const use = {
      parentUuid: 'u1',
      isSidechain: false,
      type: 'assistant',
      uuid: 'a1',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_9', name: 'Bash', input: { command: 'npm run e2e' } }],
      },
    };
    const refused =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nRun only the unit tests, not e2e.";
    const result = {
      parentUuid: 'a1',
      isSidechain: false,
      type: 'user',
      uuid: 'r1',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: refused, is_error: true }],
      },
      toolUseResult: `Error: ${refused}`,
    };
    const out = [good('u1', null, 'fix the tests'), JSON.stringify(use), JSON.stringify(result)].flatMap(
      (l, i) => p.push(l, i + 1),
    );
    expect(of(out, 'instruction').map((i) => i.text)).toEqual([
      'fix the tests',
      'Run only the unit tests, not e2e.',
    ]);
    const refusal = of(out, 'tool_call')[0]?.call;
    expect(refusal?.isError).toBe(true);
    expect(refusal?.output).toContain('rejected');
  });

  it('reads an assistant message whose content is a plain string', () => {
    const p = createClaudeCodeParser();
    const line = JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      type: 'assistant',
      uuid: 'a1',
      message: { role: 'assistant', model: '<synthetic>', content: 'No response requested.' },
    });
    expect(p.push(line, 1)).toEqual([
      expect.objectContaining({ kind: 'assistant', text: 'No response requested.', reasoning: false }),
    ]);
    expect(p.meta().model).toBeNull();
  });

  it('does not take a nested "type":"progress" for a progress record', () => {
    const p = createClaudeCodeParser();
    const line = JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      type: 'user',
      message: { role: 'user', content: 'hi' },
      toolUseResult: { type: 'progress' },
      uuid: 'u1',
    });
    expect(of(p.push(line, 1), 'instruction')).toHaveLength(1);
    expect(p.stats().skipped['progress']).toBeUndefined();
  });

  it('flushes calls that never got a result, without an output', () => {
    const p = createClaudeCodeParser();
    p.push(
      JSON.stringify({
        parentUuid: null,
        isSidechain: false,
        type: 'assistant',
        uuid: 'a1',
        message: {
          model: 'm',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }],
        },
      }),
      1,
    );
    const [item] = p.finish();
    expect(item).toMatchObject({
      kind: 'tool_call',
      callId: 'toolu_1',
      call: { tool: 'Bash', input: { command: 'npm test' } },
    });
    expect((item as Of<'tool_call'>).call.output).toBeUndefined();
  });
});
