import type { SessionId, TaskId } from '../ids';
import type { ReferenceKind, TaskState } from '../model';

/** What the policy needs to know about a session: only which task it works on now. */
export interface RetentionSession {
  readonly id: SessionId;
  readonly currentTaskId: TaskId | null;
}

/**
 * What the policy needs to know about a task. Bytes are not part of the policy: the feature adds them. Task ids are
 * given in the order tasks start (the engine's ids only grow), so "newer" means a higher id.
 */
export interface RetentionTask {
  readonly id: TaskId;
  /** null (or a session that no longer exists): the task is an orphan. */
  readonly sessionId: SessionId | null;
  readonly state: TaskState;
  readonly pinned: boolean;
  /** Outgoing references: tasks this one still needs. */
  readonly references: readonly { readonly to: TaskId; readonly kind: ReferenceKind }[];
  readonly heavyRemovedAt: number | null;
}

export interface RetentionState {
  readonly sessions: readonly RetentionSession[];
  readonly tasks: readonly RetentionTask[];
  /**
   * Ids of tasks whose row is gone but whose checkpoint entries are still stored. They are orphans too, and share
   * the per-pass cap with orphan tasks. Ids that name an existing task are ignored.
   */
  readonly vanishedTaskIds?: readonly TaskId[];
  /** Orphans cleaned in one pass at most (default 4): a deleted session never causes one huge cascade. */
  readonly orphanLimit?: number;
}

/** Why a task keeps its heavy data. A task may have several; the first is the one to show. */
export type KeepReason =
  | { readonly kind: 'current'; readonly sessionId: SessionId }
  | { readonly kind: 'running' }
  | { readonly kind: 'waiting_user' }
  | { readonly kind: 'pinned' }
  /**
   * The most recent task of its session, finished (done or failed): the interface still offers its rollback, until
   * a newer task of that session starts.
   */
  | { readonly kind: 'latest'; readonly sessionId: SessionId }
  /**
   * Reached from a protected root over references. `by` is the kept task that references this one, `path` the
   * chain of task ids from the root to this task (both ends included), `refKind` the kind of the last hop.
   */
  | {
      readonly kind: 'referenced';
      readonly by: TaskId;
      readonly refKind: ReferenceKind;
      readonly path: readonly TaskId[];
    };

/** Why a task loses its heavy data. */
export type CleanReason =
  /**
   * Superseded: `by` is the next task of its session, started after it; absent, the task was marked superseded
   * (and no newer task of its session exists). Being done is not being superseded.
   */
  | { readonly kind: 'superseded'; readonly by?: TaskId }
  /** Written by earlier versions, which cleaned any finished task outside the kept set; never planned now. */
  | { readonly kind: 'done' }
  /** Written by earlier versions (see `done`); never planned now. */
  | { readonly kind: 'failed' }
  /** The task's session is gone: nobody can operate on it any more, whatever its state says. */
  | { readonly kind: 'orphan'; readonly state: TaskState }
  /** The task row is gone; its checkpoint entries remain. */
  | { readonly kind: 'task-gone' };

/** Why nothing happens to a task that is not protected. */
export type SkipReason =
  | { readonly kind: 'already-cleaned'; readonly at: number }
  /** An orphan past this pass's limit: a later pass takes it. */
  | { readonly kind: 'orphan-deferred'; readonly limit: number };

export type TaskVerdict =
  | {
      readonly taskId: TaskId;
      readonly verdict: 'keep';
      readonly reasons: readonly [KeepReason, ...KeepReason[]];
    }
  | { readonly taskId: TaskId; readonly verdict: 'clean'; readonly reasons: readonly [CleanReason] }
  | { readonly taskId: TaskId; readonly verdict: 'skip'; readonly reasons: readonly [SkipReason] };

export type RetentionReason = KeepReason | CleanReason | SkipReason;

/** A task whose row is gone but whose checkpoint entries remain. */
export type VanishedVerdict =
  | {
      readonly taskId: TaskId;
      readonly verdict: 'clean';
      readonly reasons: readonly [{ readonly kind: 'task-gone' }];
    }
  | {
      readonly taskId: TaskId;
      readonly verdict: 'skip';
      readonly reasons: readonly [{ readonly kind: 'orphan-deferred'; readonly limit: number }];
    };

export interface RetentionPlan {
  /** One verdict per task of the state, ordered by task id. */
  readonly verdicts: readonly TaskVerdict[];
  /** One verdict per vanished task id, ordered by id. */
  readonly vanished: readonly VanishedVerdict[];
  /** The ids to clean (tasks and vanished tasks), in the order a cleanup applies them (ascending id). */
  readonly clean: readonly TaskId[];
}
