/**
 * Checkpoints: the before/after bodies of every file an agent changes, stored byte-exact, deduplicated and
 * delta-compressed, and verified on every read.
 */
import type { CheckpointEntryId, StepId, TaskId } from '../ids';

export type { CheckpointEntryId } from '../ids';

/** A file body: text as a string, anything else as bytes, `null` when the file does not exist. */
export type CheckpointBody = string | Uint8Array | null;

export interface CheckpointFileInput {
  readonly taskId: TaskId;
  /** The file's path as the agent names it (relative to the project); any non-empty text without NUL. */
  readonly path: string;
  readonly before: CheckpointBody;
  readonly after: CheckpointBody;
  /** The step that made the change, if any (it must belong to the same task). */
  readonly stepId?: StepId;
}

/**
 * - `absent`: the file did not exist;
 * - `text` / `bytes`: stored; it reads back as a string / as a Uint8Array, as it went in;
 * - `too-large`: over the engine's `maxCheckpointBodyBytes`: recorded (with its size) but not stored.
 */
export type CheckpointSideKind = 'absent' | 'text' | 'bytes' | 'too-large';

export interface CheckpointSide {
  readonly kind: CheckpointSideKind;
  /** Size in bytes (UTF-8 for text); null when absent. */
  readonly size: number | null;
}

export interface CheckpointEntry {
  readonly id: CheckpointEntryId;
  readonly taskId: TaskId;
  readonly stepId: StepId | null;
  readonly path: string;
  readonly before: CheckpointSide;
  readonly after: CheckpointSide;
  /** True when either side is binary (bytes with a NUL in the first 8000, or not valid UTF-8). */
  readonly binary: boolean;
  readonly createdAt: number;
  /** Set once cleanup dropped the entry's bodies: the entry (path, sizes) stays, its content does not. */
  readonly removed: { readonly at: number; readonly reason: string } | null;
}

export interface CheckpointContent {
  readonly id: CheckpointEntryId;
  readonly taskId: TaskId;
  readonly path: string;
  readonly before: CheckpointBody;
  readonly after: CheckpointBody;
}

/**
 * `patch` is always a unified diff text: for text, from the `diff` package (3 lines of context); for binary or
 * not-checkpointed sides, a one-line git-style notice ("Binary files a/x and b/x differ").
 */
export interface CheckpointDiff {
  readonly id: CheckpointEntryId;
  readonly path: string;
  readonly kind: 'text' | 'binary' | 'too-large';
  readonly patch: string;
  /** Lines added and removed (0 for binary and too-large). */
  readonly added: number;
  readonly removed: number;
}

export interface CheckpointsApi {
  /** Records one file change. Bodies over the size cap are recorded as `too-large`, never dropped silently. */
  checkpointFile(input: CheckpointFileInput): Promise<{ id: CheckpointEntryId }>;
  /** Several changes in one transaction (all or none), ids in input order. */
  checkpointFiles(inputs: readonly CheckpointFileInput[]): Promise<{ ids: CheckpointEntryId[] }>;
  /** The task's entries, oldest first, removed ones included (with `removed` set). */
  listCheckpoints(taskId: TaskId): Promise<CheckpointEntry[]>;
  /**
   * Exactly the bytes that went in (strings back as strings). Throws `CorruptBody` (naming entry and path) when
   * a stored body fails verification, `CheckpointRemoved` when cleanup removed the bodies, `TooLarge` when a side
   * was not checkpointed, `NotFound` for an unknown id.
   */
  readCheckpoint(entryId: CheckpointEntryId): Promise<CheckpointContent>;
  /**
   * Several entries in one call and one read transaction (a task's rollback, a list of diffs): the same
   * results and errors as `readCheckpoint`, in input order; the first failing entry fails the call.
   */
  readCheckpoints(entryIds: readonly CheckpointEntryId[]): Promise<CheckpointContent[]>;
  /** A unified diff of the entry; the same errors as `readCheckpoint` except that too-large is a diff kind. */
  diffCheckpoint(entryId: CheckpointEntryId): Promise<CheckpointDiff>;
}
