/**
 * The extractor over a whole log: a pure, deterministic function from a session's events (and its task's plan)
 * to the active checkpoint, plus a verdict for every event — why it stays in the context or why it is dropped.
 * Same input, same output: events are folded in id order and nothing reads the clock. It is the fold of fold.ts
 * from its initial state; the engine instead resumes a saved fold and folds only the newer events.
 */
import type { SessionEvent } from '../events/model';
import type { EventId, SessionId, TaskId } from '../ids';
import { firstUnfinishedStep, type Plan } from '../plan/model';
import { foldEvents, initialFold, type CompressionFold, type FoldLimits } from './fold';
import { finishFold } from './fold-finish';
import { foldVerdicts, type Verdict } from './fold-verdicts';
import type { ActiveCheckpoint } from './model';

export type { Verdict } from './fold-verdicts';

export interface ExtractInput {
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  /** The task's title: the goal when there is no plan. */
  readonly taskTitle?: string | null;
  /** The whole log of the session (compressed events included), any order. */
  readonly events: readonly SessionEvent[];
  readonly plan: Plan | null;
  /** How many earlier distinct instructions to keep beside the latest (default 10). */
  readonly maxEarlierInstructions?: number;
  readonly maxAnswers?: number;
  /** The other bounds of the fold (see FoldLimits). */
  readonly foldLimits?: Partial<FoldLimits>;
}

export interface Extraction {
  readonly checkpoint: ActiveCheckpoint;
  readonly verdicts: ReadonlyMap<EventId, Verdict>;
  /** The state after the last event: fold newer events into it to extract again without the old ones. */
  readonly fold: CompressionFold;
}

export function foldLimitsOf(
  input: Pick<ExtractInput, 'maxEarlierInstructions' | 'maxAnswers' | 'foldLimits'>,
): Partial<FoldLimits> {
  return {
    ...input.foldLimits,
    ...(input.maxEarlierInstructions === undefined
      ? {}
      : { maxEarlierInstructions: input.maxEarlierInstructions }),
    ...(input.maxAnswers === undefined ? {} : { maxAnswers: input.maxAnswers }),
  };
}

export function extractActiveCheckpoint(input: ExtractInput): Extraction {
  const events = [...input.events].sort((a, b) => a.id - b.id);
  const fold = foldEvents(initialFold(foldLimitsOf(input)), events);
  const checkpoint = finishFold(fold, input);
  return { checkpoint, verdicts: foldVerdicts(fold, events, input.plan), fold };
}

/** The active checkpoint of a session: goal, instructions, decisions in force, files, validation, blocker, next. */
export function buildActiveCheckpoint(input: ExtractInput): ActiveCheckpoint {
  return extractActiveCheckpoint(input).checkpoint;
}

export { firstUnfinishedStep };
