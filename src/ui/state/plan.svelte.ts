import {
  isBrainError,
  type AgentFileContent,
  type Brain,
  type BrainChange,
  type CompressionResult,
  type ContextBudget,
  type PlanItem,
  type ProgressEntry,
  type ResumePoint,
  type Session,
  type SessionProject,
  type SessionEvent,
  type SessionId,
} from '../../lib/index';
import { messageOf } from '../errors';
import { Operation } from './operation.svelte';
import { ViewState } from './view-state.svelte';

/** The events that make the progress log: what happened to the plan, and what the agent said comes next. */
const progressKinds = ['progress', 'plan_step_started', 'plan_step_done'] as const;

/** The project's own plan files (the agent's `.agent/plan/`), shown when the session recorded no plan. */
export const projectPlanPath = '.agent/plan/PLAN.md';
export const projectProgressPath = '.agent/plan/PROGRESS.md';

/** The open project's PLAN.md, parsed; or why it could not be read. */
export type ProjectPlanFile =
  | {
      readonly path: string;
      readonly title: string | null;
      readonly goal: string | null;
      readonly items: readonly PlanItem[];
      readonly problems: number;
    }
  | { readonly path: string; readonly error: string };

/** The open project's PROGRESS.md, parsed (entries in file order); or why it could not be read. */
export type ProjectProgressFile =
  | { readonly path: string; readonly entries: readonly ProgressEntry[]; readonly problems: number }
  | { readonly path: string; readonly error: string };

/** Whether a compression now would move anything, and if not, why not (for a disabled button). */
export function compressBlocker(budget: ContextBudget | null, resume: ResumePoint | null): string | null {
  if (!budget) return null;
  if (budget.before.events === 0) return 'Nothing to compress: the session has recorded no events yet.';
  const moving = budget.kept.length + budget.dropped.length;
  // A failed append leaves events out of SESSION.jsonl; a compression rewrites the file, so it still helps.
  if (moving === 0 && (resume?.folder?.missingFromFile ?? 0) === 0) {
    const n = budget.tail.length;
    return `Nothing to move: all ${n} active event${n === 1 ? '' : 's'} fit in the verbatim tail a compression keeps.`;
  }
  return null;
}

/** A project file read for the view: null when it is not there, an error said when it cannot be read. */
async function readProjectFile<T>(
  brain: Brain,
  path: string,
  view: (content: AgentFileContent) => T | null,
): Promise<T | { path: string; error: string } | null> {
  try {
    return view(await brain.readAgentFile(path));
  } catch (error) {
    if (isBrainError(error, 'NotFound') || isBrainError(error, 'NotADirectory')) return null;
    if (isBrainError(error)) return { path, error: messageOf(error) };
    throw error;
  }
}

/**
 * The plan & progress view's data for one session: its resume point (first unfinished action, plan, checks
 * already passed, files changed), the progress log, and the context budget a compression would give.
 */
export class PlanState extends ViewState {
  sessions = $state.raw<readonly Session[]>([]);
  session = $state.raw<Session | null>(null);
  resume = $state.raw<ResumePoint | null>(null);
  /** Newest first. */
  log = $state.raw<readonly SessionEvent[]>([]);
  budget = $state.raw<ContextBudget | null>(null);
  /** The folder the session's agent worked in (null: its history does not say, or no session). */
  ownProject = $state.raw<SessionProject | null>(null);
  /**
   * The open project's PLAN.md / PROGRESS.md (null: no project open, no such file, or the open project is not
   * the session's own: an imported session never shows another project's plan).
   */
  projectPlan = $state.raw<ProjectPlanFile | null>(null);
  projectProgress = $state.raw<ProjectProgressFile | null>(null);
  lastCompression = $state.raw<CompressionResult | null>(null);
  compressing = new Operation();
  loaded = $state(false);

  #want: SessionId | null = null;

  /** `null`: the most recent session. */
  select(sessionId: number | null): void {
    if (sessionId === this.#want) return;
    this.#want = sessionId as SessionId | null;
    this.lastCompression = null;
    this.refresh();
  }

  /** Compresses the session's context now (the engine also does it on its own past a bound). */
  async compress(): Promise<CompressionResult | undefined> {
    const brain = this.source.brain;
    const session = this.session;
    if (!brain || !session) return undefined;
    const result = await this.compressing.run(
      { phase: 'Compressing the context', done: 0, total: null, unit: 'items' },
      () => brain.compressContext(session.id),
    );
    if (result) this.lastCompression = result;
    return result;
  }

  protected override wants(change: BrainChange): boolean {
    return change.topic !== 'steps' && change.topic !== 'checkpoints';
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const want = this.#want;
    const sessions = await brain.listSessions();
    const session = sessions.find((s) => s.id === want) ?? (want === null ? (sessions[0] ?? null) : null);
    if (want !== null && !session) throw new Error(`Session ${want} does not exist (any more).`);
    const [resume, log, active] = session
      ? await Promise.all([
          brain.resumePoint(session.id),
          brain.listEvents(session.id, { kinds: progressKinds }),
          brain.activeCheckpoint(session.id),
        ])
      : [null, [], null];
    const own = session ? await brain.sessionProject(session.id) : null;
    const [projectPlan, projectProgress] = own && !own.open ? [null, null] : await this.#projectFiles(brain);
    if (want !== this.#want) return;
    this.ownProject = own;
    this.projectPlan = projectPlan;
    this.projectProgress = projectProgress;
    this.sessions = sessions;
    this.session = session;
    this.resume = resume;
    this.log = [...log].reverse();
    this.budget = active?.budget ?? null;
    this.error = null;
    this.loaded = true;
  }

  /** The project's plan files, read through the project API (as the Project view reads them). */
  async #projectFiles(brain: Brain): Promise<[ProjectPlanFile | null, ProjectProgressFile | null]> {
    const info = await brain.projectInfo();
    if (info?.agentFolder !== 'present') return [null, null];
    return Promise.all([
      readProjectFile(brain, projectPlanPath, ({ path, view, problems }) =>
        view.kind === 'plan'
          ? { path, title: view.title, goal: view.goal, items: view.items, problems: problems.length }
          : null,
      ),
      readProjectFile(brain, projectProgressPath, ({ path, view, problems }) =>
        view.kind === 'progress' ? { path, entries: view.entries, problems: problems.length } : null,
      ),
    ]);
  }
}
