/**
 * The plan in agent.db mirrored into `.agent/plan/PLAN.md` and `.agent/plan/PROGRESS.md`, through the format
 * modules in core/formats (one parser, one serialiser for each file). agent.db holds the step states; PLAN.md is
 * kept in step by flipping only the marks of items whose id is `{#s<step id>}` and appending steps it lacks, so
 * whatever a person wrote in the file stays as they wrote it.
 */
import {
  appendPlanItem,
  createPlanText,
  parsePlan,
  setPlanItemStatus,
  type PlanItemStatus,
} from '../formats/plan';
import { appendProgressEntry, createProgressText, type NewProgressEntry } from '../formats/progress';
import type { PlanStepId } from '../events/model';
import type { Plan, PlanStep } from './model';

/** The id a step carries in PLAN.md: stable, since step ids never change. */
export const planItemId = (id: PlanStepId) => `s${id}`;

const itemText = (step: Pick<PlanStep, 'what' | 'why'>) =>
  step.why ? `${step.what}\nWhy: ${step.why}` : step.what;

/** A fresh PLAN.md for the plan. */
export function renderPlanText(plan: Plan, title: string): string {
  return createPlanText({
    title: title || plan.goal,
    goal: plan.goal,
    items: plan.steps.map((step) => ({
      text: itemText(step),
      id: planItemId(step.id),
      status: step.state as PlanItemStatus,
    })),
  });
}

/**
 * PLAN.md brought in line with the plan: missing file → a fresh one; otherwise each step's mark is set and steps
 * the file lacks are appended. Returns the text unchanged when nothing differs.
 */
export function syncPlanText(existing: string | null, plan: Plan, title: string): string {
  if (existing === null || existing.trim() === '') return renderPlanText(plan, title);
  let text = existing;
  const present = new Set(parsePlan(text).items.flatMap((item) => (item.id === null ? [] : [item.id])));
  for (const step of [...plan.steps].sort((a, b) => a.n - b.n)) {
    const id = planItemId(step.id);
    text = present.has(id)
      ? setPlanItemStatus(text, { id }, step.state)
      : appendPlanItem(text, { text: itemText(step), id, status: step.state });
  }
  return text;
}

/** PLAN.md holds another plan (items, none of them this plan's): a new plan archives it instead of merging. */
export function holdsAnotherPlan(text: string | null, plan: Plan): boolean {
  if (text === null) return false;
  const items = parsePlan(text).items;
  const ours = new Set(plan.steps.map((s) => planItemId(s.id)));
  return items.length > 0 && !items.some((item) => item.id !== null && ours.has(item.id));
}

/** Where an earlier plan goes when a new one replaces it: beside it, named by the time it was replaced. */
export const archivedPlanPath = (now: number) =>
  `.agent/plan/archive/PLAN-${new Date(now).toISOString().replace(/[:.]/g, '-')}.md`;

export interface ProgressNote {
  readonly time: number;
  readonly kind: 'started' | 'done' | 'skipped' | 'note' | 'next';
  readonly stepId?: PlanStepId | null;
  readonly text: string;
}

/** PROGRESS.md with the notes appended (a fresh file when there is none). */
export function appendProgressNotes(existing: string | null, notes: readonly ProgressNote[]): string {
  let text = existing === null || existing === '' ? createProgressText() : existing;
  for (const note of notes) {
    const entry: NewProgressEntry =
      note.stepId === undefined || note.stepId === null
        ? { time: note.time, kind: note.kind, text: note.text }
        : { time: note.time, kind: note.kind, itemId: planItemId(note.stepId), text: note.text };
    text = appendProgressEntry(text, entry);
  }
  return text;
}
