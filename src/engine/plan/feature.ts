import { BrainError } from '../../core/errors';
import { asPlanStepId, type PlanStepId } from '../../core/events/model';
import { asTaskId, type TaskId } from '../../core/ids';
import { requireId, requireText } from '../../core/model';
import {
  checkTransition,
  parsePlanSteps,
  type Plan,
  type PlanStep,
  type PlanStepState,
} from '../../core/plan/model';
import {
  appendProgressNotes,
  archivedPlanPath,
  holdsAnotherPlan,
  renderPlanText,
  syncPlanText,
  type ProgressNote,
} from '../../core/plan/plan-file';
import type { PlanApi, PlanChange, PlanFileStatus, RecordedEvent } from '../../core/api/memory';
import { errorText, type EventLog } from '../events/log';
import { memoryPaths, updateFile, type MemoryFilesProvider } from '../memory-files';

const taskIdOf = (value: unknown) => asTaskId(requireId(value, 'taskId'));
const stepIdOf = (value: unknown) => asPlanStepId(requireId(value, 'planStepId'));

/**
 * Plan mode: the plan lives in agent.db (states and ids), every move is an event, and PLAN.md / PROGRESS.md are
 * kept in step in the project folder when one is open.
 */
export function createPlanFeature(log: EventLog, files: MemoryFilesProvider, maxChars = 10_000) {
  const { plans, tasks } = log.repos;
  const { db, clock } = log.ctx;

  async function sessionOf(taskId: TaskId) {
    const task = await tasks.get(taskId);
    if (task.sessionId === null)
      throw new BrainError(
        'InvalidArgument',
        `Task ${taskId} has no session any more; it cannot be planned.`,
      );
    return { task, sessionId: task.sessionId };
  }

  async function requirePlan(taskId: TaskId): Promise<Plan> {
    const plan = await plans.get(taskId);
    if (!plan)
      throw new BrainError('NotFound', `Task ${taskId} has no plan; create one with createPlan.`, { taskId });
    return plan;
  }

  /** Mirrors the plan (and any progress notes) into the folder; agent.db already holds the truth. */
  async function writeFiles(
    taskId: TaskId,
    plan: Plan | null,
    notes: readonly ProgressNote[],
  ): Promise<PlanFileStatus> {
    try {
      const task = await tasks.get(taskId);
      const folder = await files(task.sessionId ?? undefined);
      if (!folder) return { planFile: 'no-folder' };
      if (plan) {
        const current = await folder.read(memoryPaths.plan);
        if (current && holdsAnotherPlan(current.text, plan)) {
          // Another task's plan is there: keep it, beside, and start PLAN.md afresh (never merge two plans).
          await folder.write(archivedPlanPath(clock.now()), current.text, null);
          await folder.write(memoryPaths.plan, renderPlanText(plan, task.title), current.version);
        } else {
          await updateFile(folder, memoryPaths.plan, (text) => syncPlanText(text, plan, task.title));
        }
      }
      if (notes.length > 0)
        await updateFile(folder, memoryPaths.progress, (text) => appendProgressNotes(text, notes));
      return { planFile: 'written' };
    } catch (error) {
      return { planFile: 'failed', planFileError: errorText(error) };
    }
  }

  async function finish(
    taskId: TaskId,
    notes: ProgressNote[],
    extra: { step?: PlanStep; changed: boolean },
  ): Promise<PlanChange> {
    const plan = await requirePlan(taskId);
    log.ctx.emit({ topic: 'plans', taskId });
    const step = extra.step && plan.steps.find((s) => s.id === extra.step?.id);
    return {
      plan,
      changed: extra.changed,
      ...(step ? { step } : {}),
      ...(await writeFiles(taskId, plan, notes)),
    };
  }

  /** Moves a step and records the move as an event, in one transaction; a step already there is left alone. */
  async function move(planStepId: unknown, to: PlanStepState, note: string | undefined): Promise<PlanChange> {
    const id = stepIdOf(planStepId);
    const now = clock.now();
    const result = await db.transaction(async () => {
      const step = await plans.step(id);
      if (step.state === to) return { step, changed: false, events: [] as RecordedEvent['event'][] };
      checkTransition(step, to);
      const { sessionId } = await sessionOf(step.taskId);
      await plans.setState(id, to, now);
      const base = { sessionId, taskId: step.taskId, planStepId: id };
      const event =
        to === 'started' || to === 'done'
          ? await log.insertParsed({
              ...base,
              kind: to === 'started' ? 'plan_step_started' : 'plan_step_done',
              text: note ?? step.what,
            })
          : await log.insertParsed({
              ...base,
              kind: 'progress',
              text: `${to === 'skipped' ? 'Skipped' : 'Reopened'} step ${step.n}: ${note ?? step.what}`,
            });
      return { step, changed: true, events: [event] };
    });
    const recorded = await Promise.all(result.events.map((e) => log.published(e)));
    const kind = to === 'todo' ? 'note' : to;
    const notes: ProgressNote[] =
      recorded.length === 0 ? [] : [{ time: now, kind, stepId: id, text: note ?? result.step.what }];
    return finish(result.step.taskId, notes, { step: result.step, changed: result.changed });
  }

  return {
    async createPlan(input) {
      const taskId = taskIdOf(input?.taskId);
      const goal = requireText(input.goal, 'Plan goal', maxChars).trim();
      if (goal === '') throw new BrainError('InvalidArgument', 'A plan needs a goal: what the task is for.');
      const steps = parsePlanSteps(input.steps, maxChars);
      await db.transaction(async () => {
        await sessionOf(taskId);
        await plans.create(taskId, goal, clock.now());
        await plans.insertSteps(taskId, 0, steps, clock.now());
      });
      return finish(
        taskId,
        [{ time: clock.now(), kind: 'note', text: `Plan created: ${goal} (${steps.length} steps)` }],
        { changed: true },
      );
    },

    getPlan: (taskId: TaskId) => plans.get(taskIdOf(taskId)),

    async addPlanSteps(input) {
      const taskId = taskIdOf(input?.taskId);
      const steps = parsePlanSteps(input.steps, maxChars);
      await db.transaction(async () => {
        const plan = await requirePlan(taskId);
        let after = plan.steps.length;
        if (input.afterStepId !== undefined) {
          const anchor = plan.steps.find((s) => s.id === input.afterStepId);
          if (!anchor)
            throw new BrainError(
              'NotFound',
              `Plan step ${input.afterStepId} is not in task ${taskId}'s plan.`,
            );
          after = anchor.n;
        }
        await plans.insertSteps(taskId, after, steps, clock.now());
      });
      return finish(
        taskId,
        [{ time: clock.now(), kind: 'note', text: `Added ${steps.length} step(s) to the plan.` }],
        { changed: true },
      );
    },

    startPlanStep: (planStepId: PlanStepId, input?: { readonly note?: string }) =>
      move(planStepId, 'started', optionalNote(input?.note, maxChars)),
    completePlanStep: (planStepId: PlanStepId, input?: { readonly note?: string }) =>
      move(planStepId, 'done', optionalNote(input?.note, maxChars)),
    skipPlanStep: (planStepId: PlanStepId, input: { readonly reason: string }) =>
      move(planStepId, 'skipped', requireText(input?.reason, 'Skip reason', maxChars)),

    async appendProgress(input) {
      const taskId = taskIdOf(input?.taskId);
      const { sessionId } = await sessionOf(taskId);
      const recorded = await log.record({
        sessionId,
        taskId,
        kind: 'progress',
        text: input.text,
        next: input.next,
        planStepId: input.planStepId,
      });
      const event = recorded.event;
      const notes: ProgressNote[] = [
        { time: event.createdAt, kind: 'note', stepId: event.planStepId, text: event.text },
      ];
      if (event.kind === 'progress' && event.next)
        notes.push({ time: event.createdAt, kind: 'next', stepId: event.planStepId, text: event.next });
      return { ...recorded, ...(await writeFiles(taskId, await plans.get(taskId), notes)) };
    },
  } satisfies PlanApi;
}

function optionalNote(note: unknown, max: number): string | undefined {
  if (note === undefined || note === null) return undefined;
  const text = requireText(note, 'Note', max).trim();
  return text === '' ? undefined : text;
}
