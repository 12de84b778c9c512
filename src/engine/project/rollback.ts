/**
 * Rollback into the open folder: plan a restore of checkpoint entries (or a whole task), apply what the person
 * confirmed, and record the restore as its own finished "Restore: …" task — so the rollback can itself be undone.
 * Recorded paths are read as paths of the open folder by `folder-paths.ts` (through the session's root and the
 * folder's name).
 */
import type { CheckpointBody } from '../../core/api/checkpoints';
import type { RestoreInput, RestorePlan, RestoreResult, RestoreTarget } from '../../core/api/project';
import { BrainError } from '../../core/errors';
import { asTaskId, type CheckpointEntryId, type SessionId, type TaskId } from '../../core/ids';
import { toolContextFromJson } from '../../core/tool-calls/context';
import { applyRestore, planRestore, type RestoreCheckpointPort } from '../../storage/agent-folder/restore';
import { createSessionsRepo } from '../../storage/sqlite/repos/sessions-repo';
import { createTasksRepo } from '../../storage/sqlite/repos/tasks-repo';
import { createToolContextRepo } from '../../storage/sqlite/repos/tool-context-repo';
import type { CurrentProject } from './current';
import { checkpointsInFolder, explainFolderPaths } from './folder-paths';
import { sessionProject } from './session-project';
import { requireTarget } from './validate';

/** The checkpoint store as rollback uses it: read entries, and record the restore's own changes. */
export interface ProjectCheckpointPort extends RestoreCheckpointPort {
  checkpointFiles(
    inputs: readonly {
      readonly taskId: TaskId;
      readonly path: string;
      readonly before: CheckpointBody;
      readonly after: CheckpointBody;
    }[],
  ): Promise<{ readonly ids: readonly CheckpointEntryId[] }>;
}

const restorePrefix = 'Restore: ';
const undoPrefix = 'Undo restore: ';

/**
 * The restore task's title from the titles of the tasks it restores. Restoring a restore undoes it ("Undo
 * restore: X", not "Restore: Restore: X"), and undoing that undo is the restore of X again.
 */
export function restoreTitle(titles: readonly string[]): string {
  const [only] = titles;
  if (titles.length === 1 && only !== undefined) {
    if (only.startsWith(restorePrefix)) return undoPrefix + only.slice(restorePrefix.length);
    if (only.startsWith(undoPrefix)) return restorePrefix + only.slice(undoPrefix.length);
  }
  return restorePrefix + (titles.join(', ') || 'checkpoint entries');
}

/** The tasks a restore touches: the target's own, and those of every entry in its plan. */
const targetTasks = (target: RestoreTarget, files: readonly { readonly taskIds: readonly TaskId[] }[]) => [
  ...('taskId' in target ? [target.taskId] : []),
  ...files.flatMap((row) => row.taskIds).map(asTaskId),
];

export function createRollbackApi(project: CurrentProject, checkpoints?: () => ProjectCheckpointPort) {
  const { ctx } = project;

  function checkpointStore(): ProjectCheckpointPort {
    const port = checkpoints?.();
    if (!port)
      throw new BrainError(
        'Internal',
        'Rollback needs the checkpoint store, which this engine was built without.',
      );
    return port;
  }

  /** The root the recorder kept for a task's session (the agent's cwd of an imported one), cached per call. */
  function rootOf(): (taskId: TaskId) => Promise<string | null> {
    const tasks = createTasksRepo(ctx.db);
    const contexts = createToolContextRepo(ctx.db);
    const cache = new Map<TaskId, Promise<string | null>>();
    const load = async (taskId: TaskId) => {
      const { sessionId } = await tasks.get(taskId);
      return sessionId === null ? null : toolContextFromJson(await contexts.get(sessionId)).root;
    };
    return (taskId) => {
      let root = cache.get(taskId);
      if (!root) cache.set(taskId, (root = load(taskId)));
      return root;
    };
  }

  /**
   * Rollback writes into a session's own project only: a task whose agent worked in another folder than the open
   * one is refused (`PermissionDenied`, naming that project), never restored into the open folder instead.
   */
  async function requireOwnProject(taskIds: readonly TaskId[]): Promise<void> {
    const tasks = createTasksRepo(ctx.db);
    const open = project.folder();
    const sessionIds = new Set<SessionId>();
    for (const taskId of taskIds) {
      const { sessionId } = await tasks.get(taskId);
      if (sessionId !== null) sessionIds.add(sessionId);
    }
    for (const sessionId of sessionIds) {
      const own = await sessionProject(ctx.db, sessionId, open);
      if (own && !own.open)
        throw new BrainError(
          'PermissionDenied',
          `These changes belong to the project "${own.name}" (the agent worked in ${own.path}); the open folder "${open.name}" is not it. Open the folder "${own.name}" to roll back into it.`,
          { project: own.name, path: own.path, sessionId },
        );
    }
  }

  /** A finished "Restore: …" task beside the restored task(s), holding the restore's own checkpoint entries. */
  async function restoreTask(taskIds: readonly TaskId[]): Promise<TaskId> {
    const now = ctx.clock.now();
    const tasks = createTasksRepo(ctx.db);
    const sessions = createSessionsRepo(ctx.db);
    return ctx.db.transaction(async () => {
      const originals = await Promise.all(taskIds.map((id) => tasks.get(id)));
      const first = originals[0];
      const sessionId = first?.sessionId ?? (await sessions.create('Restores', now));
      const title = restoreTitle(originals.map((t) => t.title)).slice(0, ctx.limits.maxTitleChars);
      const id = await tasks.insert({
        sessionId,
        title,
        parentTaskId: null,
        references: originals.map((t) => ({ to: t.id, kind: 'reference' as const })),
        now,
      });
      await tasks.setState(id, 'done', now);
      return id;
    });
  }

  return {
    async planRestore(target: RestoreTarget): Promise<RestorePlan> {
      const checked = requireTarget(target);
      const f = project.folder();
      const recordedAs = new Map<string, string>();
      const store = checkpointsInFolder(checkpointStore(), f, rootOf(), recordedAs);
      const { files } = await planRestore(f, store, checked);
      await requireOwnProject(targetTasks(checked, files));
      return { target: checked, files: explainFolderPaths(files, f, recordedAs) };
    },

    async restoreCheckpoints(input: RestoreInput): Promise<RestoreResult> {
      const target = requireTarget(input?.target);
      const f = project.folder();
      const store = checkpointsInFolder(checkpointStore(), f, rootOf(), new Map());
      const restorePlan = await planRestore(f, store, target);
      await requireOwnProject(targetTasks(target, restorePlan.files));
      const { applied, failure } = await applyRestore(f, restorePlan, input.files);
      if (applied.length === 0) {
        if (failure) throw failure;
        return { restoreTaskId: null, restored: [] };
      }
      const taskIds = [
        ...new Set(
          restorePlan.files
            .filter((row) => applied.some((a) => a.path === row.path))
            .flatMap((row) => row.taskIds),
        ),
      ].map(asTaskId);
      const taskId = await restoreTask(taskIds);
      const { ids } = await store.checkpointFiles(
        applied.map((a) => ({ taskId, path: a.path, before: a.previous, after: a.restored })),
      );
      for (const a of applied) project.changed(a.path);
      ctx.emit({ topic: 'tasks', taskId });
      if (failure) throw failure;
      return {
        restoreTaskId: taskId,
        restored: applied.map((a, i) => ({
          path: a.path,
          entryId: ids[i] as CheckpointEntryId,
          action: a.restored === null ? ('delete' as const) : ('write' as const),
        })),
      };
    },
  };
}
