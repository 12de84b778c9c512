/**
 * Budgets for rendering untrusted markdown, and the cheap scan that checks them before marked sees the text.
 * marked recurses once per nesting level (20,000 levels overflow the call stack), its emphasis matching is
 * quadratic in the delimiters of one paragraph, and every tag it emits costs DOMPurify and the page's HTML parser
 * time on the main thread. The scan is one linear pass; it estimates from the shapes those costs come from and errs
 * towards counting too much only for text no person writes (100 nesting levels, 5,000 `*` in one paragraph).
 * What it cannot see, the time budget of the worker that runs marked catches (markdown-renderer.ts).
 *
 * Pure: no DOM, runs in the worker and on the main thread alike.
 */

export interface MarkdownLimits {
  /** Nesting levels of lists and blockquotes. */
  readonly depth: number;
  /** Emphasis delimiters (`*`, `_`, `~`) in one paragraph, list item or heading. */
  readonly emphasisRun: number;
  /** HTML tags in the source, and then in marked's output (each costs the sanitiser and the DOM). */
  readonly tags: number;
  /** Time marked may take in the worker before it is stopped. */
  readonly timeMs: number;
}

export const markdownLimits: MarkdownLimits = { depth: 100, emphasisRun: 5_000, tags: 10_000, timeMs: 500 };

/** Why a file is shown as text rather than rendered. */
export type MarkdownOff =
  | { readonly kind: 'depth'; readonly depth: number; readonly limit: number }
  | { readonly kind: 'emphasis'; readonly count: number; readonly limit: number }
  | { readonly kind: 'tags'; readonly count: number; readonly limit: number }
  | { readonly kind: 'time'; readonly limit: number }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'unavailable'; readonly message: string };

const n = (value: number) => value.toLocaleString('en-US');

/** One sentence for the person looking at the preview: what is off, why, and that they see the text instead. */
export function describeMarkdownOff(off: MarkdownOff): string {
  switch (off.kind) {
    case 'depth':
      return `Preview off: this file nests ${n(off.depth)} levels deep (limit ${n(off.limit)}); showing its text.`;
    case 'emphasis':
      return (
        `Preview off: this file has ${n(off.count)} emphasis marks (*, _ or ~) in one paragraph ` +
        `(limit ${n(off.limit)}); showing its text.`
      );
    case 'tags':
      return `Preview off: this file makes ${n(off.count)} HTML tags (limit ${n(off.limit)}); showing its text.`;
    case 'time':
      return `Preview off: rendering this file took longer than ${n(off.limit)} ms (the limit); showing its text.`;
    case 'failed':
      return `Preview off: the markdown renderer failed on this file (${off.message}); showing its text.`;
    case 'unavailable':
      return `Preview off: the markdown renderer could not run (${off.message}); showing its text.`;
    default: {
      const never: never = off;
      return never;
    }
  }
}

interface Fence {
  readonly char: number;
  readonly length: number;
  /** Lines indented less than this (or with fewer `>`) are outside the list item or quote the fence is in. */
  readonly column: number;
  readonly quotes: number;
}

const SPACE = 32;
const TAB = 9;
const GT = 62;
const isBlankOrEnd = (c: number) => c === SPACE || c === TAB || Number.isNaN(c);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isTagStart = (c: number) =>
  (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 47 /* / */ || c === 33 /* ! */ || c === 63; /* ? */

const tableDelimiterRow = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** Width of a list marker (`-`, `*`, `+`, `1.`, `1)`) at `i` when one is there and followed by a blank, else 0. */
function listMarkerWidth(line: string, i: number): number {
  const c = line.charCodeAt(i);
  if (c === 45 || c === 42 || c === 43) return isBlankOrEnd(line.charCodeAt(i + 1)) ? 1 : 0;
  let j = i;
  while (j - i < 9 && isDigit(line.charCodeAt(j))) j++;
  if (j === i) return 0;
  const d = line.charCodeAt(j);
  return (d === 46 || d === 41) && isBlankOrEnd(line.charCodeAt(j + 1)) ? j + 1 - i : 0;
}

/** The length of a ``` or ~~~ fence at `i`, else 0. */
function fenceLength(line: string, i: number): number {
  const c = line.charCodeAt(i);
  if (c !== 96 && c !== 126) return 0;
  let j = i;
  while (line.charCodeAt(j) === c) j++;
  return j - i >= 3 ? j - i : 0;
}

interface Prefix {
  /** Where the line's content starts, after its container prefix. */
  readonly at: number;
  readonly quotes: number;
  /** Column of the first non-blank character. */
  readonly indent: number;
  /** For each list marker in the prefix: its column, and the column its content starts at. */
  readonly markers: readonly { readonly column: number; readonly content: number }[];
}

/** The container prefix of a line: indentation, `>` and (unless `withMarkers` is false) list markers, in any order. */
function readPrefix(line: string, withMarkers: boolean): Prefix {
  const markers: { column: number; content: number }[] = [];
  let i = 0;
  let column = 0;
  let quotes = 0;
  let indent = -1;
  for (;;) {
    const c = line.charCodeAt(i);
    if (c === SPACE || c === TAB) {
      column = c === TAB ? column + 4 - (column % 4) : column + 1;
      i++;
      continue;
    }
    if (indent < 0) indent = column;
    if (c === GT) {
      quotes++;
      column++;
      i++;
      continue;
    }
    const width = withMarkers ? listMarkerWidth(line, i) : 0;
    if (width === 0) return { at: i, quotes, indent, markers };
    markers.push({ column, content: column + width + 1 });
    column += width;
    i += width;
  }
}

/** Whether a line is inside the open fence (true), closes it (`'close'`), or is outside it (false). */
function fenceHolds(fence: Fence, line: string, prefix: Prefix): boolean | 'close' {
  const blank = prefix.at >= line.trimEnd().length;
  if (!blank && (prefix.quotes < fence.quotes || prefix.indent < fence.column)) return false;
  const c = line.charCodeAt(prefix.at);
  return c === fence.char && fenceLength(line, prefix.at) >= fence.length ? 'close' : true;
}

/**
 * The first budget `source` goes over, or null. Depth counts `>` and list markers at the start of each line plus
 * the list items it sits in by indentation (an estimate: a stack of their content columns). Emphasis delimiters and
 * tags outside fenced code are counted; the emphasis count starts again at each blank line, list item, heading or
 * table row, since marked matches emphasis only within one of those (lines that merely start with `|` are one
 * paragraph until a delimiter row makes them a table). A fence ends where its list item or quote does.
 */
export function scanMarkdown(source: string, limits: MarkdownLimits = markdownLimits): MarkdownOff | null {
  const itemContents: number[] = [];
  let fence: Fence | null = null;
  let inTable = false;
  let emphasis = 0;
  let tags = 0;
  // Maxima over the whole text, so that the sentence says how far over it is, not where the count first crossed.
  let deepest = 0;
  let mostEmphasis = 0;
  for (let start = 0; start <= source.length;) {
    let end = source.indexOf('\n', start);
    if (end < 0) end = source.length;
    const line = source.slice(start, end);
    start = end + 1;

    let prefix = readPrefix(line, fence === null);
    if (fence) {
      const holds = fenceHolds(fence, line, prefix);
      if (holds === 'close') fence = null;
      if (holds !== false) continue;
      fence = null;
      prefix = readPrefix(line, true);
    }
    const first = prefix.markers[0];
    if (first) while ((itemContents.at(-1) ?? -1) > first.column) itemContents.pop();
    for (const marker of prefix.markers) itemContents.push(marker.content);
    deepest = Math.max(deepest, prefix.quotes + (first ? itemContents.length : 0));

    const at = prefix.at;
    const opening = fenceLength(line, at);
    if (opening > 0) {
      // The fence lives in the list item it starts in, or the innermost one its indentation continues, or none.
      const item = itemContents.at(-1) ?? 0;
      const column = first ? item : item <= prefix.indent ? item : 0;
      fence = { char: line.charCodeAt(at), length: opening, column, quotes: prefix.quotes };
      emphasis = 0;
      continue;
    }
    const blank = at >= line.trimEnd().length;
    if (blank) inTable = false;
    else if (line.includes('|', at) && tableDelimiterRow.test(line.slice(at))) inTable = true;
    if (blank || first || inTable || line.charCodeAt(at) === 35 /* # */) emphasis = 0;
    for (let j = at; j < line.length; j++) {
      const d = line.charCodeAt(j);
      if (d === 42 || d === 95 || d === 126) emphasis++;
      else if (d === 60 /* < */ && isTagStart(line.charCodeAt(j + 1))) tags++;
    }
    mostEmphasis = Math.max(mostEmphasis, emphasis);
  }
  if (deepest > limits.depth) return { kind: 'depth', depth: deepest, limit: limits.depth };
  if (mostEmphasis > limits.emphasisRun)
    return { kind: 'emphasis', count: mostEmphasis, limit: limits.emphasisRun };
  if (tags > limits.tags) return { kind: 'tags', count: tags, limit: limits.tags };
  return null;
}

/** How many tags an HTML string holds: in marked's output every `<` opens one (text has `&lt;`). */
export function countTags(html: string): number {
  let count = 0;
  for (let i = html.indexOf('<'); i >= 0; i = html.indexOf('<', i + 1)) count++;
  return count;
}
