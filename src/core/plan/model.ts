/**
 * Plan mode: one ordered checklist per task — each step says what to do and why. Step state moves
 * todo → started → done (or skipped); every move is also recorded as an event, so the log says when it happened.
 */
import { BrainError } from '../errors';
import type { PlanStepId } from '../events/model';
import type { TaskId } from '../ids';
import { requireText } from '../model';

export const planStepStates = ['todo', 'started', 'done', 'skipped'] as const;
export type PlanStepState = (typeof planStepStates)[number];

export interface PlanStep {
  readonly id: PlanStepId;
  /** 1-based position in the checklist. */
  readonly n: number;
  readonly what: string;
  readonly why: string;
  readonly state: PlanStepState;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
}

export interface Plan {
  readonly taskId: TaskId;
  readonly goal: string;
  readonly steps: readonly PlanStep[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface PlanStepInput {
  readonly what: string;
  readonly why?: string;
}

export const isFinished = (step: Pick<PlanStep, 'state'>) =>
  step.state === 'done' || step.state === 'skipped';

/** The first step, in checklist order, that is not done or skipped; a started one is never passed over. */
export function firstUnfinishedStep(plan: Pick<Plan, 'steps'> | null): PlanStep | null {
  if (!plan) return null;
  return [...plan.steps].sort((a, b) => a.n - b.n).find((step) => !isFinished(step)) ?? null;
}

export function planCounts(plan: Pick<Plan, 'steps'>): {
  done: number;
  skipped: number;
  started: number;
  todo: number;
  total: number;
} {
  const counts = { done: 0, skipped: 0, started: 0, todo: 0, total: plan.steps.length };
  for (const step of plan.steps) counts[step.state]++;
  return counts;
}

const MAX_STEPS = 500;

export function parsePlanSteps(value: unknown, maxChars: number): { what: string; why: string }[] {
  if (!Array.isArray(value))
    throw new BrainError('InvalidArgument', 'Plan steps must be an array of { what, why }.');
  if (value.length > MAX_STEPS)
    throw new BrainError('TooLarge', `A plan holds at most ${MAX_STEPS} steps; got ${value.length}.`);
  return value.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null) {
      throw new BrainError(
        'InvalidArgument',
        `Plan step ${index + 1} must be an object with \`what\` (and \`why\`).`,
      );
    }
    const raw = item as Record<string, unknown>;
    const what = requireText(raw['what'], `Plan step ${index + 1} what`, maxChars)
      .replace(/\s+/g, ' ')
      .trim();
    if (what === '')
      throw new BrainError(
        'InvalidArgument',
        `Plan step ${index + 1} says nothing to do (\`what\` is empty).`,
      );
    const why =
      raw['why'] === undefined || raw['why'] === null
        ? ''
        : requireText(raw['why'], `Plan step ${index + 1} why`, maxChars);
    return { what, why: why.replace(/\s+/g, ' ').trim() };
  });
}

/** Which moves a step may make; anything else is a mistake the caller should hear about. */
export function checkTransition(step: PlanStep, to: PlanStepState): void {
  const allowed: Record<PlanStepState, readonly PlanStepState[]> = {
    todo: ['started', 'done', 'skipped'],
    started: ['done', 'skipped', 'todo'],
    done: ['todo', 'started'],
    skipped: ['todo', 'started'],
  };
  if (step.state === to) return;
  if (!allowed[step.state].includes(to)) {
    throw new BrainError(
      'Conflict',
      `Plan step ${step.n} ("${step.what}") is ${step.state}; it cannot become ${to}.`,
      {
        planStepId: step.id,
        state: step.state,
      },
    );
  }
}
