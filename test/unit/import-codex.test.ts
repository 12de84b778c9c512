/**
 * The Codex parser on the generated rollout (test/fixtures/transcripts/codex.ts) against the generator's ground
 * truth: prompts (each written twice, counted once), tool calls with exit codes from the output text or the
 * persisted end event, patches (Add, Update + move, Delete, failed), checks through the classifier, the plan,
 * compaction, rollback, unknown and skipped counts, bad lines, the 5 MB output, U+FFFD; the subagent rollout.
 */
import { describe, expect, it } from 'vitest';
import { sniffClaudeCode } from '../../src/core/importers/claude-code';
import { createCodexParser, sniffCodex } from '../../src/core/importers/codex';
import type { LineParser, TranscriptItem } from '../../src/core/importers/types';
import { classifyToolCall } from '../../src/core/tool-calls';
import { decodeLines, generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateCodexSession } from '../fixtures/transcripts/codex';

type Of<K extends TranscriptItem['kind']> = Extract<TranscriptItem, { kind: K }>;
const of = <K extends TranscriptItem['kind']>(items: TranscriptItem[], kind: K) =>
  items.filter((i): i is Of<K> => i.kind === kind);

function parse(bytes: Uint8Array): { items: TranscriptItem[]; parser: LineParser } {
  const { lines, torn } = decodeLines(bytes);
  const parser = createCodexParser();
  const items: TranscriptItem[] = [];
  lines.forEach((line, i) => items.push(...parser.push(line, i + 1)));
  items.push(...parser.finish({ torn }));
  return { items, parser };
}

const fixture = generateCodexSession();
const { truth } = fixture;
const { items, parser } = parse(fixture.main.bytes);
const calls = of(items, 'tool_call');
const callById = new Map(calls.map((c) => [c.callId, c]));

describe('Codex rollout: counts against the ground truth', () => {
  it('is long and reads every line', () => {
    const { lines } = decodeLines(fixture.main.bytes);
    expect(lines.length).toBeGreaterThanOrEqual(200);
    expect(parser.stats().records).toBe(lines.length);
  });

  it('finds every prompt once, in order, and no injected context', () => {
    expect(of(items, 'instruction').map((i) => i.text)).toEqual(truth.prompts);
    expect(parser.stats().duplicates).toBe(truth.duplicates);
    const answers = of(items, 'assistant').filter((a) => !a.reasoning);
    expect(answers).toHaveLength(truth.prompts.length);
    expect(of(items, 'assistant').filter((a) => a.reasoning)).toHaveLength(truth.prompts.length);
  });

  it('pairs every call with its output, with the exit code the text or the end event holds', () => {
    expect(calls.map((c) => c.callId).sort()).toEqual(truth.toolCalls.map((c) => c.id).sort());
    for (const t of truth.toolCalls) {
      const c = callById.get(t.id) as Of<'tool_call'>;
      expect(c.call.tool).toBe(t.tool);
      expect(c.call.exitCode ?? null).toBe(t.exitCode);
      expect(c.call.error !== undefined).toBe(t.error);
      expect(c.thread).toBeNull();
    }
    const shell = calls.find((c) => c.call.tool === 'shell') as Of<'tool_call'>;
    expect(shell.call.output?.startsWith('=====')).toBe(true); // the JSON wrapper taken off
    expect((shell.call.input as { command: string[] }).command).toEqual([
      'bash',
      '-lc',
      'pytest tests/test_q.py',
    ]);
  });

  it('carries every patched file: added bodies, deleted bodies, diffs and moves', () => {
    const files = calls.filter((c) => !c.call.error).flatMap((c) => c.files ?? []);
    expect(new Set(files.map((f) => f.path))).toEqual(truth.filesChanged);
    for (const [path, body] of Object.entries(truth.added)) {
      expect(files.find((f) => f.path === path)).toMatchObject({ before: null, after: body });
    }
    for (const path of truth.deleted) expect(files.find((f) => f.path === path)?.after).toBeNull();
    for (const m of truth.moved) expect(files.find((f) => f.path === m.from)?.movedTo).toBe(m.to);
    expect(files.filter((f) => f.diff !== undefined).every((f) => f.diff?.startsWith('@@'))).toBe(true);
    const failed = calls.find((c) => c.call.tool === 'apply_patch' && c.call.error !== undefined);
    expect(failed?.call.error).toMatch(/Failed to find expected lines/);
  });

  it('gives the classifier each check with its result, and the plan', () => {
    expect(truth.checks.length).toBeGreaterThan(5);
    for (const check of truth.checks) {
      const c = callById.get(check.callId) as Of<'tool_call'>;
      const meaning = classifyToolCall(c.call, { root: truth.cwd });
      expect(meaning.checks).toHaveLength(1);
      expect(meaning.checks[0]?.result.status).toBe(check.exitCode === 0 ? 'passed' : 'failed');
    }
    const plan = classifyToolCall(
      (calls.find((c) => c.call.tool === 'update_plan') as Of<'tool_call'>).call,
    ).plan;
    expect(plan?.mode === 'replace' ? plan.items.length : null).toBe(3);
  });

  it('merges the compaction burst into one item with the summary, and finds the rollback', () => {
    expect(of(items, 'compaction').map((c) => c.summary)).toEqual(truth.compactions.map((c) => c.summary));
    const rewinds = of(items, 'rewind');
    expect(rewinds.map((r) => r.toSourceId)).toEqual(truth.rewinds.map((line) => `L${line}`));
    expect(rewinds.every((r) => r.inclusive)).toBe(true);
    const target = of(items, 'instruction').find((i) => i.sourceId === rewinds[0]?.toSourceId);
    expect(target?.text).toBe(truth.prompts[17]);
  });

  it('counts what it skips and does not know, and keeps those records searchable', () => {
    const stats = parser.stats();
    expect(stats.unknown).toEqual(truth.unknown);
    expect(stats.skipped['turn_context']).toBe(truth.turnContexts);
    expect(stats.skipped['response_item:ghost_snapshot']).toBe(1);
    const others = of(items, 'other');
    const known = others.filter((o) => !(o.recordType in truth.unknown));
    expect(known).toHaveLength(truth.others);
    expect(others.some((o) => o.text.includes('ledger of a future release'))).toBe(true);
    expect(known.some((o) => o.recordType === 'response_item:user-context' && o.text.includes('<cwd>'))).toBe(
      true,
    );
  });

  it('reports the line cut mid-file by number, and the torn last line apart', () => {
    expect(parser.problems().map((p) => p.line)).toEqual(truth.malformedLines);
    expect(parser.stats()).toMatchObject({ malformed: truth.malformedLines.length, tornLastLine: true });
  });

  it('keeps the 5 MB output whole and copes with bytes that are not UTF-8', () => {
    const big = callById.get(truth.bigOutput?.callId ?? '') as Of<'tool_call'>;
    expect(big.call.output?.length).toBeGreaterThan(truth.bigOutput?.length ?? 0);
    expect(big.call.output?.endsWith('status=ok\n')).toBe(true);
    expect(callById.get(truth.rawBytesCallId ?? '')?.call.output).toContain('M\uFFFD');
  });

  it('fills the meta, and gives every item a distinct source id', () => {
    expect(parser.meta()).toEqual({
      agent: 'codex',
      sessionId: truth.sessionId,
      title: truth.title,
      cwd: truth.cwd,
      startedAt: expect.any(Number) as number,
      model: truth.model,
      version: truth.version,
      parentSessionId: null,
    });
    const ids = items.map((i) => i.sourceId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('Codex subagent rollout', () => {
  it('read as a thread: a thread item opens it, named after the agent, and every item is in it', () => {
    const { lines } = decodeLines(fixture.subagent.bytes);
    const p = createCodexParser({ thread: { id: truth.subagentId, parentCallId: 'call_spawn' } });
    const out = [...lines.flatMap((l, i) => p.push(l, i + 1)), ...p.finish()];
    expect(out[0]).toMatchObject({
      kind: 'thread',
      id: truth.subagentId,
      title: 'Ohm (explorer)',
      parentCallId: 'call_spawn',
      thread: null,
    });
    expect(out.slice(1).every((i) => i.thread === truth.subagentId)).toBe(true);
    expect(out.filter((i) => i.kind === 'thread')).toHaveLength(1);
  });

  it('names its parent session', () => {
    const { items: sub, parser: p } = parse(fixture.subagent.bytes);
    expect(p.meta()).toMatchObject({ sessionId: truth.subagentId, parentSessionId: truth.sessionId });
    expect(of(sub, 'instruction')).toHaveLength(1);
    expect(of(sub, 'tool_call')[0]?.call.exitCode).toBe(0);
  });
});

describe('Codex bad input', () => {
  const line = (type: string, payload: unknown) =>
    JSON.stringify({ timestamp: '2026-11-21T08:00:00.000Z', type, payload });

  it('reports a malformed line and one without a payload by number, and reads the rest', () => {
    const p = createCodexParser();
    const out = [
      ...p.push(line('event_msg', { type: 'user_message', message: 'first' }), 1),
      ...p.push('{"timestamp":', 2),
      ...p.push(JSON.stringify({ timestamp: 'x', type: 'event_msg' }), 3),
      ...p.push(line('event_msg', { type: 'user_message', message: 'second' }), 4),
      ...p.finish(),
    ];
    expect(of(out, 'instruction').map((i) => i.text)).toEqual(['first', 'second']);
    expect(p.problems().map((x) => x.line)).toEqual([2, 3]);
  });

  it('counts a prompt with an image once (its event mirror holds only the text)', () => {
    const p = createCodexParser();
    const content = [
      { type: 'input_text', text: 'what is wrong here?' },
      { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
    ];
    const out = [
      ...p.push(line('response_item', { type: 'message', role: 'user', content }), 1),
      ...p.push(
        line('event_msg', {
          type: 'user_message',
          message: 'what is wrong here?',
          images: ['data:image/png;base64,AAAA'],
        }),
        2,
      ),
    ];
    expect(of(out, 'instruction').map((i) => i.text)).toEqual(['what is wrong here?']);
    expect(p.stats().duplicates).toBe(1);
  });

  it('reads the early rollout form: a bare meta line, bare response items, state records', () => {
    const p = createCodexParser();
    const lines = [
      JSON.stringify({
        id: '5973b6c0-94b8-487b-a530-2aeb6098ae0e',
        timestamp: '2025-05-01T10:00:00.000Z',
        instructions: null,
        git: { branch: 'main' },
      }),
      JSON.stringify({
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: '<environment_context>\nCurrent working directory: /home/dev/old\n</environment_context>',
          },
        ],
      }),
      JSON.stringify({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'fix the build' }],
      }),
      JSON.stringify({ record_type: 'state' }),
      JSON.stringify({
        type: 'function_call',
        name: 'shell',
        arguments: '{"command":["bash","-lc","make"]}',
        call_id: 'c1',
      }),
      JSON.stringify({
        type: 'function_call_output',
        call_id: 'c1',
        output: '{"output":"ok\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}',
      }),
    ];
    const out = [...lines.flatMap((l, i) => p.push(l, i + 1)), ...p.finish()];
    expect(p.meta()).toMatchObject({
      sessionId: '5973b6c0-94b8-487b-a530-2aeb6098ae0e',
      cwd: '/home/dev/old',
    });
    expect(of(out, 'instruction').map((i) => i.text)).toEqual(['fix the build']);
    expect(of(out, 'tool_call')[0]?.call).toMatchObject({ tool: 'shell', exitCode: 0, output: 'ok\n' });
    expect(p.stats()).toMatchObject({ unknown: {}, skipped: { 'legacy:state': 1 } });
  });

  it('flushes a call with no output, and keeps an argument string that is not JSON', () => {
    const p = createCodexParser();
    p.push(
      line('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: '{"cmd": "npm te',
        call_id: 'c1',
      }),
      1,
    );
    const [item] = p.finish();
    expect(item).toMatchObject({
      kind: 'tool_call',
      callId: 'c1',
      call: { tool: 'exec_command', input: '{"cmd": "npm te' },
    });
  });
});

describe('sniffs on each other files', () => {
  const head = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 64 * 1024));
  it('says 2 for its own files, 0 for the other format, 1 for a name alone', () => {
    const claude = generateClaudeCodeSession();
    const files = {
      claude: claude.main,
      claudeSub: claude.subagent,
      codex: fixture.main,
      codexSub: fixture.subagent,
    };
    expect(sniffClaudeCode(files.claude.name, head(files.claude.bytes))).toBe(2);
    expect(sniffClaudeCode(files.claudeSub.name, head(files.claudeSub.bytes))).toBe(2);
    expect(sniffCodex(files.codex.name, head(files.codex.bytes))).toBe(2);
    expect(sniffCodex(files.codexSub.name, head(files.codexSub.bytes))).toBe(2);
    expect(sniffClaudeCode(files.codex.name, head(files.codex.bytes))).toBe(0);
    expect(sniffClaudeCode(files.claudeSub.name.replace(/.*\//, ''), head(files.codexSub.bytes))).toBe(0);
    expect(sniffCodex(files.claude.name, head(files.claude.bytes))).toBe(0);
    expect(sniffCodex('rollout-2026-11-21T08-00-00-x.jsonl', head(files.claude.bytes))).toBe(0);
    // A head with no complete line: the name, or the opening keys of the cut line, decide.
    expect(sniffCodex(files.codex.name, '')).toBe(1);
    expect(sniffClaudeCode(files.claude.name, '')).toBe(1);
    expect(sniffClaudeCode('notes.jsonl', '')).toBe(0);
    const cut = JSON.stringify({
      parentUuid: 'p',
      isSidechain: false,
      type: 'user',
      sessionId: 's',
      message: { content: 'x'.repeat(70_000) },
    }).slice(0, 65_536);
    expect(sniffClaudeCode('a.jsonl', cut)).toBe(2);
    expect(sniffCodex('a.jsonl', cut)).toBe(0);
    const gemini = `${JSON.stringify({ sessionId: 's1', projectHash: 'h', startTime: '2026-11-21T08:00:00Z' })}\n${JSON.stringify({ id: 'm1', timestamp: '2026-11-21T08:00:01Z', type: 'user', content: 'hi' })}\n`;
    expect(sniffClaudeCode('session-2026-11-21T08-00-ab12cd34.jsonl', gemini)).toBe(0);
    expect(sniffCodex('session-2026-11-21T08-00-ab12cd34.jsonl', gemini)).toBe(0);
    const early = `${JSON.stringify({ id: 'u', timestamp: '2025-05-01T10:00:00Z', instructions: null })}\n${JSON.stringify({ type: 'message', role: 'user', content: [] })}\n`;
    expect(sniffCodex('rollout-2025-05-01T10-00-00-u.jsonl', early)).toBe(2);
    expect(sniffCodex('session.jsonl', early)).toBe(1);
    expect(sniffClaudeCode('session.jsonl', early)).toBe(0);
    expect(sniffClaudeCode('x.json', 'not json at all\n')).toBe(0);
    expect(sniffCodex('x.json', 'not json at all\n')).toBe(0);
  });
});
