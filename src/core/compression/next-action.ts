/**
 * The first unfinished action, derived from the plan and the event log in a fixed order of precedence:
 * an open blocker first; then the first plan step not done (continuing it if started, with its failing check
 * named); with every step done or no plan, a check whose latest run failed; then the latest instruction not yet
 * followed by progress; then the "next" the agent last noted.
 */
import { firstUnfinishedStep, type Plan } from '../plan/model';
import type { CheckpointText, CheckpointValidation, NextAction } from './model';

export interface NextActionInput {
  readonly plan: Plan | null;
  readonly blocker: CheckpointText | null;
  readonly validations: readonly CheckpointValidation[];
  readonly latestInstruction: CheckpointText | null;
  readonly lastProgress: (CheckpointText & { readonly next: string | null }) | null;
}

const latestFailing = (runs: readonly CheckpointValidation[]): CheckpointValidation | null => {
  const latestByName = new Map<string, CheckpointValidation>();
  for (const run of [...runs].sort((a, b) => a.eventId - b.eventId)) latestByName.set(run.name, run);
  const failing = [...latestByName.values()].filter((run) => run.result !== 'passed');
  return failing.sort((a, b) => b.eventId - a.eventId)[0] ?? null;
};

const describeRun = (run: CheckpointValidation) =>
  `the last run of ${run.name} ${run.result === 'error' ? 'errored' : 'failed'}${run.text ? `: ${run.text}` : ''}`;

const action = (partial: Partial<NextAction> & Pick<NextAction, 'kind' | 'text'>): NextAction => ({
  planStepId: null,
  planStepN: null,
  eventId: null,
  failing: null,
  ...partial,
});

export function chooseNextAction(input: NextActionInput): NextAction {
  const { plan, blocker, validations } = input;
  const step = firstUnfinishedStep(plan);
  const total = plan?.steps.length ?? 0;
  const where = step ? { planStepId: step.id, planStepN: step.n } : {};
  if (blocker) {
    const then = step
      ? ` Then ${step.state === 'started' ? 'continue' : 'start'} step ${step.n} of ${total}: ${step.what}.`
      : '';
    return action({
      kind: 'resolve_blocker',
      text: `Resolve the blocker: ${blocker.text}.${then}`,
      eventId: blocker.eventId,
      ...where,
    });
  }
  if (step) {
    const failing = latestFailing(validations.filter((run) => run.planStepId === step.id));
    const label = `step ${step.n} of ${total}: ${step.what}`;
    if (failing) {
      return action({
        kind: 'continue_step',
        text: `Continue ${label} — ${describeRun(failing)}.`,
        eventId: failing.eventId,
        failing,
        ...where,
      });
    }
    return action({
      kind: step.state === 'started' ? 'continue_step' : 'start_step',
      text: `${step.state === 'started' ? 'Continue' : 'Start'} ${label}.`,
      ...where,
    });
  }
  const failing = latestFailing(validations);
  if (failing) {
    return action({
      kind: 'fix_validation',
      text: `Make ${failing.name} pass — ${describeRun(failing)}.`,
      eventId: failing.eventId,
      failing,
    });
  }
  if (plan && total > 0) return action({ kind: 'done', text: `All ${total} plan steps are done.` });
  const { latestInstruction, lastProgress } = input;
  if (latestInstruction && (lastProgress === null || lastProgress.eventId < latestInstruction.eventId)) {
    return action({
      kind: 'follow_instruction',
      text: `Follow the latest instruction: ${latestInstruction.text}`,
      eventId: latestInstruction.eventId,
    });
  }
  if (lastProgress?.next) {
    return action({
      kind: 'progress_next',
      text: `Next, as last noted: ${lastProgress.next}`,
      eventId: lastProgress.eventId,
    });
  }
  return action({ kind: 'none', text: 'Nothing unfinished is recorded; ask the user what to do next.' });
}
