import type { NextAction, PlanStepState, StepStatus, TaskState, ValidationResult } from '../lib/index';

/** Every task state with its words; a `Record` so a state added to the engine fails to compile here. */
export const taskStateLabels: Record<TaskState, string> = {
  running: 'running',
  waiting_user: 'waiting for you',
  done: 'done',
  failed: 'failed',
  superseded: 'superseded',
};

export const taskStates = Object.keys(taskStateLabels) as TaskState[];

export const stepStatusLabels: Record<StepStatus, string> = {
  ok: 'ok',
  error: 'error',
  running: 'running',
  cancelled: 'cancelled',
};

export const planStepLabels: Record<PlanStepState, string> = {
  todo: 'to do',
  started: 'in progress',
  done: 'done',
  skipped: 'skipped',
};

export const nextActionLabels: Record<NextAction['kind'], string> = {
  resolve_blocker: 'Resolve the blocker',
  continue_step: 'Continue the step in progress',
  start_step: 'Start the next step',
  fix_validation: 'Fix the failing check',
  follow_instruction: 'Follow the latest instruction',
  progress_next: 'As the agent said',
  done: 'Everything is done',
  none: 'Nothing recorded yet',
};

export const validationLabels: Record<ValidationResult, string> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
};
