/**
 * A tool call's file effects (the classifier's `FileEffect`s) and the bodies the caller captured → the file changes
 * to record: one per path per call, with its before and after bodies where they can be told — captured by the
 * caller, carried by the call (a Write's content, a heredoc, Claude Code's `originalFile`), or replayed onto the
 * body the session last recorded for that path (`known`). `undefined` is "not known"; `null` is "did not exist".
 */
import { applyEdit, unapplyEdits } from './apply-edit';
import { classifyToolCall } from './classify';
import type { ToolCall } from './types';
import type { FileEffect } from './effect-types';
import type { FileChangeKind } from '../events/model';
import { recordedPath } from './paths';
import { bodiesFromPatch } from '../unified-patch';

export type Body = string | Uint8Array | null;

export interface PlannedFileChange {
  readonly path: string;
  readonly outside: boolean;
  readonly change: FileChangeKind;
  readonly via: string;
  readonly before: Body | undefined;
  readonly after: Body | undefined;
  /**
   * The change as a unified diff of this file, when shown: the caller's `ToolCallFile.diff` (Claude Code's
   * `structuredPatch`, Codex's `unified_diff`), or the part of a `git diff` / final submission the call printed (a
   * `shown` effect). What is kept (a patch entry) when the bodies are not both known.
   */
  readonly diff?: string;
  /**
   * Seen in what the call printed (a `shown` effect: `git diff`, `git status`, the final submission), not made by
   * it: the file changed at an earlier step the session did not record, and when is not known.
   */
  readonly shown?: true;
}

/** Bodies the caller read around the call (a side left out was not read), and the change as a diff if shown. */
export interface CapturedFile {
  readonly path: string;
  readonly before?: Body;
  readonly after?: Body;
  readonly diff?: string;
}

/** What the session knows of a path before this call: its last recorded body, or undefined. */
export type KnownBody = (path: string) => Body | undefined;

/** What the session knows before this call. */
export interface SessionFiles {
  readonly body: KnownBody;
  /** Whether the session recorded the path before. */
  readonly seen: (path: string) => boolean;
  /** Whether the session's latest change of the path has a checkpoint entry (it opens as a diff). */
  readonly hasEntry: (path: string) => boolean;
  /** Files the session knows exist under a directory (loaded for `dirsToKnow`). */
  readonly under: (dir: string) => readonly string[];
}

interface Draft {
  path: string;
  outside: boolean;
  via: string[];
  before: Body | undefined;
  after: Body | undefined;
  /** What the effects said of the change, when the bodies do not tell it. */
  said: FileChangeKind | null;
  seen: boolean;
  diff?: string;
  /** Drafted from a `shown` effect only. */
  shown: boolean;
}

const textOf = (body: Body | undefined): string | null | undefined =>
  body === undefined || body === null ? body : typeof body === 'string' ? body : undefined;

const sameBody = (a: Body, b: Body) => {
  if (a === null || b === null || typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
};

/** The paths a call's effects name, as they name them: each file, and the source of a move, copy or moved edit. */
export function namedPaths(effects: readonly FileEffect[]): string[] {
  const paths = new Set<string>();
  for (const e of effects) {
    if (e.kind === 'bulk' || e.kind === 'mkdir') continue;
    paths.add(e.path);
    const from = e.kind === 'move' || e.kind === 'copy' || e.kind === 'edit' ? e.from : undefined;
    if (from) paths.add(from);
  }
  return [...paths];
}

/**
 * Before a call runs: the paths it may change, as it names them (move/copy sources included), and whether a
 * workspace listing should back it — for what the command's text cannot show: scripts, bulk and unreplayable
 * changes, a recursive delete (which files went), and a shell command read as nothing in particular. The live
 * recorder (src/lib/tool-recorder.ts) reads these bodies around the call; the engine classifies the finished call
 * with the same classifier and root.
 */
export function callFootprint(
  call: Pick<ToolCall, 'tool' | 'input'>,
  root: string | null,
): { paths: string[]; list: boolean } {
  const meaning = classifyToolCall(call, root === null ? {} : { root });
  const effects = meaning.fileEffects;
  const list =
    meaning.scripts.length > 0 ||
    (meaning.family === 'shell' && meaning.kind === 'other') ||
    effects.some(
      (e) =>
        e.kind === 'bulk' ||
        e.kind === 'modify' ||
        e.kind === 'restore' ||
        (e.kind === 'delete' && e.recursive),
    );
  return { paths: namedPaths(effects), list };
}

/** Paths whose known bodies the plan may need (the engine fetches them before calling `planFileChanges`). */
export const pathsToKnow = (effects: readonly FileEffect[], root: string | null) => [
  ...new Set(namedPaths(effects).map((path) => recordedPath(path, root).path)),
];

/** Directories a recursive delete removes: the files the session knows under them are deleted too. */
export const dirsToKnow = (effects: readonly FileEffect[], root: string | null) =>
  effects.flatMap((e) => (e.kind === 'delete' && e.recursive ? [recordedPath(e.path, root).path] : []));

function kindOf(d: Draft): FileChangeKind {
  if (d.after === null) return 'deleted';
  if (d.before === null) return 'created';
  if (d.before !== undefined && d.after !== undefined) return 'modified';
  return d.said ?? 'modified';
}

/**
 * The file changes of one call. `seenBefore(path)` says whether the session recorded the path before: a write of
 * an unknown file the session never saw counts as created (a heredoc writing `reproduce.py`), so a scratch file
 * created and removed again is known as one. Notes say what could not be told.
 */
export function planFileChanges(
  effects: readonly FileEffect[],
  captured: readonly CapturedFile[],
  session: SessionFiles,
  root: string | null,
): { changes: PlannedFileChange[]; notes: string[] } {
  // A body the caller captured before the call is the one the call saw: the effects are replayed onto it.
  const capturedBefore = new Map<string, Body>();
  for (const c of captured)
    if (c.before !== undefined) capturedBefore.set(recordedPath(c.path, root).path, c.before);
  const known: KnownBody = (path) =>
    capturedBefore.has(path) ? capturedBefore.get(path) : session.body(path);
  const seenBefore = session.seen;
  const notes: string[] = [];
  const drafts = new Map<string, Draft>();
  const current = (path: string): Body | undefined => {
    const d = drafts.get(path);
    return d ? d.after : known(path);
  };
  const draft = (path: string, outside: boolean): Draft => {
    let d = drafts.get(path);
    if (!d) {
      const before = known(path);
      d = {
        path,
        outside,
        via: [],
        before,
        after: before,
        said: null,
        seen: seenBefore(path),
        shown: false,
      };
      drafts.set(path, d);
    }
    return d;
  };
  for (const e of effects) {
    if (e.kind === 'mkdir') continue;
    if (e.kind === 'shown') {
      shownChange(
        e,
        recordedPath(e.path, root),
        drafts,
        session,
        known(recordedPath(e.path, root).path),
        draft,
      );
      continue;
    }
    if (e.kind === 'bulk') {
      notes.push(`${e.how} may have changed files under ${e.path}: which ones is not known from the call.`);
      continue;
    }
    const { path, outside } = recordedPath(e.path, root);
    if (e.kind === 'move' || e.kind === 'copy') {
      const from = recordedPath(e.from, root);
      const body = current(from.path);
      if (e.kind === 'move') {
        const src = draft(from.path, from.outside);
        src.via.push(e.via);
        src.after = null;
      }
      const dest = draft(path, outside);
      dest.via.push(e.via);
      dest.after = body;
      dest.said = e.change ?? (dest.seen ? 'modified' : 'created');
      continue;
    }
    if (e.kind === 'delete' && e.recursive) {
      const children = session.under(path).filter((child) => current(child) !== null);
      if (children.length > 0) {
        // A directory: its files are what was deleted, not a file of its name.
        for (const child of children) {
          const c = draft(child, outside);
          c.via.push(e.via);
          c.after = null;
          c.said = 'deleted';
        }
        continue;
      }
    }
    if (e.kind === 'edit' && e.from) {
      // Edited and moved (apply_patch `*** Move to:`): the old path is deleted, the new one has the edited body.
      const from = recordedPath(e.from, root);
      const start = current(from.path);
      const src = draft(from.path, from.outside);
      src.via.push(e.via);
      src.after = null;
      src.said = 'deleted';
      const dest = draft(path, outside);
      dest.via.push(e.via);
      const replay =
        start === undefined || start === null || typeof start !== 'string' ? null : applyEdit(start, e);
      dest.after = replay?.ok ? replay.after : undefined;
      if (!replay?.ok) notes.push(`${path}: the body moved from ${from.path} could not be told.`);
      dest.said = e.change ?? (dest.seen ? 'modified' : 'created');
      continue;
    }
    const d = draft(path, outside);
    d.via.push(e.via);
    if (e.before !== undefined && d.via.length === 1) {
      // The call's own result says what the file held when it ran (Claude Code's `originalFile`).
      d.before = e.before;
      d.after = e.before;
    } else if (e.change === 'created' && e.kind === 'write' && d.via.length === 1 && d.before === undefined) {
      // The tool itself says it created the file (Write `type: create`, an Edit from empty text): there was none.
      d.before = null;
      d.after = null;
    }
    const start = textOf(d.after);
    if (e.kind === 'touch') {
      if (d.after === undefined && !d.seen) d.said = 'created';
      if (d.after === null) d.after = '';
      continue;
    }
    if (e.after !== undefined && e.after !== null) {
      // The tool returned the file it saved; the body before its first edit here, never seen, is told back from
      // it where the edits say exactly what they replaced (unapplyEdits) — so the change opens as a diff.
      if (e.kind === 'edit' && d.before === undefined && d.via.length === 1 && typeof e.after === 'string') {
        const before = unapplyEdits(e.after, e.edits);
        if (before !== null) d.before = before;
      }
      d.after = e.after;
    } else if (e.kind === 'delete') d.after = null;
    else if (e.kind === 'write' && e.body !== null) d.after = e.body;
    else if (start === undefined) {
      d.after = undefined;
      if (e.kind !== 'write' && e.kind !== 'append')
        notes.push(`${path}: the body before ${e.via} is not known.`);
    } else {
      const replay = applyEdit(start, e);
      d.after = replay.ok ? replay.after : undefined;
      if (!replay.ok) notes.push(`${path}: ${e.via} could not be replayed (${replay.reason}).`);
    }
    d.said =
      e.change ?? (e.kind === 'delete' ? 'deleted' : e.kind === 'write' && !d.seen ? 'created' : d.said);
  }
  for (const c of captured) {
    const { path, outside } = recordedPath(c.path, root);
    const d = drafts.get(path) ?? draft(path, outside);
    const byEffects = d.via.length > 0;
    if (!byEffects) d.via.push('captured');
    if (c.before !== undefined) d.before = c.before;
    if (c.after !== undefined) d.after = c.after;
    // The tool returned the file it saved (Cline's final_file_content) and the body before was never seen: told
    // back from it where the call's edits of this path say exactly what they replaced — so the change opens as a
    // diff.
    if (d.before === undefined && typeof c.after === 'string' && byEffects) {
      const edits = effects.flatMap((e) =>
        e.kind === 'edit' && !e.from && recordedPath(e.path, root).path === path ? e.edits : [],
      );
      const told = edits.length > 0 ? unapplyEdits(c.after, edits) : null;
      if (told !== null) d.before = told;
    }
    // Not read, and no effect of the call told it: the diff is the change.
    else if (c.diff !== undefined && !byEffects) d.after = undefined;
    if (c.diff !== undefined) {
      d.diff = c.diff;
      if (d.before === undefined || d.after === undefined) {
        // It tells the after from the body before (a new file's from nothing), or the before from the after.
        const told = bodiesFromPatch(d.before, d.after, c.diff);
        d.before = told.before;
        d.after = told.after;
        if (told.reason !== null) notes.push(`${path}: ${told.reason}.`);
      }
    }
  }
  const changes: PlannedFileChange[] = [];
  for (const d of drafts.values()) {
    if (d.via.length === 0) continue;
    if (d.before !== undefined && d.after !== undefined && sameBody(d.before, d.after)) continue;
    changes.push({
      path: d.path,
      outside: d.outside,
      change: kindOf(d),
      via: [...new Set(d.via)].join(', '),
      before: d.before,
      after: d.after,
      ...(d.diff === undefined ? {} : { diff: d.diff }),
      ...(d.shown ? { shown: true as const } : {}),
    });
  }
  return { changes, notes };
}

/**
 * A file the call's output shows changed (a `shown` effect) is evidence: it confirms what the session recorded,
 * and adds a change only where it tells something new —
 * - a path the call changed itself, or whose latest change the session recorded with a checkpoint entry (with
 *   the same existence: it exists, or it was deleted), keeps that record: it stays the one that opens as a diff;
 * - a path the session never saw changed (a script rewrote it), or saw deleted and now shown there (or the other
 *   way round), gets a change;
 * - a path the session saw changed without an entry gets one only when the output holds its diff, so that the
 *   change opens as one (a status line alone tells nothing new).
 * The drafted change is the change from the committed version the evidence shows: the diff; a created file
 * comes from nothing, with its whole body (a diff's `+` lines are all of it); a changed or deleted one from a body
 * not known here (not the session's last: something the session did not see changed it since).
 */
function shownChange(
  e: Extract<FileEffect, { kind: 'shown' }>,
  { path, outside }: { path: string; outside: boolean },
  drafts: ReadonlyMap<string, Draft>,
  session: SessionFiles,
  body: Body | undefined,
  draft: (path: string, outside: boolean) => Draft,
): void {
  if (drafts.has(path)) return;
  const deleted = e.change === 'deleted';
  const sameExistence = (body === null) === deleted;
  if (session.seen(path) && sameExistence && (session.hasEntry(path) || e.diff === null)) return;
  const d = draft(path, outside);
  d.via.push(e.via);
  d.shown = true;
  d.said = e.change ?? 'modified';
  if (e.diff !== null) d.diff = e.diff;
  const created = e.change === 'created';
  d.before = created ? null : undefined;
  d.after = deleted ? null : created ? e.after : undefined;
}
