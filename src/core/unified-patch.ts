/**
 * One file's change as a unified diff, kept as a patch checkpoint when the file's whole bodies are not known
 * (Claude Code's `structuredPatch`, Codex's `unified_diff`, a `git diff` an agent printed): parsed, applied
 * forwards or backwards (a rollback reverses it on the file as it is now) hunk by hunk, so a hunk that no longer
 * matches is named, and turned into bodies where the diff holds the whole file (a new or a deleted file).
 * Pure, over the `diff` package: exact context, each hunk found near its line numbers.
 *
 * The declarations whose types are `diff`'s are `@internal`: `diff` is a devDependency, bundled into the worker, so
 * the package's published types must not import it (`stripInternal`, src/lib/tsconfig.build.json).
 */
import { applyPatch, FILE_HEADERS_ONLY, formatPatch, parsePatch, reversePatch } from 'diff';
import type { StructuredPatch, StructuredPatchHunk } from 'diff';

/** @internal */
export type FilePatch = StructuredPatch;

/** `@@ -12,3 +12,4 @@`: how a hunk is named to a person (the header as the diff shows it). @internal */
export const hunkHeader = (hunk: StructuredPatchHunk): string =>
  `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;

/** The diff of exactly one file, with at least one hunk; a reason when it is not that. @internal */
export function parseFilePatch(text: string): { ok: true; patch: FilePatch } | { ok: false; reason: string } {
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(text);
  } catch (error) {
    return {
      ok: false,
      reason: `it does not parse as a unified diff (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  const withHunks = patches.filter((p) => p.hunks.length > 0);
  if (withHunks.length === 0) return { ok: false, reason: 'it has no hunks' };
  if (patches.length > 1) return { ok: false, reason: `it holds ${patches.length} files' diffs, not one` };
  return { ok: true, patch: withHunks[0] as FilePatch };
}

const isDevNull = (name: string | undefined) => name !== undefined && name.split('\t')[0] === '/dev/null';
/** The diff creates the file (`--- /dev/null`): its `+` lines are the whole new body. @internal */
export const createsFile = (patch: FilePatch) => patch.isCreate === true || isDevNull(patch.oldFileName);
/** The diff deletes the file (`+++ /dev/null`): its `-` lines are the whole old body. @internal */
export const deletesFile = (patch: FilePatch) => patch.isDelete === true || isDevNull(patch.newFileName);

export type PatchApplied =
  | { readonly ok: true; readonly text: string }
  /** `hunk`: the header of the first hunk that does not apply, as the recorded diff names it. */
  | { readonly ok: false; readonly hunk: string; readonly index: number };

/**
 * Applies the patch to `text` (`reverse`: undoes it). On failure names the first hunk that does not match: the
 * hunks are tried as growing prefixes, so the one named is the one the text no longer fits, not a later one.
 * @internal
 */
export function applyFilePatch(
  text: string,
  patch: FilePatch,
  direction: 'forward' | 'reverse',
): PatchApplied {
  const oriented = direction === 'reverse' ? reversePatch(patch) : patch;
  const whole = applyPatch(text, oriented);
  if (whole !== false) return { ok: true, text: whole };
  let index = oriented.hunks.length - 1;
  for (let k = 1; k < oriented.hunks.length; k++) {
    if (applyPatch(text, { ...oriented, hunks: oriented.hunks.slice(0, k) }) === false) {
      index = k - 1;
      break;
    }
  }
  return { ok: false, hunk: hunkHeader(patch.hunks[index] as StructuredPatchHunk), index };
}

/** Lines the patch adds and removes. @internal */
export function patchLineCounts(patch: FilePatch): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}

/** The patch as a unified diff text with the file headers `a/<path>` / `b/<path>` (or /dev/null). @internal */
export function formatFilePatch(patch: FilePatch, path: string): string {
  // Only the names and hunks: a git diff's extended headers (index, modes) would print a `diff --git` line.
  const named: FilePatch = {
    oldFileName: createsFile(patch) ? '/dev/null' : `a/${path}`,
    newFileName: deletesFile(patch) ? '/dev/null' : `b/${path}`,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: patch.hunks,
  };
  return formatPatch(named, FILE_HEADERS_ONLY);
}

type Body = string | Uint8Array | null;

/**
 * What a file's diff tells of its bodies, given what is known (`undefined`: not known; `null`: did not exist):
 * the after from a known text before (a new file's from nothing), the before from a known text after (a deleted
 * file's from nothing). A side stays unknown when the diff does not apply to the other; `reason` says why.
 */
export function bodiesFromPatch(
  before: Body | undefined,
  after: Body | undefined,
  text: string,
): { before: Body | undefined; after: Body | undefined; reason: string | null } {
  const parsed = parseFilePatch(text);
  if (!parsed.ok) return { before, after, reason: `its diff is not usable: ${parsed.reason}` };
  const { patch } = parsed;
  let b = before === undefined && createsFile(patch) ? null : before;
  let a = after === undefined && deletesFile(patch) ? null : after;
  let reason: string | null = null;
  const textOf = (body: Body | undefined) =>
    body === null ? '' : typeof body === 'string' ? body : undefined;
  if (a === undefined && textOf(b) !== undefined) {
    const applied = applyFilePatch(textOf(b) as string, patch, 'forward');
    if (applied.ok) a = applied.text;
    else reason = `its diff does not apply to the body before it (${applied.hunk} does not match)`;
  } else if (b === undefined && textOf(a) !== undefined) {
    const applied = applyFilePatch(textOf(a) as string, patch, 'reverse');
    if (applied.ok) b = applied.text;
    else reason = `its diff does not apply to the body after it (${applied.hunk} does not match)`;
  }
  return { before: b, after: a, reason };
}
