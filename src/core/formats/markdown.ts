/**
 * A markdown document as front matter, a preamble and heading-delimited sections, each kept as its raw text.
 * Serialising concatenates the raw parts, so an unedited document gives back its exact input (BOM, CRLF,
 * trailing spaces, a missing final newline, sections nobody knows about). An edit replaces one part; every
 * other byte stays where it was.
 *
 * Headings are ATX (`#` … `######`); `#` lines inside fenced code blocks are not headings. Sections are flat:
 * a `##` section ends at the next heading of any level (`sectionExtent` gives a section with its subsections).
 */
import { setField, splitFrontMatter, type FrontMatter, type FrontMatterValue } from './front-matter';
import { dominantEol, splitBom, splitLines, type Line } from './lines';
import type { FormatProblem } from './problems';

export interface MarkdownSection {
  /** 1 for `#`, up to 6. */
  readonly level: number;
  /** The heading's text: trimmed, closing `#`s removed. */
  readonly title: string;
  /** The raw heading line, its ending included. */
  readonly heading: string;
  /** The raw text from the line after the heading up to the next heading (or the end). */
  readonly body: string;
  /** 1-based line of the heading in the file. */
  readonly line: number;
}

export interface MarkdownDocument {
  readonly bom: string;
  readonly frontMatter: FrontMatter | null;
  /** Raw text between the front matter and the first heading. */
  readonly preamble: string;
  /** 1-based line where the preamble starts. */
  readonly preambleLine: number;
  readonly sections: readonly MarkdownSection[];
  /** The ending new lines get, taken from the file (LF when it has none). */
  readonly eol: '\n' | '\r\n';
  readonly problems: readonly FormatProblem[];
}

const atxHeading = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const fenceOpen = /^ {0,3}(`{3,}|~{3,})/;

/** Tracks fenced code blocks line by line: `inside(line)` is true for a fence line or any line within one. */
export function createFenceTracker() {
  let fence: string | null = null;
  return {
    inside(text: string): boolean {
      const m = fenceOpen.exec(text);
      if (fence === null) {
        if (m && !(m[1]?.startsWith('`') && text.slice(m[0].length).includes('`'))) fence = m[1] as string;
        return m !== null;
      }
      if (
        m &&
        (m[1] as string)[0] === fence[0] &&
        (m[1] as string).length >= fence.length &&
        text.trim() === m[1]
      )
        fence = null;
      return true;
    },
  };
}

export function parseHeading(text: string): { level: number; title: string } | null {
  const m = atxHeading.exec(text);
  if (!m) return null;
  return { level: (m[1] as string).length, title: (m[2] ?? '').trim() };
}

export function parseMarkdown(text: string): MarkdownDocument {
  const { bom, rest } = splitBom(text);
  const split = splitFrontMatter(rest);
  const lines = splitLines(split.body);
  const fences = createFenceTracker();
  const headings: { line: Line; level: number; title: string }[] = [];
  for (const line of lines) {
    if (fences.inside(line.text)) continue;
    const heading = parseHeading(line.text);
    if (heading) headings.push({ line, ...heading });
  }
  const body = split.body;
  const firstAt = headings[0]?.line.offset ?? body.length;
  const sections = headings.map((h, i): MarkdownSection => {
    const headingEnd = h.line.offset + h.line.text.length + h.line.eol.length;
    const next = headings[i + 1]?.line.offset ?? body.length;
    return {
      level: h.level,
      title: h.title,
      heading: body.slice(h.line.offset, headingEnd),
      body: body.slice(headingEnd, next),
      line: h.line.number + split.bodyLineOffset,
    };
  });
  return {
    bom,
    frontMatter: split.frontMatter,
    preamble: body.slice(0, firstAt),
    preambleLine: split.bodyLineOffset + 1,
    sections,
    eol: dominantEol(text),
    problems: split.problems,
  };
}

export function serialiseMarkdown(doc: MarkdownDocument): string {
  let out = doc.bom + (doc.frontMatter?.raw ?? '') + doc.preamble;
  for (const section of doc.sections) out += section.heading + section.body;
  return out;
}

/** Rewrites every line ending in `text` to `eol`, so inserted text matches the file it goes into. */
export function withEol(text: string, eol: string): string {
  return text.replace(/\r\n|\r|\n/g, eol);
}

const endsWithEol = (text: string) => /[\r\n]$/.test(text);

/** Index of the first section titled `title` (case- and space-insensitive), optionally at `level`; -1 if none. */
export function findSection(doc: MarkdownDocument, title: string, level?: number): number {
  const wanted = normaliseTitle(title);
  return doc.sections.findIndex(
    (s) => normaliseTitle(s.title) === wanted && (level === undefined || s.level === level),
  );
}

export function normaliseTitle(title: string): string {
  return title.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The section at `index` with its subsections: indices [index, end). */
export function sectionExtent(doc: MarkdownDocument, index: number): { start: number; end: number } {
  const level = doc.sections[index]?.level ?? 0;
  let end = index + 1;
  while (end < doc.sections.length && (doc.sections[end] as MarkdownSection).level > level) end++;
  return { start: index, end };
}

function rebuild(
  doc: MarkdownDocument,
  parts: { preamble?: string; sections?: MarkdownSection[]; frontMatter?: FrontMatter | null },
) {
  const sections = parts.sections ?? [...doc.sections];
  // A heading that was the file's unterminated last line needs an ending once text follows it.
  const fixed = sections.map((s, i) => {
    const followed = s.body !== '' || i < sections.length - 1;
    return followed && !endsWithEol(s.heading) ? { ...s, heading: s.heading + doc.eol } : s;
  });
  const preamble = parts.preamble ?? doc.preamble;
  const frontMatter = parts.frontMatter === undefined ? doc.frontMatter : parts.frontMatter;
  return parseMarkdown(
    serialiseMarkdown({
      ...doc,
      frontMatter,
      preamble: preamble !== '' && fixed.length > 0 && !endsWithEol(preamble) ? preamble + doc.eol : preamble,
      sections: fixed.map((s, i) =>
        i < fixed.length - 1 && s.body !== '' && !endsWithEol(s.body) ? { ...s, body: s.body + doc.eol } : s,
      ),
    }),
  );
}

/**
 * Replaces one section's body (not its heading). `body` gets the document's line endings; if another section
 * follows, the body is ended with a line break so the next heading stays a heading.
 */
export function setSectionBody(doc: MarkdownDocument, index: number, body: string): MarkdownDocument {
  const sections = [...doc.sections];
  const section = sections[index];
  if (!section) return doc;
  sections[index] = { ...section, body: withEol(body, doc.eol) };
  return rebuild(doc, { sections });
}

export function setPreamble(doc: MarkdownDocument, preamble: string): MarkdownDocument {
  return rebuild(doc, { preamble: withEol(preamble, doc.eol) });
}

/**
 * Inserts a new section before section `at` (or at the end when `at` is the section count). A blank line is
 * kept between the previous section's text and the new heading, as people write it.
 */
export function insertSection(
  doc: MarkdownDocument,
  at: number,
  level: number,
  title: string,
  body: string,
): MarkdownDocument {
  const eol = doc.eol;
  const sections = [...doc.sections];
  const heading = `${'#'.repeat(Math.min(6, Math.max(1, level)))} ${title}${eol}`;
  const previousText = at === 0 ? doc.preamble : (sections[at - 1] as MarkdownSection).body;
  const spaced = blankLineAfter(previousText, eol, at > 0);
  if (at === 0) {
    const inserted: MarkdownSection = { level, title, heading, body: withEol(body, eol), line: 0 };
    return rebuild(doc, { preamble: spaced, sections: [inserted, ...sections] });
  }
  sections[at - 1] = { ...(sections[at - 1] as MarkdownSection), body: spaced };
  sections.splice(at, 0, { level, title, heading, body: withEol(body, eol), line: 0 });
  return rebuild(doc, { sections });
}

/** `text` ending in a blank line (an empty text stays empty unless it follows a heading). */
function blankLineAfter(text: string, eol: string, afterHeading: boolean): string {
  if (text === '') return afterHeading ? eol : '';
  const lf = text.replace(/\r\n?/g, '\n');
  if (/\n[ \t]*\n$/.test(lf) || (afterHeading && /^[ \t]*\n$/.test(lf))) return text;
  return text.replace(/(\r\n|\r|\n)*$/, eol + eol);
}

export function appendSection(
  doc: MarkdownDocument,
  level: number,
  title: string,
  body: string,
): MarkdownDocument {
  return insertSection(doc, doc.sections.length, level, title, body);
}

/** Sets (or with `undefined` removes) one front matter field, creating the block if the file has none. */
export function setFrontMatterField(
  doc: MarkdownDocument,
  key: string,
  value: FrontMatterValue | undefined,
): MarkdownDocument {
  const base = doc.frontMatter ?? splitFrontMatter(`---${doc.eol}---${doc.eol}`).frontMatter;
  if (!base) return doc;
  if (!doc.frontMatter && value === undefined) return doc;
  return rebuild(doc, { frontMatter: setField(base, key, value) });
}
