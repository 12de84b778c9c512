/**
 * Checkpoints: the before/after bodies of every file an agent changes, stored byte-exact, deduplicated and
 * delta-compressed, and verified on every read — or, when a transcript shows a change only as a unified diff and
 * the bodies are not known, that diff (a patch entry), stored and verified the same way.
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
 * - `too-large`: over the engine's `maxCheckpointBodyBytes`: recorded (with its size) but not stored;
 * - `unknown`: the body was never seen: the entry holds the change as a patch (`CheckpointEntry.patch`).
 */
export type CheckpointSideKind = 'absent' | 'text' | 'bytes' | 'too-large' | 'unknown';

export interface CheckpointSide {
  readonly kind: CheckpointSideKind;
  /** Size in bytes (UTF-8 for text); null when absent or unknown. */
  readonly size: number | null;
}

export interface CheckpointEntry {
  readonly id: CheckpointEntryId;
  readonly taskId: TaskId;
  readonly stepId: StepId | null;
  readonly path: string;
  readonly before: CheckpointSide;
  readonly after: CheckpointSide;
  /**
   * A patch entry: the change is kept as a unified diff of `size` bytes (UTF-8), both sides `unknown` —
   * `diffCheckpoint` returns it (kind `patch`), `readCheckpoint` refuses with `BodiesUnknown`, and a rollback
   * reverses it on the file as it is now. Null for an entry with bodies.
   */
  readonly patch: { readonly size: number } | null;
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
 * `patch` is always a unified diff text: for text, from the `diff` package (3 lines of context); for a patch
 * entry (kind `patch`), the diff that was recorded, with its file headers as `a/<path>` / `b/<path>`; for binary
 * or not-checkpointed sides, a one-line git-style notice ("Binary files a/x and b/x differ").
 */
export interface CheckpointDiff {
  readonly id: CheckpointEntryId;
  readonly path: string;
  /** `patch`: the entry holds only the change (its bodies are not known); `patch` is that change. */
  readonly kind: 'text' | 'patch' | 'binary' | 'too-large';
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
   * was not checkpointed, `BodiesUnknown` for a patch entry (only its diff is known: `diffCheckpoint`),
   * `NotFound` for an unknown id.
   */
  readCheckpoint(entryId: CheckpointEntryId): Promise<CheckpointContent>;
  /**
   * Several entries in one call and one read transaction (a task's rollback, a list of diffs): the same
   * results and errors as `readCheckpoint`, in input order; the first failing entry fails the call.
   */
  readCheckpoints(entryIds: readonly CheckpointEntryId[]): Promise<CheckpointContent[]>;
  /**
   * A unified diff of the entry; the same errors as `readCheckpoint` except that too-large and patch are diff
   * kinds (a patch that fails verification is `CorruptBody`, side `patch`).
   */
  diffCheckpoint(entryId: CheckpointEntryId): Promise<CheckpointDiff>;
}
