/**
 * `.agent/plan/PROGRESS.md`: what happened and what comes next, as a log a person can read.
 *
 *     # Progress
 *
 *     - 2026-11-30T14:02:11.000Z started #reproduce: Writing a failing test for page 3.
 *     - 2026-11-30T14:05:40.000Z done #reproduce: paginate.test.ts fails as expected (1 failed, 6 passed).
 *     - 2026-11-30T14:06:02.000Z next #fix: Change `<=` to `<` in the page boundary.
 *
 * An entry is a top-level list item `- <ISO time> <kind>[ #<plan item id>]: <text>`; continuation lines are
 * indented under it. Kinds in use: `started`, `done`, `next`, `note`, `blocked`, `unblocked`, `validation`,
 * `decision` — any lowercase word is read. A list item in another shape is kept as a `note` with no time (a
 * person wrote it), and is not a problem. Entries are appended at the end of the file.
 */
import { BrainError } from '../errors';
import { parseListItems } from './list-items';
import { parseMarkdown, type MarkdownDocument } from './markdown';
import type { FormatProblem } from './problems';
import { planItemIdPattern } from './plan';
import { formatVersion } from './version';

export const progressFormatVersion = 1;

export interface ProgressEntry {
  /** Epoch ms, or null for an entry written free-hand. */
  readonly time: number | null;
  readonly kind: string;
  /** The plan item it is about (`#id`), if any. */
  readonly itemId: string | null;
  readonly text: string;
  readonly line: number;
}

/** PROGRESS.md read: the agent's progress log (not a long call's progress reports). */
export interface ProgressLog {
  readonly version: number;
  readonly entries: readonly ProgressEntry[];
  readonly document: MarkdownDocument;
  readonly problems: readonly FormatProblem[];
}

const entryPattern =
  /^(\d{4}-\d{2}-\d{2}T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2}))[ \t]+([a-z][a-z_-]*)(?:[ \t]+#([A-Za-z0-9][A-Za-z0-9_.-]*))?:[ \t]*([\s\S]*)$/;
const kindPattern = /^[a-z][a-z_-]{0,31}$/;

export function parseProgress(text: string): ProgressLog {
  const document = parseMarkdown(text);
  const problems: FormatProblem[] = [...document.problems];
  const version = formatVersion(document, progressFormatVersion, 'PROGRESS.md', problems);
  const contentStart = document.bom.length + (document.frontMatter?.raw.length ?? 0);
  const entries = parseListItems(text.slice(contentStart), document.preambleLine)
    .filter((item) => item.indent === 0 && item.checkbox === null)
    .map((item): ProgressEntry => {
      const m = entryPattern.exec(item.text);
      const time = m ? Date.parse(m[1] as string) : Number.NaN;
      if (!m || Number.isNaN(time))
        return { time: null, kind: 'note', itemId: null, text: item.text, line: item.line };
      return {
        time,
        kind: m[2] as string,
        itemId: m[3] ?? null,
        text: (m[4] as string).trim(),
        line: item.line,
      };
    });
  return { version, entries, document, problems };
}

export interface NewProgressEntry {
  /** Epoch ms (from the engine's clock). */
  readonly time: number;
  readonly kind: string;
  readonly itemId?: string;
  readonly text: string;
}

export function formatProgressEntry(entry: NewProgressEntry, eol = '\n'): string {
  if (!Number.isFinite(entry.time))
    throw new BrainError('InvalidArgument', 'A progress entry needs a time (epoch ms).');
  if (!kindPattern.test(entry.kind))
    throw new BrainError('InvalidArgument', `"${entry.kind}" is not a progress kind (a lowercase word).`);
  if (entry.itemId !== undefined && !planItemIdPattern.test(entry.itemId)) {
    throw new BrainError('InvalidArgument', `"${entry.itemId}" is not a plan item id.`);
  }
  const lines = entry.text.trim().split(/\r\n|\r|\n/);
  const item = entry.itemId === undefined ? '' : ` #${entry.itemId}`;
  return (
    `- ${new Date(entry.time).toISOString()} ${entry.kind}${item}: ${lines[0] as string}${eol}` +
    lines
      .slice(1)
      .map((l) => `  ${l}${eol}`)
      .join('')
  );
}

/** Appends an entry at the end of the file (a file without a final line ending gets one first). */
export function appendProgressEntry(text: string, entry: NewProgressEntry): string {
  const eol = parseMarkdown(text).eol;
  const sep = text === '' || /[\r\n]$/.test(text) ? '' : eol;
  return text + sep + formatProgressEntry(entry, eol);
}

/** A fresh PROGRESS.md with a heading and no entries. */
export function createProgressText(title = 'Progress', eol = '\n'): string {
  return `# ${title}${eol}${eol}`;
}
