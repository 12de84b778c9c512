/**
 * The compression plan — plan, then apply: which active events leave the context (to the history), which stay
 * verbatim in the bounded tail of SESSION.jsonl, and the budget view — kept / dropped with reasons, sizes before and
 * after. The engine applies the compression plan; the compression plan itself is pure and testable. (The task's
 * plan, `input.plan`, is an input here: its first unfinished step may be the next action.)
 */
import { eventToLine } from '../events/lines';
import type { SessionEvent } from '../events/model';
import type { EventId } from '../ids';
import { extractActiveCheckpoint, type ExtractInput } from './extract';
import type { CompressionFold } from './fold';
import { finishFold, type FinishContext } from './fold-finish';
import { foldVerdicts, type Verdict } from './fold-verdicts';
import { approxTokens, type ActiveCheckpoint, type BudgetItem, type ContextBudget } from './model';
import { renderSessionSummary, type RenderOptions } from './render';

export interface CompressionLimits {
  /** Newest active events kept verbatim (default 40). */
  readonly keepTail: number;
  /** And at most this many characters of them (default 32 000). */
  readonly maxTailChars: number;
}

export const defaultCompressionLimits: CompressionLimits = { keepTail: 40, maxTailChars: 32_000 };

export interface CompressionPlan {
  readonly checkpoint: ActiveCheckpoint;
  readonly markdown: string;
  readonly budget: ContextBudget;
  /** Active events that move to the history, in order. */
  readonly compress: readonly SessionEvent[];
  /** Active events that stay verbatim, in order. */
  readonly tail: readonly SessionEvent[];
}

export const lineChars = (event: SessionEvent) => JSON.stringify(eventToLine(event)).length + 1;

/** The newest events that fit both bounds (count and characters), oldest first. */
export function chooseTail(active: readonly SessionEvent[], limits: CompressionLimits): SessionEvent[] {
  const tail: SessionEvent[] = [];
  let chars = 0;
  for (let i = active.length - 1; i >= 0 && tail.length < limits.keepTail; i--) {
    const event = active[i] as SessionEvent;
    const size = lineChars(event);
    if (chars + size > limits.maxTailChars) break;
    chars += size;
    tail.unshift(event);
  }
  return tail;
}

interface CompressionPlanOptions {
  readonly limits?: Partial<CompressionLimits>;
  /** The summary in force before this compression (its size counts in "before"). */
  readonly previousSummaryChars?: number;
  readonly render?: RenderOptions;
}

export interface PlanCompressionInput extends ExtractInput, CompressionPlanOptions {}

/** A compression planned from the whole log (tests, tools); the engine plans from its saved fold instead. */
export function planCompression(input: PlanCompressionInput): CompressionPlan {
  const { checkpoint, verdicts } = extractActiveCheckpoint(input);
  const active = input.events.filter((e) => e.compressedAt === null);
  return planFrom(checkpoint, verdicts, active, input);
}

export interface FoldedCompressionInput extends FinishContext, CompressionPlanOptions {
  /** The fold of every event of the session, up to the newest. */
  readonly fold: CompressionFold;
  /** The events still in the active context (the newest ones: a suffix of the log). */
  readonly active: readonly SessionEvent[];
}

/** A compression planned from the fold and the active events only: its cost follows the active context. */
export function planCompressionFromFold(input: FoldedCompressionInput): CompressionPlan {
  const checkpoint = finishFold(input.fold, input);
  const verdicts = foldVerdicts(input.fold, input.active, input.plan);
  return planFrom(checkpoint, verdicts, input.active, input);
}

function planFrom(
  checkpoint: ActiveCheckpoint,
  verdicts: ReadonlyMap<EventId, Verdict>,
  activeEvents: readonly SessionEvent[],
  input: CompressionPlanOptions,
): CompressionPlan {
  const limits = { ...defaultCompressionLimits, ...input.limits };
  const markdown = renderSessionSummary(checkpoint, input.render);
  const active = [...activeEvents].sort((a, b) => a.id - b.id);
  const tail = chooseTail(active, limits);
  const inTail = new Set<EventId>(tail.map((e) => e.id));
  const compress = active.filter((e) => !inTail.has(e.id));
  const item = (e: SessionEvent, reason: string): BudgetItem => ({
    eventId: e.id,
    kind: e.kind,
    reason,
    chars: lineChars(e),
  });
  const kept: BudgetItem[] = [];
  const dropped: BudgetItem[] = [];
  for (const e of compress) {
    const verdict = verdicts.get(e.id);
    if (verdict?.keep) kept.push(item(e, verdict.reason));
    else dropped.push(item(e, verdict?.reason ?? 'not needed for the next step'));
  }
  const tailItems = tail.map((e) => item(e, verdicts.get(e.id)?.reason ?? 'recent'));
  const sum = (items: readonly BudgetItem[]) => items.reduce((n, i) => n + i.chars, 0);
  const beforeChars = sum(kept) + sum(dropped) + sum(tailItems) + (input.previousSummaryChars ?? 0);
  const tailChars = sum(tailItems);
  const budget: ContextBudget = {
    kept,
    dropped,
    tail: tailItems,
    before: { events: active.length, chars: beforeChars, approxTokens: approxTokens(beforeChars) },
    after: {
      summaryChars: markdown.length,
      tailEvents: tail.length,
      tailChars,
      chars: markdown.length + tailChars,
      approxTokens: approxTokens(markdown.length + tailChars),
    },
  };
  return { checkpoint, markdown, budget, compress, tail };
}
