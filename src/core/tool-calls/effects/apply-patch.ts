/**
 * Codex's apply_patch format (openai/codex: codex-rs/apply-patch/src/parser.rs), read as leniently as Codex
 * does: markers may carry surrounding white space, the text may be wrapped in a `<<'EOF' … EOF` here-document,
 * the first chunk of an update may start without `@@`. Unlike Codex, a bad hunk does not void the rest: it is
 * skipped with a note, because this reads what a call did, and the call's output says whether it applied.
 *
 *     *** Begin Patch
 *     *** Add File: path        then "+line" lines
 *     *** Delete File: path
 *     *** Update File: path     [*** Move to: new path]  then chunks:  @@ [context] / " x" "-x" "+x" lines
 *                                                         [*** End of File]
 *     *** End Patch
 */
import type { PatchChunk } from '../effect-types';

export type PatchOperation =
  | { readonly op: 'add'; readonly path: string; readonly contents: string }
  | { readonly op: 'delete'; readonly path: string }
  | {
      readonly op: 'update';
      readonly path: string;
      readonly moveTo: string | null;
      readonly chunks: PatchChunk[];
    };

/**
 * The line of an apply_patch output that says the patch was not applied, else null. Codex checks the whole patch
 * against the files before it writes any: the tool answers `apply_patch verification failed: Failed to find
 * expected lines in …` (or `… invalid hunk …`, `patch rejected: empty patch`), the `apply_patch` command run
 * through the shell prints `Failed to find expected lines in <file>:` and exits 1 — nothing changed. The tool's
 * output opens with it; in a shell's output (`anywhere`) it may follow other commands' lines.
 */
export function patchRefusal(output: string, anywhere = false): string | null {
  const text = output.length > 65_536 ? output.slice(0, 65_536) : output;
  const m = (anywhere ? refusalLine : refusalStart).exec(anywhere ? text : text.trimStart());
  return m ? m[0] : null;
}
const refusalStart = /^(?:apply_patch verification failed|patch rejected)\b.*/;
const refusalLine =
  /^(?:apply_patch verification failed\b|patch rejected\b|Failed to find expected lines in |Invalid patch\b|invalid hunk at line ).*/m;

const begin = '*** Begin Patch';
const end = '*** End Patch';

export function parseApplyPatch(text: string): { operations: PatchOperation[]; problems: string[] } {
  const problems: string[] = [];
  let lines = text
    .trim()
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const first = lines[0]?.trim() ?? '';
  if (/^<<['"]?EOF['"]?$/.test(first) && (lines[lines.length - 1] ?? '').endsWith('EOF'))
    lines = lines.slice(1, -1);
  const start = lines.findIndex((l) => l.trim() === begin);
  if (start < 0) return { operations: [], problems: ['The patch has no "*** Begin Patch" line.'] };
  let stop = lines.findIndex((l, k) => k > start && l.trim() === end);
  if (stop < 0) {
    problems.push('The patch has no "*** End Patch" line.');
    stop = lines.length;
  }
  const operations: PatchOperation[] = [];
  let i = start + 1;
  while (i < stop) {
    const line = (lines[i] as string).trim();
    if (line === '') {
      i++;
      continue;
    }
    if (line.startsWith('*** Add File: ')) {
      let contents = '';
      i++;
      while (i < stop && (lines[i] as string).startsWith('+'))
        contents += (lines[i++] as string).slice(1) + '\n';
      operations.push({ op: 'add', path: line.slice('*** Add File: '.length).trim(), contents });
    } else if (line.startsWith('*** Delete File: ')) {
      operations.push({ op: 'delete', path: line.slice('*** Delete File: '.length).trim() });
      i++;
    } else if (line.startsWith('*** Update File: ')) {
      const path = line.slice('*** Update File: '.length).trim();
      i++;
      let moveTo: string | null = null;
      if (i < stop && (lines[i] as string).startsWith('*** Move to: '))
        moveTo = (lines[i++] as string).slice(13).trim();
      const read = readChunks(lines, i, stop);
      i = read.next;
      if (read.chunks.length === 0 && !moveTo) problems.push(`The update of ${path} has no changes.`);
      operations.push({ op: 'update', path, moveTo, chunks: read.chunks });
    } else {
      problems.push(`Line ${i + 1} of the patch is not a file header: "${line.slice(0, 80)}".`);
      i++;
    }
  }
  return { operations, problems };
}

function readChunks(
  lines: readonly string[],
  from: number,
  stop: number,
): { chunks: PatchChunk[]; next: number } {
  const chunks: PatchChunk[] = [];
  let i = from;
  while (i < stop) {
    const line = lines[i] as string;
    if (line.trim() === '' && !line.startsWith(' ')) {
      i++;
      continue;
    }
    if (line.startsWith('*') && line.trim() !== '*** End of File') break;
    let context: string | null = null;
    if (line.trim() === '@@') i++;
    else if (line.startsWith('@@ ')) {
      context = line.slice(3);
      i++;
    } else if (chunks.length > 0 || !/^[ +-]/.test(line)) break;
    const oldLines: string[] = [];
    const newLines: string[] = [];
    let endOfFile = false;
    while (i < stop) {
      const l = lines[i] as string;
      if (l.trim() === '*** End of File') {
        endOfFile = true;
        i++;
        break;
      }
      const c = l[0];
      if (l === '') {
        oldLines.push('');
        newLines.push('');
      } else if (c === ' ') {
        oldLines.push(l.slice(1));
        newLines.push(l.slice(1));
      } else if (c === '+') newLines.push(l.slice(1));
      else if (c === '-') oldLines.push(l.slice(1));
      else break;
      i++;
    }
    chunks.push({ context, oldLines, newLines, endOfFile });
  }
  return { chunks, next: i };
}
