/**
 * Unified diffs (`git apply`, `patch -p1`, Codex's `Update{unified_diff}`): split into one piece per file with
 * its paths and kind, and applied to a body with the `diff` package (exact context, hunks found near their
 * line numbers).
 */
import { applyPatch, parsePatch } from 'diff';

export interface FileDiff {
  /** Null for a new file (`--- /dev/null`). */
  readonly oldPath: string | null;
  /** Null for a deleted file (`+++ /dev/null`). */
  readonly newPath: string | null;
  readonly diff: string;
  /** A new file's body, from its `+` lines; null for other files. */
  readonly addedBody: string | null;
}

/** `a/src/x.py` → `src/x.py` (git's prefixes, or `strip` leading components as `-pN` says). */
function diffPath(raw: string, strip: number | null): string | null {
  const path = raw.split('\t')[0]?.trim() ?? '';
  if (path === '/dev/null' || path === '') return null;
  if (strip === null) return /^[ab]\//.test(path) ? path.slice(2) : path;
  return path.split('/').slice(strip).join('/') || path;
}

export function splitUnifiedDiff(text: string, strip: number | null = null): FileDiff[] {
  const lines = text.split('\n');
  const files: FileDiff[] = [];
  let start = -1;
  const flush = (endLine: number) => {
    if (start < 0) return;
    const piece = lines.slice(start, endLine);
    const minus = piece.find((l) => l.startsWith('--- '));
    const plus = piece.find((l) => l.startsWith('+++ '));
    const renameFrom = piece.find((l) => l.startsWith('rename from '))?.slice(12);
    const renameTo = piece.find((l) => l.startsWith('rename to '))?.slice(10);
    const git = piece[0]?.startsWith('diff --git ') ? /^diff --git a\/(.+) b\/(.+)$/.exec(piece[0]) : null;
    let oldPath = minus ? diffPath(minus.slice(4), strip) : (renameFrom ?? git?.[1] ?? null);
    let newPath = plus ? diffPath(plus.slice(4), strip) : (renameTo ?? git?.[2] ?? null);
    if (piece.some((l) => l.startsWith('new file mode'))) oldPath = null;
    if (piece.some((l) => l.startsWith('deleted file mode'))) newPath = null;
    if (oldPath === null && newPath === null) return;
    const addedBody =
      oldPath === null
        ? piece
            .slice(piece.findIndex((l) => l.startsWith('@@')))
            .filter((l) => l.startsWith('+') && !l.startsWith('+++ '))
            .map((l) => l.slice(1) + '\n')
            .join('')
        : null;
    files.push({ oldPath, newPath, diff: piece.join('\n') + '\n', addedBody });
  };
  let gitSection = false;
  let sawHunk = false;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] as string;
    const gitHeader = line.startsWith('diff --git ');
    const plainHeader = line.startsWith('--- ') && (lines[k + 1] ?? '').startsWith('+++ ');
    if (gitHeader || (plainHeader && !(gitSection && !sawHunk))) {
      flush(k);
      start = k;
      gitSection = gitHeader;
      sawHunk = false;
    } else if (line.startsWith('@@')) sawHunk = true;
  }
  flush(lines.length);
  return files;
}

/** Apply one file's unified diff; a reason when it does not apply. */
export function applyUnifiedDiff(
  before: string,
  diff: string,
): { ok: true; after: string } | { ok: false; reason: string } {
  let patches;
  try {
    patches = parsePatch(diff);
  } catch (error) {
    return {
      ok: false,
      reason: `the diff does not parse: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const patch = patches[0];
  if (!patch || patch.hunks.length === 0) return { ok: false, reason: 'the diff has no hunks' };
  const after = applyPatch(before, patch);
  return after === false ? { ok: false, reason: 'a hunk does not match the body' } : { ok: true, after };
}
