/** Tools that keep the task's plan (PLAN.md): create it, then move its steps todo → started → done or skipped. */
import type { Plan, PlanChange, PlanStepId, PlanStepInput, TaskId } from '../../worker/protocol';
import { id, list, object, text } from './schema';
import type { ToolSpec } from './spec';

/** The plan as a numbered checklist with step ids, what the model needs to move a step. */
export function planText(plan: Plan): string {
  const lines = [...plan.steps]
    .sort((a, b) => a.n - b.n)
    .map((step) => `${step.n}. [${step.state}] ${step.what} (planStepId ${step.id})`);
  const next = [...plan.steps]
    .sort((a, b) => a.n - b.n)
    .find((s) => s.state === 'todo' || s.state === 'started');
  const after = next ? `Next: step ${next.n} (planStepId ${next.id}).` : 'Every step is done or skipped.';
  return [`Plan for task ${plan.taskId}: ${plan.goal}`, ...lines, after].join('\n');
}

const changed = (verb: string) => (change: PlanChange) => {
  const step = change.step;
  const head = step
    ? `Step ${step.n} "${step.what}" ${change.changed ? `is now ${step.state}` : `was already ${step.state}`}.`
    : `Plan ${verb}.`;
  const file =
    change.planFile === 'failed'
      ? ` (PLAN.md could not be written: ${change.planFileError ?? 'unknown'}; agent.db has it)`
      : '';
  return `${head}${file}\n${planText(change.plan)}`;
};

const stepId = id('The planStepId, as create_plan or read_resume_point listed it.');
const note = text('A short note: what was done, or what starting it involves.');
const stepHints = {
  NotFound: 'Use a planStepId from the plan that create_plan or read_resume_point listed.',
  Conflict: 'Read the plan (read_resume_point) and move the step from the state it is in.',
};

export const planTools = [
  {
    name: 'create_plan',
    description:
      'Write the plan for a task: the goal and an ordered checklist of steps, each what to do and why. Call it ' +
      'once you understand a task of more than a couple of steps, before changing files; it replaces no plan ' +
      '(a task has one). Cheap: one write (PLAN.md too when a project folder is open). Returns the checklist with ' +
      "each step's planStepId, which start_plan_step / complete_plan_step / skip_plan_step take.",
    schema: (bound) =>
      object(
        {
          taskId: id('The task this plan is for.'),
          goal: text('What is true when the task is done.', 2_000),
          steps: list(
            object(
              { what: text('What to do, as an instruction.', 2_000) },
              { why: text('Why this step.', 2_000) },
            ),
            'The steps in order.',
            100,
          ),
        },
        {},
        bound,
      ),
    hints: { Conflict: 'That task has a plan already: read_resume_point shows it; move its steps instead.' },
    async run(brain, input) {
      const change = await brain.createPlan({
        taskId: input['taskId'] as TaskId,
        goal: input['goal'] as string,
        steps: input['steps'] as readonly PlanStepInput[],
      });
      return changed('created')(change);
    },
  },
  {
    name: 'start_plan_step',
    description:
      'Mark a plan step as started when you begin it, so a restart resumes inside it rather than before it. ' +
      'Idempotent. Cheap: one write. Returns the updated checklist.',
    schema: (bound) => object({ planStepId: stepId }, { note }, bound),
    hints: stepHints,
    async run(brain, input) {
      const change = await brain.startPlanStep(input['planStepId'] as PlanStepId, optionalNote(input));
      return changed('updated')(change);
    },
  },
  {
    name: 'complete_plan_step',
    description:
      'Mark a plan step as done once its work is finished (and checked, if it has a check). Idempotent. Cheap: ' +
      'one write. Returns the updated checklist and the next step.',
    schema: (bound) => object({ planStepId: stepId }, { note }, bound),
    hints: stepHints,
    async run(brain, input) {
      const change = await brain.completePlanStep(input['planStepId'] as PlanStepId, optionalNote(input));
      return changed('updated')(change);
    },
  },
  {
    name: 'skip_plan_step',
    description:
      'Mark a plan step as skipped, with the reason (no longer needed, replaced by another approach), so nobody ' +
      'picks it up again. Cheap: one write. Returns the updated checklist.',
    schema: (bound) => object({ planStepId: stepId, reason: text('Why it is skipped.') }, {}, bound),
    hints: stepHints,
    async run(brain, input) {
      const change = await brain.skipPlanStep(input['planStepId'] as PlanStepId, {
        reason: input['reason'] as string,
      });
      return changed('updated')(change);
    },
  },
] as const satisfies readonly ToolSpec[];

function optionalNote(input: Readonly<Record<string, unknown>>) {
  return input['note'] === undefined ? undefined : { note: input['note'] as string };
}
