/**
 * The Claude Code parser on the generated session (test/fixtures/transcripts/claude-code.ts), item by item against
 * the ground truth the generator wrote: every prompt, tool call (tool, thread, exit code, error), changed file and
 * its body, check, compaction, rewind, thread, backup, skipped and unknown record; the subagent file; bad lines.
 */
import { describe, expect, it } from 'vitest';
import { createClaudeCodeParser } from '../../src/core/importers/claude-code';
import type { ClaudeCodeParserOptions } from '../../src/core/importers/claude-code';
import type { LineParser, TranscriptItem } from '../../src/core/importers/types';
import { classifyToolCall } from '../../src/core/tool-calls';
import { planFileChanges } from '../../src/core/tool-calls/file-changes';

const noSession = { body: () => undefined, seen: () => false, hasEntry: () => false, under: () => [] };
import { decodeLines, generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';

type Of<K extends TranscriptItem['kind']> = Extract<TranscriptItem, { kind: K }>;

function parse(
  bytes: Uint8Array,
  options?: ClaudeCodeParserOptions,
): { items: TranscriptItem[]; parser: LineParser } {
  const { lines, torn } = decodeLines(bytes);
  const parser = createClaudeCodeParser(options);
  const items: TranscriptItem[] = [];
  lines.forEach((line, i) => items.push(...parser.push(line, i + 1)));
  items.push(...parser.finish({ torn }));
  return { items, parser };
}

const of = <K extends TranscriptItem['kind']>(items: TranscriptItem[], kind: K) =>
  items.filter((i): i is Of<K> => i.kind === kind);

const fixture = generateClaudeCodeSession();
const { truth } = fixture;
const { items, parser } = parse(fixture.main.bytes);
const calls = of(items, 'tool_call');
const callById = new Map(calls.map((c) => [c.callId, c]));

describe('Claude Code session: counts against the ground truth', () => {
  it('is long and reads every line', () => {
    expect(decodeLines(fixture.main.bytes).lines.length).toBeGreaterThanOrEqual(200);
    expect(parser.stats().records).toBe(decodeLines(fixture.main.bytes).lines.length);
  });

  it('finds every prompt, in order, and nothing else as a prompt', () => {
    const main = of(items, 'instruction').filter((i) => i.thread === null);
    expect(main.map((i) => i.text)).toEqual(truth.prompts);
    for (const [thread, prompts] of Object.entries(truth.threadPrompts)) {
      expect(
        of(items, 'instruction')
          .filter((i) => i.thread === thread)
          .map((i) => i.text),
      ).toEqual(prompts);
    }
  });

  it('pairs every tool call with its result: tool, thread, exit code, error', () => {
    expect(calls.map((c) => c.callId).sort()).toEqual(truth.toolCalls.map((c) => c.id).sort());
    for (const t of truth.toolCalls) {
      const c = callById.get(t.id) as Of<'tool_call'>;
      expect(c.call.tool).toBe(t.tool);
      expect(c.thread).toBe(t.thread);
      expect(typeof c.call.output).toBe('string');
      // The importer carries what the file holds (is_error, the result); the classifier tells what it means.
      const meaning = classifyToolCall(c.call);
      if (t.exitCode !== undefined) expect(meaning.exitCode).toBe(t.exitCode);
      expect(meaning.error !== null).toBe(t.error);
      expect(c.call.exitCode).toBeUndefined();
    }
  });

  it('carries the changed files with the bodies the agent left', () => {
    const paths = new Set(calls.flatMap((c) => (c.files ?? []).map((f) => f.path)));
    expect([...paths].sort()).toEqual([...truth.filesChanged].sort());
    for (const [id, after] of Object.entries(truth.afterBodies)) {
      const c = callById.get(id) as Of<'tool_call'>;
      const files = c.files ?? [];
      expect(files).toHaveLength(1);
      expect(files[0]?.before).not.toBe(after);
      // An Edit carries the body before it; its after-body is the classifier's replay of the edits onto it.
      const planned = planFileChanges(classifyToolCall(c.call).fileEffects, files, noSession, null);
      expect(planned.changes.map((f) => f.after)).toEqual([after]);
    }
    const edit = calls.find((c) => c.call.tool === 'Edit' && c.files !== undefined);
    expect(edit?.files?.[0]?.diff).toMatch(
      /^--- \/home\/dev\/projects\/ledger\/src\/\S+\n\+\+\+ .*\n@@ -\d+,1 \+\d+,1 @@\n-/,
    );
    const write = calls.find((c) => c.call.tool === 'Write');
    expect(write?.files?.[0]?.before).toBeNull();
  });

  it('gives the classifier what it needs to read each check and its result', () => {
    expect(truth.checks.length).toBeGreaterThan(5);
    for (const check of truth.checks) {
      const c = callById.get(check.callId) as Of<'tool_call'>;
      const meaning = classifyToolCall(c.call, { root: truth.cwd });
      expect(meaning.exitCode).toBe(check.exitCode);
      expect(meaning.checks.length).toBe(1);
      expect(meaning.checks[0]?.result.status).toBe(check.exitCode === 0 ? 'passed' : 'failed');
    }
    const todo = calls.find((c) => c.call.tool === 'TodoWrite') as Of<'tool_call'>;
    const plan = classifyToolCall(todo.call).plan;
    expect(plan?.mode === 'replace' ? plan.items.length : null).toBe(3);
  });

  it('finds the compaction with the agent summary, the rewind, the threads and the backups', () => {
    expect(
      of(items, 'compaction').map((c) => ({ summary: c.summary, trigger: c.trigger, preTokens: c.before })),
    ).toEqual(truth.compactions);
    expect(of(items, 'rewind').map((r) => r.toSourceId)).toEqual(truth.rewinds);
    const inline = truth.threads.filter((t) => t.id.startsWith('sidechain-'));
    expect(of(items, 'thread').map((t) => ({ id: t.id, parentCallId: t.parentCallId }))).toEqual(inline);
    const agent = callById.get(truth.threads.find((t) => t.id === truth.subagentId)?.parentCallId ?? '');
    expect((agent?.call.result as { agentId?: string }).agentId).toBe(truth.subagentId.replace('agent-', ''));
    const backups = of(items, 'file_backup');
    expect(new Set(backups.map((b) => b.backupFileName ?? `${b.path}@v${b.version}`))).toEqual(
      truth.fileBackups,
    );
    expect(backups).toHaveLength(truth.fileBackups.size);
  });

  it('counts what it skips, repeats and does not know; keeps unknown and injected records searchable', () => {
    const stats = parser.stats();
    expect(stats.skipped['progress']).toBe(truth.progress);
    expect(stats.unknown).toEqual(truth.unknown);
    expect(stats.duplicates).toBe(truth.duplicates);
    const others = of(items, 'other');
    expect(others.filter((o) => !(o.recordType in truth.unknown))).toHaveLength(truth.others);
    expect(
      others.some((o) => o.recordType === 'x-ledger-sync' && o.text.includes('s3://ledger-backups/nightly')),
    ).toBe(true);
    expect(others.some((o) => o.recordType === 'user:command' && o.text.includes('/model'))).toBe(true);
  });

  it('reports the line a crash cut mid-file by number, and the torn last line apart', () => {
    expect(parser.problems().map((p) => p.line)).toEqual(truth.malformedLines);
    expect(parser.problems()[0]?.message).toMatch(/^Line \d+ is not valid JSON/);
    expect(parser.stats().malformed).toBe(truth.malformedLines.length);
    expect(parser.stats().tornLastLine).toBe(true);
  });

  it('keeps the 5 MB result whole and copes with bytes that are not UTF-8', () => {
    const big = callById.get(truth.bigOutput?.callId ?? '') as Of<'tool_call'>;
    expect(big.call.output?.length).toBe(truth.bigOutput?.length);
    expect(classifyToolCall(big.call).exitCode).toBe(0);
    expect(big.call.result).not.toHaveProperty('stdout');
    const raw = callById.get(truth.rawBytesCallId ?? '') as Of<'tool_call'>;
    expect(raw.call.output).toContain('M\uFFFD');
  });

  it('fills the meta from the records', () => {
    expect(parser.meta()).toMatchObject({
      agent: 'claude-code',
      sessionId: truth.sessionId,
      cwd: truth.cwd,
      version: truth.version,
      model: truth.model,
      title: truth.title,
      parentSessionId: null,
    });
  });

  it('gives every item a distinct source id', () => {
    const ids = items.map((i) => i.sourceId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('Claude Code subagent file', () => {
  const parentCallId = truth.threads.find((t) => t.id === truth.subagentId)?.parentCallId ?? null;
  const { items: sub, parser: subParser } = parse(fixture.subagent.bytes, {
    thread: { id: truth.subagentId, parentCallId },
  });

  it('opens its thread and puts every item in it', () => {
    expect(sub[0]).toMatchObject({ kind: 'thread', id: truth.subagentId, parentCallId, thread: null });
    expect(sub.slice(1).every((i) => i.thread === truth.subagentId)).toBe(true);
    expect(of(sub, 'instruction').map((i) => i.text)).toEqual(truth.subagentPrompts);
    const exitOf = (c: Of<'tool_call'>) => classifyToolCall(c.call).exitCode;
    expect(of(sub, 'tool_call').map((c) => [c.callId, c.call.tool, exitOf(c)])).toEqual(
      truth.subagentToolCalls.map((c) => [c.id, c.tool, c.exitCode ?? null]),
    );
    expect(subParser.meta().parentSessionId).toBe(truth.sessionId);
  });

  it('without options, names its thread after the agentId its lines carry (the file name the Agent result gives)', () => {
    const { items: plain } = parse(fixture.subagent.bytes);
    expect(plain[0]).toMatchObject({ kind: 'thread', id: truth.subagentId, title: truth.subagentPrompts[0] });
    expect(plain.slice(1).every((i) => i.thread === truth.subagentId)).toBe(true);
  });
});
