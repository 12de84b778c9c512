/**
 * The tool-call classifier's input and output: plain data, JSON-serialisable, declared once here for the engine
 * (`recordToolCall`) and the importers. File effects, reads and plans are in `effect-types.ts`.
 */
import type { FileEffect, FileRead, PlanUpdate } from './effect-types';

/** One tool call as any agent's transcript holds it, after the importer has paired the call with its result. */
export interface ToolCall {
  /** The tool's name as the agent spells it: `Bash`, `apply_patch`, `str_replace_editor`, `mcp__fs__Edit`… */
  readonly tool: string;
  /** Its arguments: an object, or a string (a command line, a patch, or the JSON text of the object). */
  readonly input: unknown;
  /** What the tool returned as text (for a shell: stdout and stderr as the agent saw them). */
  readonly output?: string;
  /** The process's exit status where the format keeps one; `null` or absent when unknown. */
  readonly exitCode?: number | null;
  /** The tool's own error: the call was refused or failed as a tool call. */
  readonly error?: string;
  /**
   * The result was flagged as an error and `output` is its text (Claude Code's and the Anthropic API's
   * `is_error`): for a shell tool that wrote `Exit code N` first, the command ran and exited N; else the tool failed.
   */
  readonly isError?: boolean;
  /** A structured result kept beside the text, e.g. Claude Code's line-level `toolUseResult`. */
  readonly result?: unknown;
}

/**
 * What the session knows before this call. The classifier is pure per call: whatever needs history comes in
 * here (the engine keeps it), so the same call and context always give the same meaning.
 */
export interface ClassifyContext {
  /**
   * Ad-hoc scripts run earlier in this session, by `ScriptRun.id`, with the number of file changes recorded
   * since that script's last run. A script run again after edits is a check (`certainty: 'rerun'`).
   */
  readonly priorScriptRuns?: Readonly<Record<string, { readonly editsSince: number }>>;
  /**
   * The project's root. An absolute `cd` inside it scopes a check to the part below it; without a root, or
   * outside it, an absolute `cd` (SWE-agent's `cd /testbed`) is taken as re-entering the project and dropped.
   */
  readonly root?: string;
  /** An earlier call set the agent's changes aside (`git stash`) and none has brought them back yet. */
  readonly changesSetAside?: boolean;
}

/** The step's main meaning, by priority: a check, else a file change, else a plan, else a read, else other. */
export type StepKind = 'check' | 'edit' | 'plan' | 'read' | 'other';

/** Which kind of tool the name says it is (`unknown`: not a tool this classifier knows). */
export type ToolFamily = 'shell' | 'edit' | 'read' | 'plan' | 'unknown';

export interface ToolCallMeaning {
  readonly kind: StepKind;
  readonly family: ToolFamily;
  /** The command line (shell tools), else the tool's main text (a path, a pattern), kept for search. */
  readonly command: string | null;
  /**
   * A shell command's exit status, told once here for every agent: the call's `exitCode`, else the one its output
   * or error text carries (`exitCodeInOutput`), else 0 for a Claude Code Bash result that finished in the foreground
   * without an error. Null when it cannot be told, and for tools that are not shells.
   */
  readonly exitCode: number | null;
  /** The tool's own error text (`error`, or an `isError` output that is not a command's exit), else null. */
  readonly error: string | null;
  readonly checks: readonly CheckRun[];
  /** What the call did (or, when `failed`, tried to do) to files, in order. */
  readonly fileEffects: readonly FileEffect[];
  readonly reads: readonly FileRead[];
  readonly plan: PlanUpdate | null;
  /** Every interpreter-and-file run (`python x.py`), check or not: the engine keeps them for the context. */
  readonly scripts: readonly ScriptRun[];
  /**
   * The call failed as a tool call (its `error`, e.g. an Edit whose old_string was not found): its file
   * effects did not happen. A shell command that ran and exited non-zero has not failed in this sense.
   */
  readonly failed: boolean;
  /** What could not be fully understood, in words: a patch that does not parse, a truncated command line. */
  readonly notes: readonly string[];
  /**
   * Whether the agent's changes are set aside after this call: true after a `git stash` (push/save), false after a
   * `git stash pop`/`apply`; null when the call did neither (the context's state goes on).
   */
  readonly changesSetAside: boolean | null;
}

export type CheckKind = 'test' | 'typecheck' | 'lint' | 'format' | 'build' | 'check' | 'script';

/**
 * How sure the classifier is that a run is a check: `known` (a test/type/lint/build runner), `rerun` (an ad-hoc
 * script the context says was run before, with files edited since), `candidate` (a script whose name says
 * test/repro/check/verify, on its first run).
 */
export type CheckCertainty = 'known' | 'rerun' | 'candidate';

export interface CheckRun {
  /**
   * The normalised identity: runner and targets, without flags that only change the output (`-q`, `-v`,
   * `--tb=short`, `--color`, a trailing `| tail`), so `pytest -q x` and `pytest x` are one check. A relative
   * `cd` scopes it: `web: npm run lint`.
   */
  readonly id: string;
  readonly kind: CheckKind;
  /** `pytest`, `jest`, `npm`, `go test`, `cargo test`, `tsc`, `make`, `script`… */
  readonly runner: string;
  readonly targets: readonly string[];
  /** This command's own text, as written (one part of the command line). */
  readonly command: string;
  /** The directory the check ran in, from a relative `cd` (or one inside `root`); null when none. */
  readonly scope: string | null;
  readonly certainty: CheckCertainty;
  readonly result: CheckResult;
  /**
   * Run while the agent's changes were set aside (after `git stash`, before `git stash pop`/`apply`, in this call
   * or since an earlier one): a baseline — what fails here failed before the change too.
   */
  readonly baseline?: boolean;
}

export type CheckStatus = 'passed' | 'failed' | 'error' | 'unknown';

export interface CheckResult {
  /** `error`: the runner could not run the checks (collection error, no tests ran, not found, timed out). */
  readonly status: CheckStatus;
  /**
   * `exit-code` when this command's own exit status could be told from the call's (see README: which part of
   * `a && b | tail` an exit code speaks for); else `summary` from the runner's summary line; else `none`.
   */
  readonly resultFrom: 'exit-code' | 'summary' | 'none';
  /** This command's exit status, when it can be told. */
  readonly exitCode: number | null;
  readonly counts: CheckCounts | null;
  /** The first failing tests or diagnostics the output names, at most `maxFailures`. */
  readonly failures: readonly string[];
  /** The runner's summary line as printed (ANSI colours removed). */
  readonly summary: string | null;
  /** Why the result was read the way it was, e.g. "piped into tail: the exit code is tail's". */
  readonly note: string | null;
}

export interface CheckCounts {
  readonly passed?: number;
  readonly failed?: number;
  readonly errors?: number;
  readonly skipped?: number;
  readonly warnings?: number;
  readonly total?: number;
}

export const maxFailures = 10;

/** A script run through an interpreter (or as `./x.sh`): the raw material of ad-hoc checks. */
export interface ScriptRun {
  /** `python reproduce_issue.py`: interpreter family and path (arguments kept), scope prefixed as for checks. */
  readonly id: string;
  readonly interpreter: string;
  readonly path: string;
  readonly args: readonly string[];
}
