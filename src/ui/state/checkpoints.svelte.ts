import type {
  BrainChange,
  CheckpointDiff,
  CheckpointEntry,
  CheckpointEntryId,
  RestorePlan,
  RestoreResult,
  RestoreTarget,
  Session,
  SessionId,
  Task,
  TaskId,
} from '../../lib/index';
import { messageOf } from '../errors';
import { Operation } from './operation.svelte';
import { ViewState } from './view-state.svelte';

/** The changes that can alter a session's tasks and their checkpoints. */
const shownTopics: readonly BrainChange['topic'][] = [
  'tasks',
  'sessions',
  'checkpoints',
  'cleanup',
  'database',
];

export interface TaskCheckpoints {
  readonly task: Task;
  readonly entries: readonly CheckpointEntry[];
}

/**
 * The checkpoints view's data: for one session, each task with the files it changed; the chosen entry's diff;
 * and the rollback flow (plan → confirm the listed files, changed ones only if the person says so → restore).
 */
export class CheckpointsState extends ViewState {
  sessions = $state.raw<readonly Session[]>([]);
  session = $state.raw<Session | null>(null);
  /**
   * Every task of the session has ended (done, failed, superseded), or it is an imported run: its story is told in
   * the past tense.
   */
  sessionEnded = $state(false);
  tasks = $state.raw<readonly TaskCheckpoints[]>([]);
  task = $state.raw<TaskCheckpoints | null>(null);
  entry = $state.raw<CheckpointEntry | null>(null);
  diff = $state.raw<CheckpointDiff | null>(null);
  diffError = $state<string | null>(null);
  /** A rollback waiting for confirmation. */
  restorePlan = $state.raw<RestorePlan | null>(null);
  restoreResult = $state.raw<RestoreResult | null>(null);
  restoring = new Operation();
  loaded = $state(false);

  #want: { session: SessionId | null; task: TaskId | null; entry: CheckpointEntryId | null } = {
    session: null,
    task: null,
    entry: null,
  };

  select(session: number | null, task: number | null, entry: number | null): void {
    const want = this.#want;
    if (want.session === session && want.task === task && want.entry === entry) return;
    this.#want = {
      session: session as SessionId | null,
      task: task as TaskId | null,
      entry: entry as CheckpointEntryId | null,
    };
    this.restorePlan = null;
    this.refresh();
  }

  /** Step one of a rollback: which files it would write, each flagged if it changed since. Writes nothing. */
  async planRollback(target: RestoreTarget): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    this.restoreResult = null;
    this.restoring.error = null;
    try {
      this.restorePlan = await brain.planRestore(target);
    } catch (error) {
      this.restoring.error = messageOf(error);
    }
  }

  cancelRollback(): void {
    this.restorePlan = null;
  }

  /** Step two: restores the clean files and the changed ones the person chose to overwrite. */
  async confirmRollback(overwrite: ReadonlySet<string>): Promise<RestoreResult | undefined> {
    const brain = this.source.brain;
    const plan = this.restorePlan;
    if (!brain || !plan) return undefined;
    const files = plan.files
      .filter(
        (f) =>
          f.action !== 'none' && (f.state === 'clean' || (f.state === 'changed' && overwrite.has(f.path))),
      )
      .map((f) => ({ path: f.path, expectedVersion: f.currentVersion }));
    const result = await this.restoring.run(
      { phase: 'Restoring files', done: 0, total: files.length, unit: 'items' },
      () => brain.restoreCheckpoints({ target: plan.target, files }),
    );
    if (result) {
      this.restoreResult = result;
      this.restorePlan = null;
    }
    return result;
  }

  protected override wants(change: BrainChange): boolean {
    return shownTopics.includes(change.topic);
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const want = this.#want;
    const sessions = await brain.listSessions();
    let sessionId = want.session;
    if (sessionId === null && want.task !== null) sessionId = (await brain.getTask(want.task)).sessionId;
    const session = sessions.find((s) => s.id === sessionId) ?? sessions[0] ?? null;
    const tasks = session ? await brain.listTasks(session.id) : [];
    const withEntries = (
      await Promise.all(tasks.map(async (task) => ({ task, entries: await brain.listCheckpoints(task.id) })))
    ).filter((t) => t.entries.length > 0);
    const task = withEntries.find((t) => t.task.id === want.task) ?? withEntries[0] ?? null;
    const entry = task?.entries.find((e) => e.id === want.entry) ?? task?.entries[0] ?? null;
    let diff: CheckpointDiff | null = null;
    let diffError: string | null = null;
    if (entry && !entry.removed) {
      try {
        diff = await brain.diffCheckpoint(entry.id);
      } catch (error) {
        diffError = messageOf(error);
      }
    }
    // A past session says what happened, not what has not happened "yet": one whose tasks all ended, or another
    // agent's imported run (a record; nothing more comes to it here). Asked only when the empty text will show.
    const ended =
      (tasks.length > 0 && tasks.every((t) => t.state !== 'running' && t.state !== 'waiting_user')) ||
      (session !== null &&
        withEntries.length === 0 &&
        (await brain.listImportedSessions()).some((i) => i.sessionId === session.id));
    if (want !== this.#want) return;
    this.sessions = sessions;
    this.session = session;
    this.sessionEnded = ended;
    this.tasks = withEntries;
    this.task = task;
    this.entry = entry;
    this.diff = diff;
    this.diffError = diffError;
    this.error = null;
    this.loaded = true;
  }
}
