import type { StepStatus, TaskState } from '../lib/index';

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
