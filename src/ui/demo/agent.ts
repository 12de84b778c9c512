/**
 * The demo agent: a loop that asks a driver for the next action and carries it out through the public API —
 * events, plan steps, file edits with checkpoints, child tasks, compressions, history lookups — exactly as a
 * playground's agent would. The built-in driver follows a fixed script (script.ts) against the demo project;
 * another `AgentDriver` (a model loop) could take its place and keep the rest. The app's own code: the package
 * does not export it.
 *
 * It can be paused (between actions), killed at any point (a page closed mid-action) and run again: each run
 * starts from `resumePoint` and the session's log, so finished work — validation above all — is never repeated.
 */
import {
  alreadyApplied,
  applyEdit,
  recallNote,
  toolCallOf,
  type AgentAction,
  type ToolCallOf,
} from './actions';
import { nextScriptedAction } from './next';
import { demoScript, type DemoScript } from './script';
import type {
  BrainApi,
  CheckpointEntryId,
  EventId,
  Json,
  Plan,
  ResumePoint,
  SessionEvent,
  SessionId,
  StepId,
  StepStatus,
  Task,
  TaskId,
} from '../../lib/index';

/** What a driver sees before each action: where the session stands, as a restart finds it. */
export interface AgentContext {
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
  readonly resume: ResumePoint;
  readonly plan: Plan | null;
  /** The session's whole log, compressed events included (look details up here or with searchHistory). */
  readonly events: readonly SessionEvent[];
  readonly tasks: readonly Task[];
  /** How many times the session was compressed. */
  readonly compressions: number;
}

/** Decides what the agent does next; null when the task is finished. */
export interface AgentDriver {
  readonly name: string;
  next(context: AgentContext): Promise<AgentAction | null> | AgentAction | null;
}

/** The files the agent edits. The default edits the open project (the demo project when none is open). */
export interface AgentWorkspace {
  read(path: string): Promise<string | null>;
  write(path: string, text: string): Promise<void>;
}

/** The engine methods the demo agent uses (a `Brain` from openBrain has them all). */
export type DemoBrain = Pick<
  BrainApi,
  | 'listSessions'
  | 'startSession'
  | 'getSession'
  | 'startTask'
  | 'listTasks'
  | 'setTaskState'
  | 'listSummaries'
  | 'listEvents'
  | 'recordStep'
  | 'recordInstruction'
  | 'recordDecision'
  | 'recordFileChange'
  | 'recordValidation'
  | 'raiseBlocker'
  | 'resolveBlocker'
  | 'askQuestion'
  | 'answerQuestion'
  | 'recordNote'
  | 'createPlan'
  | 'getPlan'
  | 'startPlanStep'
  | 'completePlanStep'
  | 'appendProgress'
  | 'compressContext'
  | 'resumePoint'
  | 'searchHistory'
> & {
  /** Optional: file edits are checkpointed when the engine has the checkpoint store. */
  checkpointFile?(input: {
    taskId: TaskId;
    path: string;
    before: string | null;
    after: string | null;
    stepId?: StepId;
  }): Promise<{ id: CheckpointEntryId }>;
};

/** The project folder methods the default workspace uses. */
export interface ProjectBrain {
  projectInfo(): Promise<unknown>;
  openProject(source: { kind: 'demo'; reset?: boolean }): Promise<unknown>;
  readProjectFile(path: string): Promise<{ text: string; version: string }>;
  writeProjectFile(
    path: string,
    content: string,
    options: { expectedVersion: string | null },
  ): Promise<unknown>;
}

/**
 * Edits the brain's open project; when none is open it opens the demo project (`resetDemo`: with its original
 * files, for a fresh run). Writes are version-checked against the read before them.
 */
export function projectWorkspace(
  brain: ProjectBrain,
  options: { readonly resetDemo?: boolean } = {},
): AgentWorkspace {
  const versions = new Map<string, string | null>();
  let opened = false;
  const ensureOpen = async () => {
    if (opened) return;
    if ((await brain.projectInfo()) === null)
      await brain.openProject({ kind: 'demo', reset: options.resetDemo === true });
    opened = true;
  };
  return {
    async read(path) {
      await ensureOpen();
      try {
        const file = await brain.readProjectFile(path);
        versions.set(path, file.version);
        return file.text;
      } catch (error) {
        if ((error as { code?: string }).code !== 'NotFound') throw error;
        versions.set(path, null);
        return null;
      }
    },
    async write(path, text) {
      await ensureOpen();
      await brain.writeProjectFile(path, text, { expectedVersion: versions.get(path) ?? null });
      versions.delete(path);
    },
  };
}

/** The scripted driver: the next action of the demo script not yet in the session's log. */
export function scriptedDriver(script: DemoScript = demoScript): AgentDriver {
  return {
    name: 'scripted demo',
    next(context) {
      const main = context.tasks.find((t) => t.id === context.taskId);
      return (
        nextScriptedAction(script, {
          taskId: context.taskId,
          taskState: main?.state ?? null,
          plan: context.plan,
          events: context.events,
          tasks: context.tasks,
          compressions: context.compressions,
        })?.action ?? null
      );
    },
  };
}

export interface ActionReport {
  readonly action: AgentAction;
  /** Actions done in this run so far, this one included. */
  readonly performed: number;
  /** The step resumePoint named before this action. */
  readonly before: ResumePoint['firstUnfinishedAction'];
}

export interface DemoAgentOptions {
  /** Resume this session; default: the latest session with the script's title, else a new one. */
  readonly sessionId?: SessionId;
  readonly driver?: AgentDriver;
  readonly script?: DemoScript;
  /** Where edits go; default: the brain's open project (the demo project if none). */
  readonly workspace?: AgentWorkspace;
  /** Stop after this many actions (a test's stand-in for a kill). */
  readonly maxActions?: number;
  /** Wait between actions, so a person can watch (default 0). */
  readonly delayMs?: number;
  readonly onAction?: (report: ActionReport) => void;
}

export interface DemoRunResult {
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
  readonly performed: readonly AgentAction[];
  readonly stoppedBy: 'finished' | 'paused' | 'max-actions';
  /** Where the session stands now. */
  readonly resume: ResumePoint;
}

export interface DemoAgent {
  /** Runs until the driver has nothing left, `pause()` is called, or `maxActions` is reached. */
  run(): Promise<DemoRunResult>;
  /** Stops after the action in progress. */
  pause(): void;
}

const SUMMARY_KIND = 'session_checkpoint';

export function createDemoAgent(
  brain: DemoBrain & Partial<ProjectBrain>,
  options: DemoAgentOptions = {},
): DemoAgent {
  const script = options.script ?? demoScript;
  const driver = options.driver ?? scriptedDriver(script);
  let workspace = options.workspace;
  let paused = false;

  async function findSession(): Promise<{ sessionId: SessionId; taskId: TaskId; fresh: boolean }> {
    let sessionId = options.sessionId;
    let fresh = false;
    if (sessionId === undefined) {
      const existing = (await brain.listSessions())
        .filter((s) => s.title === script.sessionTitle)
        .sort((a, b) => b.id - a.id)[0];
      fresh = existing === undefined;
      sessionId = existing?.id ?? (await brain.startSession({ title: script.sessionTitle })).id;
    }
    const tasks = await brain.listTasks(sessionId);
    const main = tasks.find((t) => t.title === script.taskTitle && t.parentTaskId === null);
    const taskId = main?.id ?? (await brain.startTask({ sessionId, title: script.taskTitle })).id;
    return { sessionId, taskId, fresh };
  }

  async function context(sessionId: SessionId, taskId: TaskId): Promise<AgentContext> {
    const [resume, events, tasks, plan, summaries] = await Promise.all([
      brain.resumePoint(sessionId),
      brain.listEvents(sessionId),
      brain.listTasks(sessionId),
      brain.getPlan(taskId),
      brain.listSummaries(sessionId),
    ]);
    const compressions = summaries.filter((s) => s.kind === SUMMARY_KIND).length;
    return { sessionId, taskId, resume, plan, events, tasks, compressions };
  }

  return {
    pause() {
      paused = true;
    },
    async run() {
      paused = false;
      const { sessionId, taskId, fresh } = await findSession();
      if (!workspace) {
        if (!brain.readProjectFile)
          throw new Error(
            'The demo agent needs a workspace: pass options.workspace, or a brain with the project API.',
          );
        workspace = projectWorkspace(brain as ProjectBrain, { resetDemo: fresh });
      }
      const performed: AgentAction[] = [];
      for (;;) {
        const ctx = await context(sessionId, taskId);
        const stop = paused
          ? 'paused'
          : options.maxActions !== undefined && performed.length >= options.maxActions
            ? 'max-actions'
            : null;
        const action = stop ? null : await driver.next(ctx);
        if (stop || action === null) {
          return { sessionId, taskId, performed, stoppedBy: stop ?? 'finished', resume: ctx.resume };
        }
        await perform(brain, workspace, ctx, action);
        performed.push(action);
        options.onAction?.({ action, performed: performed.length, before: ctx.resume.firstUnfinishedAction });
        if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      }
    },
  };
}

/** Runs the demo agent once (see createDemoAgent). */
export function runDemoAgent(
  brain: DemoBrain & Partial<ProjectBrain>,
  options: DemoAgentOptions = {},
): Promise<DemoRunResult> {
  return createDemoAgent(brain, options).run();
}

function latestEvent(events: readonly SessionEvent[], kind: SessionEvent['kind'], text: string): EventId {
  const found = [...events].reverse().find((e) => e.kind === kind && e.text === text);
  if (!found) throw new Error(`The demo agent found no ${kind} "${text}" in the log.`);
  return found.id;
}

function stepId(ctx: AgentContext, n: number) {
  const step = ctx.plan?.steps.find((s) => s.n === n);
  if (!step) throw new Error(`The plan has no step ${n}.`);
  return step.id;
}

/** Carries out one action; its event is recorded last, so an action cut short is simply done again. */
async function perform(
  brain: DemoBrain,
  workspace: AgentWorkspace,
  ctx: AgentContext,
  action: AgentAction,
): Promise<void> {
  const { sessionId } = ctx;
  const taskOf = (child?: string) =>
    child === undefined ? ctx.taskId : (ctx.tasks.find((t) => t.title === child)?.id ?? ctx.taskId);
  switch (action.kind) {
    case 'instruct':
      await brain.recordInstruction({ sessionId, taskId: ctx.taskId, text: action.text });
      return;
    case 'plan':
      await brain.createPlan({ taskId: ctx.taskId, goal: action.goal, steps: action.steps });
      return;
    case 'start_step':
      await brain.startPlanStep(stepId(ctx, action.n));
      return;
    case 'complete_step':
      await brain.completePlanStep(
        stepId(ctx, action.n),
        action.note === undefined ? {} : { note: action.note },
      );
      return;
    case 'decide': {
      const supersedes =
        action.supersedes === undefined
          ? {}
          : { supersedes: latestEvent(ctx.events, 'decision', action.supersedes) };
      await brain.recordDecision({
        sessionId,
        taskId: taskOf(action.child),
        text: action.text,
        ...(action.why ? { why: action.why } : {}),
        ...supersedes,
      });
      return;
    }
    case 'edit':
      await edit(brain, workspace, ctx, action, taskOf(action.child));
      return;
    case 'validate': {
      const taskId = taskOf(action.child);
      const call = toolCallOf(action) as ToolCallOf;
      await recordTool(brain, taskId, call, {
        status: action.result === 'passed' ? 'ok' : 'error',
        result: { output: action.output, exitCode: action.result === 'passed' ? 0 : 1 },
      });
      await brain.recordValidation({
        sessionId,
        taskId,
        name: action.name,
        result: action.result,
        text: action.output,
      });
      return;
    }
    case 'block':
      await brain.raiseBlocker({ sessionId, taskId: taskOf(action.child), text: action.text });
      return;
    case 'unblock':
      await brain.resolveBlocker({
        sessionId,
        taskId: taskOf(action.child),
        blockerId: latestEvent(ctx.events, 'blocker', action.blocker),
        text: action.text,
      });
      return;
    case 'ask':
      await brain.askQuestion({ sessionId, taskId: taskOf(action.child), text: action.text });
      return;
    case 'answer':
      await brain.answerQuestion({
        sessionId,
        taskId: ctx.taskId,
        questionId: latestEvent(ctx.events, 'question', action.question),
        text: action.text,
      });
      return;
    case 'spawn_child':
      await brain.startTask({ sessionId, title: action.title, parentTaskId: ctx.taskId, makeCurrent: false });
      return;
    case 'finish_child':
      await brain.setTaskState(taskOf(action.title), 'done');
      return;
    case 'progress':
      await brain.appendProgress({
        taskId: taskOf(action.child),
        text: action.text,
        ...(action.next ? { next: action.next } : {}),
      });
      return;
    case 'note':
      await brain.recordNote({ sessionId, taskId: taskOf(action.child), text: action.text });
      return;
    case 'recall': {
      const { hits } = await brain.searchHistory(action.query, { sessionId, limit: 3 });
      const top = hits[0];
      const found = top
        ? `${top.title} — ${top.snippet.replace(/\s+/g, ' ')} (#${top.eventId ?? top.sourceId})`
        : 'nothing';
      await recordTool(brain, ctx.taskId, toolCallOf(action) as ToolCallOf, {
        status: 'ok',
        result: { hits: hits.length, top: top ? found : null },
      });
      await brain.recordNote({
        sessionId,
        taskId: ctx.taskId,
        text: `${recallNote(action.query, found)}; to ${action.why}.`,
      });
      return;
    }
    case 'compress':
      await brain.compressContext(sessionId, { keepTail: action.keepTail });
      return;
    case 'finish':
      await brain.setTaskState(ctx.taskId, 'done');
      return;
  }
}

async function edit(
  brain: DemoBrain,
  workspace: AgentWorkspace,
  ctx: AgentContext,
  action: Extract<AgentAction, { kind: 'edit' }>,
  taskId: TaskId,
): Promise<void> {
  const current = await workspace.read(action.path);
  const done = alreadyApplied(current, action.edit);
  let before: string | null;
  let after: string;
  if (done) {
    before = done.before;
    after = current as string;
  } else {
    const next = applyEdit(current, action.edit);
    if (next === null)
      throw new Error(
        `The demo agent cannot apply its edit to ${action.path}: the file is not as the script expects.`,
      );
    before = current;
    after = next;
    await workspace.write(action.path, after);
  }
  const step = await recordTool(brain, taskId, toolCallOf(action, after) as ToolCallOf, {
    status: 'ok',
    result: { [before === null ? 'created' : 'modified']: action.path },
  });
  const entry = brain.checkpointFile
    ? await brain.checkpointFile({ taskId, path: action.path, before, after, stepId: step })
    : null;
  await brain.recordFileChange({
    sessionId: ctx.sessionId,
    taskId,
    path: action.path,
    change: before === null ? 'created' : 'modified',
    text: action.note,
    ...(entry ? { checkpointEntryId: entry.id } : {}),
  });
}

/**
 * One tool call of the agent, recorded as a step of its task before the event that says what it meant (so the
 * task's "Steps" list shows every edit, command run and history lookup; a resumed action records its call again,
 * as an agent that re-ran it would). The engine's `recordToolCall` (which classifies a call into checks and file
 * effects) is the place to switch to once it lands: call it here with `{ taskId, tool, input, output, exitCode }`.
 */
async function recordTool(
  brain: DemoBrain,
  taskId: TaskId,
  call: ToolCallOf,
  outcome: { readonly status: StepStatus; readonly result: Json },
): Promise<StepId> {
  const { id } = await brain.recordStep({
    taskId,
    tool: call.tool,
    params: call.input,
    result: outcome.result,
    status: outcome.status,
  });
  return id;
}
