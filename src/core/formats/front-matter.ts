/**
 * Front matter: a `---` … `---` block of YAML at the top of a markdown file. Only the small YAML subset these
 * files use is read (scalars, quoted strings, `[a, b]`, block lists, one level of nested map, `|`/`>` blocks);
 * the block itself is always kept byte for byte, and an edit rewrites only the lines of the field it changes.
 */
import { BrainError } from '../errors';
import { splitLines, type Line } from './lines';
import { problem, type FormatProblem } from './problems';

export type FrontMatterValue =
  string | number | boolean | null | FrontMatterValue[] | { [key: string]: FrontMatterValue };

export interface FrontMatterField {
  readonly key: string;
  readonly value: FrontMatterValue;
  /** The field's lines within `FrontMatter.lines`: [start, end). Line 0 is the opening `---`. */
  readonly start: number;
  readonly end: number;
}

export interface FrontMatter {
  /** The whole block, both delimiter lines and their endings included. */
  readonly raw: string;
  readonly lines: readonly Line[];
  readonly fields: readonly FrontMatterField[];
}

export interface FrontMatterSplit {
  readonly frontMatter: FrontMatter | null;
  /** Everything after the block. */
  readonly body: string;
  /** How many lines the block takes, so body line n is file line n + bodyLineOffset. */
  readonly bodyLineOffset: number;
  readonly problems: readonly FormatProblem[];
}

const isDelimiter = (line: Line | undefined, closing: boolean) =>
  line !== undefined && (line.text.trimEnd() === '---' || (closing && line.text.trimEnd() === '...'));

/** Splits off and parses front matter; `text` must not start with a BOM (see `splitBom`). */
export function splitFrontMatter(text: string): FrontMatterSplit {
  const lines = splitLines(text);
  if (!isDelimiter(lines[0], false) || lines[0]?.eol === '') {
    return { frontMatter: null, body: text, bodyLineOffset: 0, problems: [] };
  }
  const close = lines.findIndex((line, i) => i > 0 && isDelimiter(line, true));
  if (close < 0) {
    return {
      frontMatter: null,
      body: text,
      bodyLineOffset: 0,
      problems: [
        problem(
          'FrontMatter',
          'warning',
          'The file opens with "---" but the front matter never closes; it is read as plain text.',
          1,
        ),
      ],
    };
  }
  const blockLines = lines.slice(0, close + 1);
  const last = lines[close] as Line;
  const raw = text.slice(0, last.offset + last.text.length + last.eol.length);
  const { fields, problems } = parseFields(blockLines);
  return {
    frontMatter: { raw, lines: blockLines, fields },
    body: text.slice(raw.length),
    bodyLineOffset: close + 1,
    problems,
  };
}

const keyLine = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/;
const isIndented = (line: Line) => /^[ \t]/.test(line.text);
const isBlank = (line: Line) => line.text.trim() === '';
const isDash = (line: Line) => /^-([ \t]|$)/.test(line.text);

function parseFields(lines: readonly Line[]): { fields: FrontMatterField[]; problems: FormatProblem[] } {
  const fields: FrontMatterField[] = [];
  const problems: FormatProblem[] = [];
  const end = lines.length - 1;
  let i = 1;
  while (i < end) {
    const line = lines[i] as Line;
    if (isBlank(line) || line.text.startsWith('#')) {
      i++;
      continue;
    }
    const match = keyLine.exec(line.text);
    if (!match) {
      problems.push(
        problem(
          'FrontMatter',
          'warning',
          `Front matter line ${line.number} is not "key: value"; it is kept as it is.`,
          line.number,
        ),
      );
      i++;
      continue;
    }
    const key = match[1] as string;
    const inline = match[2] ?? '';
    let j = i + 1;
    // A field's continuation: indented lines, a block list at column 0, and blank lines inside them.
    while (j < end) {
      const next = lines[j] as Line;
      if (isIndented(next) || (inline === '' && isDash(next))) j++;
      else if (isBlank(next) && j + 1 < end && isIndented(lines[j + 1] as Line)) j++;
      else break;
    }
    const block = lines.slice(i + 1, j).map((l) => l.text);
    fields.push({ key, value: parseValue(inline, block), start: i, end: j });
    i = j;
  }
  return { fields, problems };
}

function parseValue(inline: string, block: string[]): FrontMatterValue {
  if (/^[|>][+-]?$/.test(inline)) {
    const text = dedent(block);
    return inline.startsWith('|') ? text.join('\n') : text.join(' ').replace(/ {2,}/g, ' ').trim();
  }
  if (inline !== '' || block.every((l) => l.trim() === '')) return parseScalar(inline);
  const items = dedent(block).filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  if (items.every((l) => /^-([ \t]|$)/.test(l))) return items.map((l) => parseScalar(l.slice(1).trim()));
  const map: Record<string, FrontMatterValue> = {};
  for (const item of items) {
    const m = keyLine.exec(item);
    if (!m) return dedent(block).join('\n');
    map[m[1] as string] = parseScalar(m[2] ?? '');
  }
  return map;
}

function dedent(block: string[]): string[] {
  const indents = block.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const cut = indents.length ? Math.min(...indents) : 0;
  return block.map((l) => l.slice(cut));
}

/** One YAML scalar or flow list, as this subset reads it. */
export function parseScalar(source: string): FrontMatterValue {
  const s = source.trim();
  if (s.startsWith('"')) {
    try {
      return JSON.parse(s) as string;
    } catch {
      return s.replace(/^"|"$/g, '');
    }
  }
  if (s.startsWith("'")) return s.replace(/^'|'$/g, '').replace(/''/g, "'");
  if (s.startsWith('[') && s.endsWith(']')) return splitFlow(s.slice(1, -1)).map(parseScalar);
  const plain = s.replace(/[ \t]+#.*$/, '');
  if (plain === '' || plain === '~' || /^null$/i.test(plain)) return null;
  if (/^true$/i.test(plain)) return true;
  if (/^false$/i.test(plain)) return false;
  if (/^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(plain)) return Number(plain);
  return plain;
}

function splitFlow(inner: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote = '';
  for (const c of inner) {
    if (quote) {
      current += c;
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === ',') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  if (current.trim() !== '' || parts.length > 0) parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** A scalar written so this parser (and YAML) reads it back as the same value. */
export function formatScalar(value: FrontMatterValue): string {
  if (value === null) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatScalar).join(', ')}]`;
  if (typeof value === 'object') return JSON.stringify(value);
  const safePlain =
    /^[^\s'"#&*!|>%@`{}[\],?:~-][^#\n\r]*$/.test(value) &&
    !/:(\s|$)/.test(value) &&
    !/\s$/.test(value) &&
    typeof parseScalar(value) === 'string';
  return safePlain ? value : JSON.stringify(value);
}

function formatField(key: string, value: FrontMatterValue, eol: string): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value).map(([k, v]) => `  ${k}: ${formatScalar(v)}${eol}`);
    return `${key}:${eol}${entries.join('')}`;
  }
  return `${key}: ${formatScalar(value)}${eol}`;
}

export function getField(frontMatter: FrontMatter | null, key: string): FrontMatterValue | undefined {
  return frontMatter?.fields.find((f) => f.key === key)?.value;
}

/** A string, or a number written where a string was meant (`version: 2`, `name: 123`). */
export function getText(frontMatter: FrontMatter | null, key: string): string | undefined {
  const value = getField(frontMatter, key);
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/**
 * Sets (or with `undefined` removes) one field. Only that field's lines change: other fields, comments, blank
 * lines and line endings keep their bytes. A new field goes just before the closing delimiter.
 */
export function setField(
  frontMatter: FrontMatter,
  key: string,
  value: FrontMatterValue | undefined,
): FrontMatter {
  const lines = frontMatter.lines;
  const eol = (lines[0] as Line).eol;
  const existing = frontMatter.fields.find((f) => f.key === key);
  const text = (from: number, to: number) =>
    lines
      .slice(from, to)
      .map((l) => l.text + l.eol)
      .join('');
  const replacement = value === undefined ? '' : formatField(key, value, eol);
  const raw = existing
    ? text(0, existing.start) + replacement + text(existing.end, lines.length)
    : text(0, lines.length - 1) + replacement + text(lines.length - 1, lines.length);
  return parseFrontMatterBlock(raw);
}

/** A new front matter block from fields in order. */
export function createFrontMatter(
  fields: Readonly<Record<string, FrontMatterValue>>,
  eol = '\n',
): FrontMatter {
  const body = Object.entries(fields)
    .map(([key, value]) => formatField(key, value, eol))
    .join('');
  return parseFrontMatterBlock(`---${eol}${body}---${eol}`);
}

function parseFrontMatterBlock(raw: string): FrontMatter {
  const parsed = splitFrontMatter(raw).frontMatter;
  if (!parsed) throw new BrainError('Internal', 'A front matter block written here did not parse back.');
  return parsed;
}
