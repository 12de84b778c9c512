/** Hand-written event logs for the extractor tests: `log()` numbers events in order, like the engine does. */
import type { SessionEvent } from '../../src/core/events/model';
import { asPlanStepId, type PlanStepId } from '../../src/core/events/model';
import { asCheckpointEntryId, asEventId, asSessionId, asTaskId, type EventId } from '../../src/core/ids';
import type { Plan, PlanStepState } from '../../src/core/plan/model';

export const session = asSessionId(1);
export const task = asTaskId(1);

type Spec =
  | ['instruction' | 'blocker' | 'question' | 'note', string]
  | ['decision', string, { why?: string; supersedes?: number }?]
  | ['file', string, { change?: 'created' | 'modified' | 'deleted'; entry?: number; text?: string }?]
  | ['test', string, 'passed' | 'failed' | 'error', { step?: number; text?: string }?]
  | ['resolve', number, string?]
  | ['answer', number, string]
  | ['started' | 'done', number]
  | ['progress', string, string?];

/** Builds events #1..#n from compact specs. */
export function log(...specs: Spec[]): SessionEvent[] {
  return specs.map((spec, index) => {
    const common = {
      id: asEventId(index + 1),
      sessionId: session,
      taskId: task,
      stepId: null,
      planStepId: null as PlanStepId | null,
      text: '',
      createdAt: 1_700_000_000_000 + index * 1000,
      compressedAt: null,
    };
    switch (spec[0]) {
      case 'instruction':
      case 'blocker':
      case 'question':
      case 'note':
        return { ...common, kind: spec[0], text: spec[1] };
      case 'decision':
        return {
          ...common,
          kind: 'decision',
          text: spec[1],
          why: spec[2]?.why ?? null,
          supersedes: spec[2]?.supersedes === undefined ? null : asEventId(spec[2].supersedes),
        };
      case 'file':
        return {
          ...common,
          kind: 'file_change',
          path: spec[1],
          change: spec[2]?.change ?? 'modified',
          text: spec[2]?.text ?? '',
          checkpointEntryId: spec[2]?.entry === undefined ? null : asCheckpointEntryId(spec[2].entry),
        };
      case 'test':
        return {
          ...common,
          kind: 'validation',
          name: spec[1],
          result: spec[2],
          text: spec[3]?.text ?? '',
          planStepId: spec[3]?.step === undefined ? null : asPlanStepId(spec[3].step),
        };
      case 'resolve':
        return { ...common, kind: 'blocker_resolved', resolves: asEventId(spec[1]), text: spec[2] ?? '' };
      case 'answer':
        return { ...common, kind: 'answer', answers: asEventId(spec[1]), text: spec[2] };
      case 'started':
        return { ...common, kind: 'plan_step_started', planStepId: asPlanStepId(spec[1]) };
      case 'done':
        return { ...common, kind: 'plan_step_done', planStepId: asPlanStepId(spec[1]) };
      case 'progress':
        return { ...common, kind: 'progress', text: spec[1], next: spec[2] ?? null };
    }
  });
}

/** A plan whose step ids are 1..n (matching `['started', id]` specs). */
export function plan(goal: string, steps: [string, PlanStepState][]): Plan {
  return {
    taskId: task,
    goal,
    createdAt: 0,
    updatedAt: 0,
    steps: steps.map(([what, state], index) => ({
      id: asPlanStepId(index + 1),
      n: index + 1,
      what,
      why: `because ${what.toLowerCase()}`,
      state,
      startedAt: null,
      finishedAt: null,
    })),
  };
}

export const ids = (...n: number[]): EventId[] => n.map(asEventId);
