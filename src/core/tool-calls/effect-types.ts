/**
 * What a tool call did to files, which files it looked at, and the plan it wrote — as plain data. `applyEdit`
 * (apply-edit.ts) turns a known before-body and an effect into the after-body where the effect says enough.
 */
import type { FileChangeKind } from '../events/model';
import type { PlanStepState } from '../plan/model';

interface EffectCommon {
  /** The file (or, for `bulk`, the directory) as the call named it: absolute or relative, never resolved. */
  readonly path: string;
  /** What did it: the tool's name (`Edit`, `apply_patch`) or the shell form (`sed -i`, `>`, `heredoc >`, `rm`). */
  readonly via: string;
  /** The engine's event kind for `path`, when the call says it (a Write over an unknown file: null). */
  readonly change: FileChangeKind | null;
  /** The body before the call, when the call's structured result carries it (Claude Code's `originalFile`). */
  readonly before?: string | null;
  /** The body after the call, when the call gives it whole or it follows from `before` and the edits. */
  readonly after?: string | null;
}

/**
 * - `write`: the whole new body is `body` (null: written, but with text the call does not show, e.g. `cmd > f`).
 * - `append`: `text` added at the end (null when not shown).
 * - `edit`: `edits` applied in order to the old body; `from` is set when the file was also moved (apply_patch).
 * - `delete`, `touch`, `mkdir`: as named. `move`/`copy`: `from` → `path` (the engine records `from` deleted
 *   for a move). `restore`: back to a committed version (`git checkout -- f`, `git restore f`).
 * - `modify`: changed in a way that cannot be replayed here (`perl -i`, `sed -f`, a formatter on one file).
 * - `bulk`: many files may have changed (`git stash`, `git reset --hard`, `prettier --write .`); `path` is the
 *   directory it applies to, `scope` says which files.
 * - `shown`: evidence, not an edit — the call's output shows the file changed against the committed version (a
 *   `git diff` or `git status` it printed, a run's final submission: effects/shown.ts). The change was made at an
 *   earlier step the transcript may not show (a script that rewrote it); `diff` is this file's part of the diff
 *   when the output holds it whole, and `change` what the diff or status says (created, modified, deleted).
 */
export type FileEffect =
  | (EffectCommon & { readonly kind: 'write'; readonly body: string | null })
  | (EffectCommon & { readonly kind: 'append'; readonly text: string | null })
  | (EffectCommon & {
      readonly kind: 'edit';
      readonly edits: readonly TextEdit[];
      /** Every edit can be replayed by `applyEdit` (a sed script beyond literal `s///` cannot). */
      readonly replayable: boolean;
      readonly from?: string;
    })
  | (EffectCommon & { readonly kind: 'delete'; readonly recursive: boolean })
  | (EffectCommon & { readonly kind: 'move' | 'copy'; readonly from: string })
  | (EffectCommon & { readonly kind: 'touch' | 'mkdir' })
  | (EffectCommon & { readonly kind: 'restore'; readonly source: string | null })
  | (EffectCommon & { readonly kind: 'modify'; readonly how: string })
  | (EffectCommon & {
      readonly kind: 'shown';
      /** `git diff`, `git status`, `final submission`… */
      readonly how: string;
      readonly diff: string | null;
    })
  | (EffectCommon & {
      readonly kind: 'bulk';
      readonly scope: 'tracked' | 'untracked' | 'matched';
      readonly how: string;
    });

export type FileEffectKind = FileEffect['kind'];

/**
 * One replayable change to a body:
 * - `replace`: exact text, the first (and only: the tools refuse ambiguity) or `all` occurrences — Claude Code
 *   Edit/MultiEdit, str_replace, Gemini replace.
 * - `search-replace`: Cline/Roo SEARCH/REPLACE blocks, matched exactly, then line by line ignoring indentation;
 *   an empty search on an empty file writes the replacement.
 * - `insert`: `text` after line `afterLine` (0 = at the top) — str_replace_editor `insert`.
 * - `lines`: lines `start` to `end` (1-based, inclusive) replaced by `text` — SWE-agent's windowed `edit N:M`; the
 *   body is split and joined on `\n` as that tool does (an empty text deletes the lines).
 * - `hunks`: Codex apply_patch chunks (context line, old and new lines, matched exactly, then ignoring trailing
 *   and then surrounding white space).
 * - `unified-diff`: one file's unified diff (`git apply`, `patch`, Codex's `Update{unified_diff}`).
 * - `sed`: the script as written; `substitutions` is null unless every command is a literal `s/a/b/[g|N]`.
 */
export type TextEdit =
  | { readonly type: 'replace'; readonly old: string; readonly new: string; readonly all: boolean }
  | {
      readonly type: 'search-replace';
      readonly blocks: readonly { readonly search: string; readonly replace: string }[];
    }
  | { readonly type: 'insert'; readonly afterLine: number; readonly text: string }
  | { readonly type: 'lines'; readonly start: number; readonly end: number; readonly text: string }
  | { readonly type: 'hunks'; readonly chunks: readonly PatchChunk[] }
  | { readonly type: 'unified-diff'; readonly diff: string }
  | {
      readonly type: 'sed';
      readonly script: string;
      readonly substitutions: readonly SedSubstitution[] | null;
    };

export interface PatchChunk {
  /** The `@@ <line>` that narrows where the chunk applies (a def, a class), or null for a bare `@@`. */
  readonly context: string | null;
  readonly oldLines: readonly string[];
  readonly newLines: readonly string[];
  /** `*** End of File`: the old lines are at the end of the file. */
  readonly endOfFile: boolean;
}

/** A literal `s/find/replace/flags`: `find` and `replace` are plain text (sed's `&` already expanded). */
export interface SedSubstitution {
  readonly find: string;
  readonly replace: string;
  /** `g`: every occurrence on a line; else only the `occurrence`-th (1 by default). */
  readonly global: boolean;
  readonly occurrence: number;
  /** `^`/`$` anchors: the match must start the line / end it. */
  readonly atLineStart: boolean;
  readonly atLineEnd: boolean;
}

/** A file or directory the call looked at. */
export interface FileRead {
  /** `.` when the call searched without naming a place. */
  readonly path: string;
  /** `file`: read its text; `search`: grep/glob for `pattern`; `list`: a directory listing. */
  readonly kind: 'file' | 'search' | 'list';
  readonly pattern: string | null;
  /** Lines read, 1-based and inclusive, when the call gives a range (`end` null: to the end). */
  readonly lines: { readonly start: number; readonly end: number | null } | null;
  readonly via: string;
}

export type PlanItemState = PlanStepState;

export interface PlanItem {
  readonly text: string;
  readonly state: PlanItemState;
  /** Claude Code's present-continuous form ("Running the tests"). */
  readonly activeForm: string | null;
  /** The agent's own id for the item, when it gives one. */
  readonly id: string | null;
}

/**
 * - `replace`: the whole list, as TodoWrite / update_plan / write_todos send it each time.
 * - `add`: items added (Claude Code's TaskCreate). `update`: one item changed by id (TaskUpdate; `deleted` is
 *   `skipped`).
 */
export type PlanUpdate =
  | {
      readonly mode: 'replace';
      readonly items: readonly PlanItem[];
      readonly explanation: string | null;
      readonly via: string;
    }
  | { readonly mode: 'add'; readonly items: readonly PlanItem[]; readonly via: string }
  | {
      readonly mode: 'update';
      readonly id: string;
      readonly state: PlanItemState | null;
      readonly text: string | null;
      readonly via: string;
    };
