/**
 * Applying Codex apply_patch chunks to a body, as codex-rs/apply-patch does: each chunk's `@@ context` line is
 * sought from where the previous chunk ended, then its old lines after it — exactly, then ignoring trailing
 * white space, then ignoring surrounding white space; `*** End of File` seeks at the end. A chunk with no old
 * lines appends. The result ends with a newline.
 */
import type { PatchChunk } from '../effect-types';

/** Line comparisons allowed for one replay; past it the replay is refused rather than slow. */
export const maxMatchWork = 50_000_000;

type Result = { readonly ok: true; readonly after: string } | { readonly ok: false; readonly reason: string };

const exact = (a: string, b: string) => a === b;
const trailing = (a: string, b: string) => a.trimEnd() === b.trimEnd();
const surrounding = (a: string, b: string) => a.trim() === b.trim();

/** Where `pattern` starts in `lines` at or after `start` (or at the end, for `eof`); null when nowhere. */
function seek(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  eof: boolean,
  budget: { work: number },
): number | null {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return null;
  const from = eof ? lines.length - pattern.length : start;
  for (const same of [exact, trailing, surrounding]) {
    for (let i = from; i + pattern.length <= lines.length; i++) {
      let j = 0;
      while (j < pattern.length && same(lines[i + j] as string, pattern[j] as string)) j++;
      budget.work += j + 1;
      if (j === pattern.length) return i;
      if (budget.work > maxMatchWork) return null;
    }
  }
  return null;
}

export function applyHunks(before: string, chunks: readonly PatchChunk[]): Result {
  const lines = before.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const replacements: [number, number, readonly string[]][] = [];
  const budget = { work: 0 };
  let index = 0;
  for (const chunk of chunks) {
    if (chunk.context !== null) {
      const at = seek(lines, [chunk.context], index, false, budget);
      if (at === null)
        return { ok: false, reason: `the context line "${chunk.context.slice(0, 80)}" is not in the body` };
      index = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      replacements.push([lines.length, 0, chunk.newLines]);
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let at = seek(lines, pattern, index, chunk.endOfFile, budget);
    if (at === null && pattern[pattern.length - 1] === '') {
      pattern = pattern.slice(0, -1);
      if (replacement[replacement.length - 1] === '') replacement = replacement.slice(0, -1);
      at = seek(lines, pattern, index, chunk.endOfFile, budget);
    }
    if (at === null) {
      const why = budget.work > maxMatchWork ? 'too large to replay' : 'its old lines are not in the body';
      return { ok: false, reason: `a chunk does not apply: ${why}` };
    }
    replacements.push([at, pattern.length, replacement]);
    index = at + pattern.length;
  }
  replacements.sort((a, b) => a[0] - b[0]);
  // One forward pass (no spread into splice: a chunk of a million lines would overflow the call stack).
  const out: string[] = [];
  let pos = 0;
  for (const [start, length, next] of replacements) {
    for (let i = pos; i < start; i++) out.push(lines[i] as string);
    for (const line of next) out.push(line);
    pos = Math.max(pos, start + length);
  }
  for (let i = pos; i < lines.length; i++) out.push(lines[i] as string);
  if (out[out.length - 1] !== '') out.push('');
  return { ok: true, after: out.join('\n') };
}
