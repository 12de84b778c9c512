/**
 * Recording a real agent's tool calls: one call per tool call (or a batch), from which the engine derives the step,
 * the check runs, the file changes with their checkpoint bodies, the agent's todo list and its stated intention —
 * in one transaction. The classifier (src/core/tool-calls) says what a call means; the engine stores it.
 */
import type { CheckpointBody } from './checkpoints';
import type { CheckCounts, CheckKind, CheckStatus, StepKind, ToolCall } from '../tool-calls/types';
import type { FileChangeKind, PlanStepId } from '../events/model';
import type { CheckpointEntryId, EventId, SessionId, StepId, TaskId } from '../ids';

export type { ToolCall, StepKind, CheckKind, CheckStatus, CheckCounts } from '../tool-calls/types';

/**
 * A file's bodies around the call, as the caller read them (null: the file did not exist; left out: not read —
 * the engine then uses the body the session last recorded for it, if any).
 */
export interface ToolCallFile {
  readonly path: string;
  readonly before?: CheckpointBody;
  readonly after?: CheckpointBody;
  /**
   * A unified diff of this file's change (`--- a/x` / `+++ b/x` and its hunks), when the caller or the transcript
   * shows the change as a patch rather than as whole bodies (Claude Code's `structuredPatch`, Codex's
   * `unified_diff`, a `git diff` the agent printed). Kept as a patch checkpoint when the bodies are not known.
   */
  readonly diff?: string;
}

export interface RecordToolCallInput {
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
  readonly call: ToolCall;
  /**
   * Bodies the caller captured before and after the call (a playground with a readable workspace). They win over
   * what the classifier can derive, and paths it did not name (a script that edited files) are recorded too.
   */
  readonly files?: readonly ToolCallFile[];
  /**
   * The project root the agent works in (absolute, as its tool calls name it, e.g. `/testbed`). Paths under it are
   * recorded relative to it; paths outside it are recorded as outside (they never make a check stale). Kept for
   * the session: later calls may leave it out.
   */
  readonly root?: string;
  /** The agent's own text before the call (its reasoning, what it means to do): its stated intention. */
  readonly thought?: string;
  readonly planStepId?: PlanStepId;
  /** When the call ran (epoch ms; an import passes the transcript's time). Default: now. */
  readonly at?: number;
}

export interface DerivedCheck {
  readonly eventId: EventId | null;
  /** The check's normalised identity (`pytest tests/x.py`): runs of one check share it. */
  readonly id: string;
  readonly kind: CheckKind;
  readonly status: CheckStatus;
  readonly counts: CheckCounts | null;
  readonly failures: readonly string[];
  readonly summary: string | null;
}

export interface DerivedFileChange {
  readonly eventId: EventId;
  /** As recorded: relative to the root when under it. */
  readonly path: string;
  readonly change: FileChangeKind;
  readonly outside: boolean;
  /**
   * The checkpoint entry: with both bodies, or a patch entry when only the change's diff is known (`bodies` says
   * which sides were not); null when the call showed neither.
   */
  readonly checkpointEntryId: CheckpointEntryId | null;
  /** `both`: before and after stored; otherwise which side could not be known. */
  readonly bodies: 'both' | 'no-before' | 'no-after' | 'none';
  /** What made the change: `Edit`, `sed -i`, `heredoc >`, `captured`… */
  readonly via: string;
}

export interface RecordedToolCall {
  readonly stepId: StepId;
  readonly kind: StepKind;
  readonly command: string | null;
  readonly checks: readonly DerivedCheck[];
  readonly files: readonly DerivedFileChange[];
  /** The todo list the call wrote (its note event), if any. */
  readonly todoEventId: EventId | null;
  /** The note holding the call's `thought`, if any. */
  readonly thoughtEventId: EventId | null;
  /** What the classifier could not fully read, and what the engine could not derive (a body it did not know). */
  readonly notes: readonly string[];
}

export interface RecordedToolCalls {
  readonly calls: readonly RecordedToolCall[];
  /** The session's active context passed its bound and was compressed after the batch. */
  readonly autoCompressed?: true;
}

export interface ToolCallsApi {
  recordToolCall(input: RecordToolCallInput): Promise<RecordedToolCall>;
  /** Up to 5,000 calls in one transaction (all or none), in order: a replay, an import. */
  recordToolCalls(inputs: readonly RecordToolCallInput[]): Promise<RecordedToolCalls>;
}
