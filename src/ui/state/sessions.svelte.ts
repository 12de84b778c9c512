import type {
  KnownProject,
  Message,
  Session,
  SessionOverview,
  SessionEvent,
  SessionId,
  Step,
  Summary,
  Task,
  TaskId,
  TaskState,
} from '../../lib/index';
import { projectTitle, taskStates } from '../labels';
import {
  allSessions,
  groupSessions,
  groupsShown,
  matchesFilter,
  moreRows,
  rowsPerGroup,
  type SessionGroup,
  type SessionListFilter,
} from '../session-list';
import { layoutTaskGraph } from '../task-graph';
import { Operation } from './operation.svelte';
import { ViewState } from './view-state.svelte';

export interface TaskDetail {
  readonly task: Task;
  readonly steps: readonly Step[];
  readonly messages: readonly Message[];
  readonly summaries: readonly Summary[];
  /** The structured events recorded for the task (decisions, file changes, checks…), oldest first. */
  readonly events: readonly SessionEvent[];
}

/**
 * What deleting a session does, said before it is done: the session row and what hangs on it go at once; its
 * tasks stay (as tasks of no session) and cleanup removes their heavy data later, except where something keeps it.
 */
export interface SessionDeletion {
  readonly session: Session;
  readonly tasks: number;
  /** Pinned tasks: they keep their steps and checkpoints. */
  readonly pinned: number;
  /** Tasks whose heavy data cleanup will remove (unless a task of another session still needs them). */
  readonly cleanable: number;
  /** Step and checkpoint bytes those tasks hold now (what cleaning them would free, about). */
  readonly cleanableBytes: number;
}

/**
 * The sessions & tasks view's data: the sessions list (`sessionsOverview`: filtered, grouped by project and agent,
 * drawn a few rows a group at a time), the chosen session's tasks (filtered by state, and laid out as a graph) and
 * the chosen task's steps, messages and summaries. The selection comes from the route; a fetch that finishes after
 * the selection moved on is dropped (the next one is already queued).
 */
export class SessionsState extends ViewState {
  /** Every session summed up, most recently updated first. */
  sessions = $state.raw<readonly SessionOverview[]>([]);
  /** The projects the brain knows (agents' working folders). */
  projects = $state.raw<readonly KnownProject[]>([]);
  /** The open project's name as people see it, or null: the brain's own sessions use it. */
  openProject = $state.raw<string | null>(null);
  listFilter = $state.raw<SessionListFilter>(allSessions);
  /** Rows shown per group key beyond the first `rowsPerGroup`, and how many groups are shown. */
  shownRows = $state.raw<Readonly<Record<string, number>>>({});
  shownGroups = $state(groupsShown);
  /** The session shown: the one asked for, else the task's own session, else the most recent. */
  session = $state.raw<Session | null>(null);
  tasks = $state.raw<readonly Task[]>([]);
  sessionSummaries = $state.raw<readonly Summary[]>([]);
  detail = $state.raw<TaskDetail | null>(null);
  /** Which task states are shown; all of them by default. */
  filter = $state.raw<readonly TaskState[]>(taskStates);
  loaded = $state(false);
  /** A session deletion waiting for the person's confirmation. */
  deletion = $state.raw<SessionDeletion | null>(null);
  deleting = new Operation();
  pinning = new Operation();

  matching = $derived(this.sessions.filter((s) => matchesFilter(s, this.listFilter)));
  groups = $derived(groupSessions(this.matching));

  visibleTasks = $derived(this.tasks.filter((task) => this.filter.includes(task.state)));
  graph = $derived(layoutTaskGraph(this.tasks));
  countsByState = $derived(countStates(this.tasks));

  #wantSession: SessionId | null = null;
  #wantTask: TaskId | null = null;

  /** Selects a session and/or task (ids from the route; `null` means "the default"). */
  select(sessionId: number | null, taskId: number | null): void {
    if (sessionId === this.#wantSession && taskId === this.#wantTask) return;
    this.#wantSession = sessionId as SessionId | null;
    this.#wantTask = taskId as TaskId | null;
    this.refresh();
  }

  /** Narrows the sessions list; what is shown starts again from each group's first rows. */
  filterList(change: Partial<SessionListFilter>): void {
    this.listFilter = { ...this.listFilter, ...change };
    this.shownRows = {};
    this.shownGroups = groupsShown;
  }

  rowsShown(group: SessionGroup): number {
    return Math.min(group.sessions.length, this.shownRows[group.key] ?? rowsPerGroup);
  }

  showMoreRows(group: SessionGroup): void {
    this.shownRows = { ...this.shownRows, [group.key]: this.rowsShown(group) + moreRows };
  }

  showMoreGroups(): void {
    this.shownGroups += groupsShown;
  }

  toggleState(state: TaskState): void {
    this.filter = this.filter.includes(state)
      ? this.filter.filter((s) => s !== state)
      : taskStates.filter((s) => s === state || this.filter.includes(s));
  }

  showAllStates(): void {
    this.filter = taskStates;
  }

  /** Pins or unpins a task: a pinned task keeps its steps and checkpoints whatever becomes of it. */
  async setPinned(taskId: TaskId, pinned: boolean): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    await this.pinning.run(
      { phase: pinned ? 'Pinning' : 'Unpinning', done: 0, total: null, unit: 'items' },
      () => brain.pinTask(taskId, pinned),
    );
    this.refresh();
  }

  /** Step one of deleting a session: what goes now, what stays, and what cleanup will remove. Deletes nothing. */
  async planDeletion(session: Session): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    this.deleting.error = null;
    const [tasks, plan] = await Promise.all([brain.listTasks(session.id), brain.planCleanup()]);
    const heavy: Record<number, { stepBytes: number; checkpointExclusiveStoredBytes: number }> =
      Object.fromEntries(plan.tasks.map((t) => [t.taskId, t.heavy]));
    const unpinned = tasks.filter((t) => !t.pinned && t.heavyRemovedAt === null);
    this.deletion = {
      session,
      tasks: tasks.length,
      pinned: tasks.filter((t) => t.pinned).length,
      cleanable: unpinned.length,
      cleanableBytes: unpinned.reduce((sum, t) => {
        const h = heavy[t.id];
        return sum + (h ? h.stepBytes + h.checkpointExclusiveStoredBytes : 0);
      }, 0),
    };
  }

  cancelDeletion(): void {
    this.deletion = null;
  }

  /** Step two: deletes the session the person confirmed. Resolves true when it is gone. */
  async confirmDeletion(): Promise<boolean> {
    const brain = this.source.brain;
    const deletion = this.deletion;
    if (!brain || !deletion) return false;
    const done = await this.deleting.run(
      { phase: 'Deleting the session', done: 0, total: null, unit: 'items' },
      async () => {
        await brain.deleteSession(deletion.session.id);
        return true;
      },
    );
    if (done) this.deletion = null;
    this.refresh();
    return done === true;
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const wantSession = this.#wantSession;
    const wantTask = this.#wantTask;
    const [overview, open] = await Promise.all([brain.sessionsOverview(), brain.projectInfo()]);
    const sessions = overview.sessions;
    let sessionId = wantSession;
    if (sessionId === null && wantTask !== null) {
      // A link to a task alone (from search, checkpoints): show it within its own session.
      sessionId = (await brain.getTask(wantTask)).sessionId;
    }
    const chosen = sessions.find((s) => s.id === sessionId) ?? sessions[0] ?? null;
    const [session, tasks, sessionSummaries] = chosen
      ? await Promise.all([
          brain.getSession(chosen.id),
          brain.listTasks(chosen.id),
          brain.listSummaries(chosen.id),
        ])
      : [null, [], []];
    const taskId = wantTask ?? session?.currentTaskId ?? null;
    const task = tasks.find((t) => t.id === taskId) ?? null;
    let detail: TaskDetail | null = null;
    if (task && session) {
      const [steps, messages, events] = await Promise.all([
        brain.listSteps(task.id),
        brain.listMessages(session.id, task.id),
        brain.listEvents(session.id, { taskId: task.id, limit: 1000 }),
      ]);
      detail = {
        task,
        steps,
        messages,
        events,
        summaries: sessionSummaries.filter((s) => s.taskId === task.id),
      };
    }
    if (wantSession !== this.#wantSession || wantTask !== this.#wantTask) return;
    this.sessions = sessions;
    this.projects = overview.projects;
    this.openProject = open === null ? null : projectTitle(open);
    this.session = session;
    this.tasks = tasks;
    this.sessionSummaries = sessionSummaries.filter((s) => s.taskId === null);
    this.detail = detail;
    this.error = null;
    this.loaded = true;
  }
}

function countStates(tasks: readonly Task[]): Record<TaskState, number> {
  const counts = Object.fromEntries(taskStates.map((s) => [s, 0])) as Record<TaskState, number>;
  for (const task of tasks) counts[task.state]++;
  return counts;
}
