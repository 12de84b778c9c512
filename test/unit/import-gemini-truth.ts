/**
 * The accounting every importer test makes against its fixture's ground truth: the prompts in order, tool calls
 * by name, and — through the tool-call classifier — the files changed and the checks with their results.
 */
import { expect } from 'vitest';
import type { TranscriptItem } from '../../src/core/importers/types';
import { classifyToolCall } from '../../src/core/tool-calls';
import type { TranscriptTruth } from '../fixtures/transcripts/gemini';

/** The same accounting for every format: prompts, tool calls by name, files changed and checks via the classifier. */
export function expectTruth(items: readonly TranscriptItem[], truth: TranscriptTruth, root?: string): void {
  expect(
    items.filter((i) => i.kind === 'instruction').map((i) => (i.kind === 'instruction' ? i.text : '')),
  ).toEqual(truth.prompts);
  const byTool: Record<string, number> = {};
  const changed = new Set<string>();
  const checks: { status: string }[] = [];
  for (const item of items) {
    if (item.kind !== 'tool_call') continue;
    byTool[item.call.tool] = (byTool[item.call.tool] ?? 0) + 1;
    const meaning = classifyToolCall(item.call, root === undefined ? {} : { root });
    if (!meaning.failed) for (const effect of meaning.fileEffects) changed.add(effect.path);
    for (const check of meaning.checks) checks.push({ status: check.result.status });
  }
  expect(byTool).toEqual(truth.toolCalls);
  // Re-imports skip what they hold by sourceId: one per item, never shared.
  const ids = items.map((i) => i.sourceId);
  expect(ids.every((id) => id !== null)).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...changed].sort()).toEqual(truth.filesChanged);
  expect(checks.map((c) => c.status)).toEqual(truth.checks.map((c) => c.status));
}
