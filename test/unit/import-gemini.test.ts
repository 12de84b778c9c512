/**
 * Gemini CLI chats against the generator's own record of what it wrote (test/fixtures/transcripts/gemini.ts):
 * every prompt, tool call, changed file and check accounted for; the rewind, the compression, the unknown kinds,
 * the unreadable line and the torn last line reported; the older one-document `.json` form read the same way.
 */
import { describe, expect, it } from 'vitest';
import { createGeminiLineParser, parseGeminiChatJson } from '../../src/core/importers/gemini';
import type { LineParser, TranscriptItem } from '../../src/core/importers/types';
import { generateGeminiChat, generateGeminiLegacyChat } from '../fixtures/transcripts/gemini';
import { expectTruth } from './import-gemini-truth';

function runLines(parser: LineParser, text: string): TranscriptItem[] {
  const lines = text.split('\n');
  const torn = !text.endsWith('\n');
  if (!torn) lines.pop();
  const items: TranscriptItem[] = [];
  lines.forEach((line, k) => items.push(...parser.push(line, k + 1)));
  items.push(...parser.finish({ torn }));
  return items;
}

describe('Gemini CLI .jsonl chats', () => {
  const { text, truth } = generateGeminiChat();
  const parser = createGeminiLineParser();
  const items = runLines(parser, text);

  it('is long, and every prompt, tool call, file change and check is accounted for', () => {
    expect(truth.records).toBeGreaterThanOrEqual(200);
    expect(parser.stats().records).toBe(truth.records);
    expectTruth(items, truth);
    expect(truth.checks.some((c) => c.status === 'failed')).toBe(true);
    expect(truth.checks.some((c) => c.status === 'passed')).toBe(true);
  });

  it('reports the rewind and the compression where the file has them', () => {
    const rewinds = items.filter((i) => i.kind === 'rewind');
    expect(rewinds.map((r) => (r.kind === 'rewind' ? [r.toSourceId, r.inclusive] : null))).toEqual(
      truth.rewinds.map((id) => [id, true]),
    );
    const compactions = items.filter((i) => i.kind === 'compaction');
    expect(compactions).toHaveLength(truth.compactions);
    const first = compactions[0];
    expect(first?.kind === 'compaction' && first.summary).toContain('<state_snapshot>');
    expect(first?.kind === 'compaction' && first.before).toBeGreaterThan(10);
    // The snapshot is the agent's summary, not a prompt the person gave.
    expect(items.some((i) => i.kind === 'instruction' && i.text.includes('<state_snapshot>'))).toBe(false);
  });

  it('counts unknown kinds, reports the unreadable line and the torn last line, and parses the rest', () => {
    expect(parser.stats().unknown).toEqual(truth.unknown);
    expect(items.filter((i) => i.kind === 'other' && i.recordType !== 'info')).toHaveLength(
      Object.keys(truth.unknown).length,
    );
    const problems = parser.problems();
    // The torn last line is no problem (the file was still being written): only the broken line in the middle is.
    expect(problems.map((p) => p.line)).toEqual(truth.malformedLines);
    expect(parser.stats().malformed).toBe(truth.malformedLines.length);
    expect(parser.stats().tornLastLine).toBe(true);
    expect(parser.stats().duplicates).toBeGreaterThan(0);
  });

  it('keeps a 5 MB output whole and U+FFFD where the bytes were not UTF-8, and reads exit codes from the text', () => {
    const calls = items.flatMap((i) => (i.kind === 'tool_call' ? [i] : []));
    const big = calls.find((c) => c.callId === truth.bigOutputCall);
    expect(big?.call.output?.length).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    expect(big?.call.exitCode).toBe(0);
    expect(calls.find((c) => c.callId === truth.replacementCharCall)?.call.output).toContain('\uFFFD');
    const failing = calls.filter((c) => c.call.output?.includes('Exit Code: 1'));
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.every((c) => c.call.exitCode === 1)).toBe(true);
  });

  it('knows the session from its metadata lines', () => {
    const meta = parser.meta();
    expect(meta).toMatchObject({
      agent: 'gemini-cli',
      cwd: '/home/dev/shop',
      title: 'Fix the cart discount handling',
      model: 'gemini-2.5-pro',
    });
    expect(meta.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(meta.startedAt).toBeGreaterThan(Date.parse('2026-11-20T09:00:00Z'));
  });

  it('reads a resume that rewrites the same history (notices left out) as nothing new', () => {
    const p = createGeminiLineParser();
    const user = { id: 'u1', type: 'user', timestamp: '2026-11-20T09:00:00Z', content: [{ text: 'fix it' }] };
    const model = { id: 'g1', type: 'gemini', timestamp: '2026-11-20T09:00:01Z', content: 'done' };
    const notice = { id: 'i1', type: 'info', timestamp: '2026-11-20T09:00:02Z', content: 'Switched model' };
    const lines = [
      { sessionId: 's', projectHash: 'h' },
      user,
      model,
      notice,
      { $set: { messages: [user, model] } },
    ];
    const items = lines.flatMap((r, k) => p.push(JSON.stringify(r), k + 1));
    expect(items.map((i) => i.kind)).toEqual(['instruction', 'assistant', 'other']);
    expect(p.stats().duplicates).toBe(2);
    // The control: the same rewrite without the model's reply is a cut tail, a rewind.
    const q = createGeminiLineParser();
    const cut = [...lines.slice(0, 4), { $set: { messages: [user] } }];
    expect(cut.flatMap((r, k) => q.push(JSON.stringify(r), k + 1)).at(-1)).toMatchObject({
      kind: 'rewind',
      toSourceId: 'g1',
      inclusive: true,
    });
  });

  it('gives out a call that never finished without a result, at the end', () => {
    const p = createGeminiLineParser();
    p.push(JSON.stringify({ sessionId: 's', projectHash: 'h' }), 1);
    const call = {
      id: 'c1',
      name: 'run_shell_command',
      args: { command: 'sleep 100' },
      status: 'executing',
      timestamp: '2026-11-20T09:00:00Z',
    };
    expect(
      p.push(
        JSON.stringify({
          id: 'm1',
          type: 'gemini',
          timestamp: '2026-11-20T09:00:00Z',
          content: '',
          toolCalls: [call],
        }),
        2,
      ),
    ).toEqual([]);
    const [item] = p.finish();
    expect(item?.kind === 'tool_call' && item.call).toEqual({
      tool: 'run_shell_command',
      input: { command: 'sleep 100' },
    });
  });
});

describe('Gemini CLI .json chats (the older form)', () => {
  it('reads one document with the same rules, messages numbered from 1', () => {
    const { text, truth } = generateGeminiLegacyChat();
    const parsed = parseGeminiChatJson(text);
    expect(parsed.problems).toEqual([]);
    expectTruth(parsed.items, truth);
    expect(parsed.stats.records).toBe(truth.records);
    expect(parsed.stats.unknown).toEqual(truth.unknown);
    expect(parsed.meta.cwd).toBe('/home/dev/shop');
  });

  it('refuses what is not a chat with a problem, not a throw', () => {
    expect(parseGeminiChatJson('{"messages": 3}').problems[0]?.message).toMatch(/no messages array/);
    expect(parseGeminiChatJson('{"sessionId": "x", "messa').problems[0]?.line).toBe(1);
  });
});

describe('Gemini CLI prompts', () => {
  it('are what the person typed (displayContent), not the @-file contents the model was sent', () => {
    const p = createGeminiLineParser();
    const content = [
      { text: 'Explain @src/tax.ts' },
      { text: '\n--- Content from referenced files ---\nexport const vat = 0.2;' },
    ];
    const items = p.push(
      JSON.stringify({
        id: 'u1',
        type: 'user',
        timestamp: '2026-11-20T09:00:00Z',
        content,
        displayContent: [{ text: 'Explain @src/tax.ts' }],
      }),
      1,
    );
    expect(items).toMatchObject([{ kind: 'instruction', text: 'Explain @src/tax.ts' }]);
    // The control: without displayContent the content is all there is.
    const q = createGeminiLineParser();
    expect(
      q.push(JSON.stringify({ id: 'u1', type: 'user', timestamp: '2026-11-20T09:00:00Z', content }), 1)[0],
    ).toMatchObject({ text: expect.stringContaining('vat = 0.2') });
  });
});

describe('Gemini CLI subagent chats', () => {
  it('reads a subagent chat as a thread of its parent, and a parent call names its subagent by agentId', () => {
    const p = createGeminiLineParser({
      thread: { id: 'sub-1', parentCallId: 'call-9' },
      parentSessionId: 'parent-1',
    });
    const lines = [
      { sessionId: 'sub-1', projectHash: 'h', kind: 'subagent', directories: ['/home/dev/shop'] },
      { id: 'u1', type: 'user', timestamp: '2026-11-20T09:00:00Z', content: [{ text: 'Find the tax code' }] },
      { id: 'g1', type: 'gemini', timestamp: '2026-11-20T09:00:01Z', content: 'Found it in src/tax.ts.' },
    ];
    const items = lines.flatMap((r, k) => p.push(JSON.stringify(r), k + 1));
    expect(items.map((i) => [i.kind, i.thread])).toEqual([
      ['thread', null],
      ['instruction', 'sub-1'],
      ['assistant', 'sub-1'],
    ]);
    expect(items[0]).toMatchObject({ id: 'sub-1', parentCallId: 'call-9' });
    expect(p.meta()).toMatchObject({ sessionId: 'sub-1', parentSessionId: 'parent-1' });
    const parent = createGeminiLineParser();
    const call = {
      id: 'call-9',
      name: 'codebase_investigator',
      args: { objective: 'tax' },
      status: 'success',
      timestamp: '2026-11-20T09:00:02Z',
      agentId: 'sub-1',
      result: [
        {
          functionResponse: {
            id: 'call-9',
            name: 'codebase_investigator',
            response: { output: 'src/tax.ts' },
          },
        },
      ],
    };
    const [item] = parent.push(
      JSON.stringify({
        id: 'g2',
        type: 'gemini',
        timestamp: '2026-11-20T09:00:02Z',
        content: '',
        toolCalls: [call],
      }),
      1,
    );
    expect(item?.kind === 'tool_call' && item.call.result).toEqual({ agentId: 'sub-1' });
  });
});
