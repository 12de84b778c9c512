/**
 * `.agent/MEMORY.md` (what the agent keeps across sessions: the user's preferences, standing instructions,
 * lessons) and `.agent/PROJECT_MEMORY.md` (facts about this project: architecture, commands, conventions,
 * pitfalls). Both are free markdown; the typed view is their sections and each section's top-level list items
 * ("entries"). `addMemoryEntry` inserts one line and leaves every other byte.
 */
import { parseListItems } from './list-items';
import {
  appendSection,
  findSection,
  parseMarkdown,
  serialiseMarkdown,
  setSectionBody,
  type MarkdownDocument,
} from './markdown';
import type { FormatProblem } from './problems';
import { formatVersion } from './version';

export const memoryFormatVersion = 1;

export interface MemoryEntry {
  readonly text: string;
  /** 1-based line in the file. */
  readonly line: number;
}

export interface MemorySection {
  /** `''` for text before the first heading. */
  readonly title: string;
  /** 0 for text before the first heading. */
  readonly level: number;
  readonly line: number;
  readonly entries: readonly MemoryEntry[];
  /** The section's body as written. */
  readonly body: string;
}

export interface MemoryFile {
  readonly version: number;
  /** The first `#` heading, if any. */
  readonly title: string | null;
  readonly sections: readonly MemorySection[];
  readonly document: MarkdownDocument;
  readonly problems: readonly FormatProblem[];
}

const topLevelEntries = (body: string, firstLine: number): MemoryEntry[] =>
  parseListItems(body, firstLine)
    .filter((item) => item.indent === 0)
    .map((item) => ({ text: item.text, line: item.line }));

export function parseMemory(text: string, file = 'MEMORY.md'): MemoryFile {
  const document = parseMarkdown(text);
  const problems: FormatProblem[] = [...document.problems];
  const version = formatVersion(document, memoryFormatVersion, file, problems);
  const sections: MemorySection[] = [];
  const preambleEntries = topLevelEntries(document.preamble, document.preambleLine);
  if (document.preamble.trim() !== '') {
    sections.push({
      title: '',
      level: 0,
      line: document.preambleLine,
      entries: preambleEntries,
      body: document.preamble,
    });
  }
  for (const s of document.sections) {
    sections.push({
      title: s.title,
      level: s.level,
      line: s.line,
      entries: topLevelEntries(s.body, s.line + 1),
      body: s.body,
    });
  }
  const title = document.sections.find((s) => s.level === 1)?.title ?? null;
  return { version, title, sections, document, problems };
}

/**
 * Adds `- <entry>` at the end of the list in section `sectionTitle` (a `##` section is appended if there is none).
 * A multi-line entry gets its continuation lines indented under the bullet.
 */
export function addMemoryEntry(text: string, sectionTitle: string, entry: string): string {
  const doc = parseMarkdown(text);
  const eol = doc.eol;
  const bullet = `- ${entry
    .trim()
    .split(/\r\n|\r|\n/)
    .join(`${eol}  `)}${eol}`;
  const index = findSection(doc, sectionTitle);
  if (index < 0) return serialiseMarkdown(appendSection(doc, 2, sectionTitle, `${eol}${bullet}`));
  const body = doc.sections[index]?.body ?? '';
  return serialiseMarkdown(setSectionBody(doc, index, insertIntoList(body, bullet, eol)));
}

/** Inserts `line` after the last top-level list item of `body`, or after its last text with a blank line. */
export function insertIntoList(body: string, line: string, eol: string): string {
  const items = parseListItems(body).filter((item) => item.indent === 0);
  const last = items[items.length - 1];
  if (last) {
    const head = body.slice(0, last.end);
    const sep = /[\r\n]$/.test(head) ? '' : eol;
    return head + sep + line + body.slice(last.end);
  }
  const trimmed = body.replace(/\s+$/, '');
  const tail = body.slice(trimmed.length);
  if (trimmed === '') return `${eol}${line}${tail.replace(/^(\r\n|\r|\n)/, '')}`;
  return `${trimmed}${eol}${eol}${line}${tail.replace(/^(\r\n|\r|\n)/, '')}`;
}
