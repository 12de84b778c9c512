/**
 * The active checkpoint: what the next step of an agent needs from everything a session did, built
 * deterministically from the event log and the plan (no model). Everything else is dropped from the context —
 * with a reason — and stays findable in the history.
 */
import type { FileChangeKind, PlanStepId, ValidationResult } from '../events/model';
import type { CheckpointEntryId, EventId, SessionId, StepId, TaskId } from '../ids';
import type { StepStatus } from '../model';
import type { PlanStepState } from '../plan/model';

export const ACTIVE_CHECKPOINT_VERSION = 1;

export interface CheckpointText {
  readonly eventId: EventId;
  readonly text: string;
  readonly at: number;
}

export interface CheckpointDecision extends CheckpointText {
  readonly why: string | null;
  /** Earlier decisions this one replaced, directly or through a chain, oldest first. */
  readonly replaces: readonly EventId[];
}

export interface CheckpointFile {
  readonly path: string;
  /** The latest change (a file created then modified is still `created` for this session). */
  readonly change: FileChangeKind;
  readonly edits: number;
  /** Every checkpoint entry of this path, oldest first: each opens its diff. */
  readonly checkpointEntryIds: readonly CheckpointEntryId[];
  readonly lastEventId: EventId;
  readonly lastText: string;
  /** Outside the project root the agent worked in. */
  readonly outside: boolean;
  /** Created and deleted again within the session (a scratch file): no net change. */
  readonly transient: boolean;
}

export interface CheckpointValidation {
  readonly eventId: EventId;
  /** The check's identity: runs with the same name (and plan step) are the same check. */
  readonly name: string;
  /** The command as the agent typed it, to quote and to run again (the name when it recorded none). */
  readonly command: string;
  readonly result: ValidationResult;
  readonly text: string;
  readonly at: number;
  readonly planStepId: PlanStepId | null;
  /** Runs of this check (same name and plan step) so far, and how many did not pass. */
  readonly runs: number;
  readonly failedRuns: number;
  /**
   * It did not pass, and a run with the agent's changes set aside (`git stash`) failed the same way: these failures
   * were there before the change — listed, never the next action.
   */
  readonly failingBefore: boolean;
  /**
   * Files changed after this run, which may affect it: not `.agent/` files, not files outside the project root,
   * not scratch files created and deleted again. Empty: the result still holds as far as the log knows.
   */
  readonly changedSince: readonly string[];
  /** `changedSince` is not empty: its result may no longer hold. */
  readonly stale: boolean;
}

export interface CheckpointPlanStep {
  readonly id: PlanStepId;
  readonly n: number;
  readonly what: string;
  readonly why: string;
  readonly state: PlanStepState;
}

export type NextActionKind =
  | 'resolve_blocker'
  | 'continue_step'
  | 'start_step'
  | 'continue_todo'
  | 'start_todo'
  | 'fix_validation'
  | 'stated_intention'
  | 'follow_instruction'
  | 'progress_next'
  | 'verify_last_action'
  | 'done'
  | 'none';

/** The task's latest tool call as its step holds it: what ran last (core/tool-calls/records.ts `lastActionOf`). */
export interface LastAction {
  readonly stepId: StepId;
  /** The command line, or the tool's main text (a path), bounded. */
  readonly command: string;
  readonly tool: string;
  readonly exitCode: number | null;
  readonly status: StepStatus;
  /**
   * The output's last non-empty line (a runner's summary is printed last), bounded — or, when the output ends
   * inside a diff it printed (a `submit`, a `git diff`), `printed a diff of <files>`; null when it printed none.
   */
  readonly summary: string | null;
  readonly at: number;
}

/** The first unfinished action: what an agent resuming this session does first. */
export interface NextAction {
  readonly kind: NextActionKind;
  /** One sentence a person or an agent can act on. */
  readonly text: string;
  readonly planStepId: PlanStepId | null;
  readonly planStepN: number | null;
  /** The blocker, failing validation or instruction this action is about. */
  readonly eventId: EventId | null;
  /** The latest run of a check on this step that did not pass, if any. */
  readonly failing: CheckpointValidation | null;
  /** The agent's last stated intention (its own words, bounded), when it said something after the last instruction. */
  readonly intention: string | null;
}

/** One item of the agent's own todo list (its plan tool), which counts as the plan while the task has none. */
export interface CheckpointTodo {
  readonly n: number;
  readonly text: string;
  readonly state: PlanStepState;
}

export interface ActiveCheckpoint {
  readonly version: number;
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  readonly goal: string;
  readonly latestInstruction: CheckpointText | null;
  /** Earlier distinct instructions, most recent first (bounded). */
  readonly earlierInstructions: readonly CheckpointText[];
  readonly decisions: readonly CheckpointDecision[];
  readonly files: readonly CheckpointFile[];
  readonly validations: readonly CheckpointValidation[];
  /** The most recent blocker still open, if any. */
  readonly blocker: CheckpointText | null;
  readonly openBlockers: readonly CheckpointText[];
  readonly openQuestions: readonly CheckpointText[];
  /** Recent answers to questions (they often carry the user's word on a detail), oldest first. */
  readonly answers: readonly (CheckpointText & { readonly question: string })[];
  readonly plan: { readonly goal: string; readonly steps: readonly CheckpointPlanStep[] } | null;
  readonly lastProgress: (CheckpointText & { readonly next: string | null }) | null;
  /** The agent's todo list as its latest plan tool call left it (event `eventId`), or null. */
  readonly agentPlan: { readonly eventId: EventId; readonly items: readonly CheckpointTodo[] } | null;
  /** The agent's latest own words (a `said` note), whole: `nextAction.intention` is its bounded form. */
  readonly intention: CheckpointText | null;
  /** The intention was said with a tool call that ran: it is history, not the step to take. */
  readonly intentionRan: boolean;
  /** What ran last in the task, when the caller knows (the engine reads the latest step). */
  readonly lastAction: LastAction | null;
  readonly nextAction: NextAction;
  readonly lastEventId: EventId | null;
  readonly eventCount: number;
}

/** Why an event stays in the active checkpoint, is kept verbatim in the tail, or is dropped from the context. */
export interface BudgetItem {
  readonly eventId: EventId;
  readonly kind: string;
  readonly reason: string;
  /** Characters of its JSON line. */
  readonly chars: number;
}

export interface ContextBudget {
  /** Events whose substance is in the active checkpoint (their line itself moves to the history). */
  readonly kept: readonly BudgetItem[];
  /** Events left out of the context: superseded, resolved, repeated, free text… (searchable in the history). */
  readonly dropped: readonly BudgetItem[];
  /** The newest events, kept verbatim in SESSION.jsonl. */
  readonly tail: readonly BudgetItem[];
  readonly before: { readonly events: number; readonly chars: number; readonly approxTokens: number };
  readonly after: {
    readonly summaryChars: number;
    readonly tailEvents: number;
    readonly tailChars: number;
    readonly chars: number;
    readonly approxTokens: number;
  };
}

export const approxTokens = (chars: number) => Math.ceil(chars / 4);
