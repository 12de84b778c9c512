import type {
  AgentKind,
  NextAction,
  PlanStepState,
  SessionRunState,
  StepStatus,
  TaskState,
  ValidationResult,
} from '../lib/index';

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
  continue_todo: 'Continue the todo in progress',
  start_todo: 'Start the next todo',
  fix_validation: 'Fix the failing check',
  stated_intention: 'Go on as the agent said',
  follow_instruction: 'Follow the latest instruction',
  progress_next: 'As the agent said',
  verify_last_action: 'Already ran: check its result',
  done: 'Everything is done',
  none: 'Nothing recorded yet',
};

export const validationLabels: Record<ValidationResult, string> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
};

/**
 * The built-in demo project is kept under the folder name "demo" (storage/agent-folder/opfs-projects.ts) but is
 * the library tiny-paginate (its package.json, and what the demo view calls it): every view names it that way.
 */
export const demoProjectTitle = 'tiny-paginate';

/** The folder name the demo is kept under; no other project may take it (ui/archive.ts projectNameProblem). */
const demoFolderName = 'demo';

/** A project as people see it named: the demo as tiny-paginate, any other by its own name. */
export function projectTitle(project: { readonly kind?: string; readonly name: string }): string {
  return project.kind === 'demo' || project.name === demoFolderName ? demoProjectTitle : project.name;
}

/** The agents whose transcripts can be imported, as people call them (the engine's titles use the same names). */
export const agentLabels: Record<AgentKind, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  cline: 'Cline',
  roo: 'Roo Code',
  openhands: 'OpenHands',
  'swe-agent': 'SWE-agent',
  'mini-swe-agent': 'mini-swe-agent',
};

/** A session recorded through this brain's own API (the demo agent, a playground): no imported agent. */
export const ownAgentLabel = 'this brain';

export const agentLabel = (agent: AgentKind | null) => (agent === null ? ownAgentLabel : agentLabels[agent]);

export const runStateLabels: Record<SessionRunState, string> = {
  finished: 'finished',
  stopped: 'stopped',
  running: 'running',
};
