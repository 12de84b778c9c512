/**
 * Front matter: a `---` … `---` block of YAML at the top of a markdown file, read as YAML 1.2 (core schema) by the
 * `yaml` package — a full parser, because the hand-written subset this replaced misread ordinary inputs (comments
 * after quotes, escapes, `.5`, folded paragraphs, nested maps) without a word.
 *
 * The block is kept byte for byte, and an edit rewrites only the lines of the field it changes. For that the block
 * is cut into entries by lines: a top-level entry starts at a line's first column and runs over its indented lines
 * (and `- ` items, `: ` values, closing `]`/`}` at column 0), which is where YAML itself ends a top-level pair.
 * Values come from parsing the whole block when YAML accepts it and its pairs are those entries; otherwise each
 * entry is parsed alone, so one broken field is a problem on its line and every other field still reads.
 */
import { isMap, isNode, isScalar, parseDocument, type YAMLError } from 'yaml';
import { BrainError } from '../errors';
import { splitLines, type Line } from './lines';
import { problem, type FormatProblem } from './problems';
import {
  formatText,
  formatValue,
  readYaml,
  sameValue,
  toPlain,
  type FrontMatterValue,
  type YamlRead,
} from './yaml-values';

export type { FrontMatterValue } from './yaml-values';

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

/** A top-level entry: its lines [start, end) without trailing blank and comment lines; YAML reads to `next`. */
interface Entry {
  readonly start: number;
  end: number;
  next: number;
}

const isContent = (text: string) => text.trim() !== '' && !text.startsWith('#');
const continuesEntry = (text: string) => /^[ \t]/.test(text) || /^([-:]([ \t]|$)|[\]}])/.test(text);

function entriesOf(lines: readonly Line[]): Entry[] {
  const entries: Entry[] = [];
  const close = lines.length - 1;
  for (let i = 1; i < close; i++) {
    const text = (lines[i] as Line).text;
    if (!isContent(text)) continue;
    const open = entries[entries.length - 1];
    if (open && continuesEntry(text)) open.end = i + 1;
    else entries.push({ start: i, end: i + 1, next: close });
  }
  entries.forEach((entry, i) => (entry.next = entries[i + 1]?.start ?? close));
  return entries;
}

const textOf = (lines: readonly Line[], from: number, to: number) =>
  lines
    .slice(from, to)
    .map((l) => l.text + l.eol)
    .join('');

function parseFields(lines: readonly Line[]): { fields: FrontMatterField[]; problems: FormatProblem[] } {
  const entries = entriesOf(lines);
  const whole = readYaml(textOf(lines, 1, lines.length - 1));
  const pairs = whole.errors.length === 0 ? topLevelPairs(whole, entries, 1) : null;
  if (pairs) {
    const problems = whole.warnings.map((w) => yamlProblem(w, 'warning', whole.lineAt(w.pos[0]) + 1));
    return { fields: fieldsOf(entries, pairs, problems), problems };
  }
  // YAML refused the block (or it is not one `key: value` a line): read each entry alone.
  const problems: FormatProblem[] = [];
  const firstLineOfKey = new Map<string, number>();
  const fields = entries.flatMap((entry) => {
    const pair = readEntry(lines, entry, problems);
    if (!pair) return [];
    const line = entry.start + 1;
    const first = firstLineOfKey.get(pair.key);
    if (first === undefined) {
      firstLineOfKey.set(pair.key, line);
      return fieldsOf([entry], [pair], problems);
    }
    const again = ` sets "${pair.key}" again (first on line ${first}); YAML allows a key once, so only the first is read.`;
    problems.push(lineProblem(line, again));
    return [];
  });
  // What YAML refused only in the whole (nothing above caught it) is still a problem.
  const [refused] = whole.errors;
  if (refused && problems.every((p) => p.severity !== 'error')) {
    problems.push(yamlProblem(refused, 'error', whole.lineAt(refused.pos[0]) + 1));
  }
  return { fields, problems };
}

/** One entry parsed on its own: its pair, or null with the reason added to `problems`. */
function readEntry(lines: readonly Line[], entry: Entry, problems: FormatProblem[]): TopLevelPair | null {
  const alone = readYaml(textOf(lines, entry.start, entry.next));
  const lineOf = (e: YAMLError) => {
    const index = entry.start + alone.lineAt(e.pos[0]) - 1;
    // Past the entry's last line: something opened there never closed (a quote, a bracket).
    return (index < entry.end ? index : entry.start) + 1;
  };
  const [error] = alone.errors;
  if (error) {
    problems.push(yamlProblem(error, 'error', lineOf(error), ' This field is kept as it is, unread.'));
    return null;
  }
  problems.push(...alone.warnings.map((w) => yamlProblem(w, 'warning', lineOf(w))));
  const pair = topLevelPairs(alone, [entry], entry.start)?.[0];
  if (!pair) problems.push(lineProblem(entry.start + 1, ' is not "key: value"; it is kept as it is.'));
  return pair ?? null;
}

const lineProblem = (line: number, text: string, severity: FormatProblem['severity'] = 'error') =>
  problem('FrontMatter', severity, `Front matter line ${line}${text}`, line);

function yamlProblem(e: YAMLError, severity: FormatProblem['severity'], line: number, more = '') {
  return lineProblem(line, `: ${e.message.replace(/\.?$/, '.')}${more}`, severity);
}

interface TopLevelPair {
  readonly key: string;
  readonly value: FrontMatterValue | undefined;
}

/**
 * The document's pairs when it is a map whose pairs start, one each, on the entries' first lines; otherwise null.
 * A value that is not plain data is `undefined` (reported by `fieldsOf`).
 */
function topLevelPairs(read: YamlRead, entries: readonly Entry[], firstLine: number): TopLevelPair[] | null {
  const { doc } = read;
  if (doc.contents === null && entries.length === 0) return [];
  if (!isMap(doc.contents) || doc.contents.items.length !== entries.length) return null;
  const pairs: TopLevelPair[] = [];
  for (const [i, pair] of doc.contents.items.entries()) {
    const key = pair.key;
    if (!isScalar(key) || typeof key.value !== 'string' || !key.range) return null;
    if (firstLine + read.lineAt(key.range[0]) - 1 !== entries[i]?.start) return null;
    const node = pair.value;
    pairs.push({ key: key.value, value: isNode(node) ? toPlain(() => node.toJS(doc)) : null });
  }
  return pairs;
}

function fieldsOf(
  entries: readonly Entry[],
  pairs: readonly TopLevelPair[],
  problems: FormatProblem[],
): FrontMatterField[] {
  return entries.flatMap((entry, i) => {
    const { key, value } = pairs[i] as TopLevelPair;
    if (value !== undefined) return [{ key, value, start: entry.start, end: entry.end }];
    problems.push(
      lineProblem(
        entry.start + 1,
        `: "${key}" is not plain data (text, number, list, map; an alias may not expand this far); it is kept as it is.`,
      ),
    );
    return [];
  });
}

/**
 * One YAML value (a scalar or a flow list or map, as in `key: <source>`) read as YAML 1.2 reads it. Throws
 * `InvalidArgument` for text YAML refuses: this is a helper for values a program holds, not a file's parser.
 */
export function parseScalar(source: string): FrontMatterValue {
  const read = readYaml(source);
  const [error] = read.errors;
  const value = error ? undefined : toPlain(() => read.doc.toJS());
  if (value === undefined) {
    throw new BrainError('InvalidArgument', `Not a YAML value: ${error?.message ?? JSON.stringify(source)}.`);
  }
  return value;
}

/** A value written on one line so that YAML reads it back as the same value. */
export function formatScalar(value: FrontMatterValue): string {
  return formatValue(value, false);
}

/** `key: value`, or a non-empty map as `key:` and one indented `k: v` line each (how people write metadata). */
function formatField(key: string, value: FrontMatterValue, eol: string): string {
  const name = formatText(key, false);
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    const entries = Object.entries(value).map(
      ([k, v]) => `  ${formatText(k, false)}: ${formatScalar(v)}${eol}`,
    );
    return `${name}:${eol}${entries.join('')}`;
  }
  return `${name}: ${formatScalar(value)}${eol}`;
}

export function getField(frontMatter: FrontMatter | null, key: string): FrontMatterValue | undefined {
  return frontMatter?.fields.find((f) => f.key === key)?.value;
}

/**
 * A field meant as text. A number or boolean comes back as written — `version: 1.0` is "1.0", `name: 0x1F` is
 * "0x1F", `description: true` is "true" — because YAML's typing is not what a person meant in a text field (the
 * Agent Skills reference reads these fields as strings too). `null` (`key:`, `~`), a list or a map is `undefined`:
 * there is no text, and the caller reports it.
 */
export function getText(frontMatter: FrontMatter | null, key: string): string | undefined {
  const field = frontMatter?.fields.find((f) => f.key === key);
  if (!frontMatter || !field) return undefined;
  if (typeof field.value === 'string') return field.value;
  if (typeof field.value !== 'number' && typeof field.value !== 'boolean') return undefined;
  // The failsafe schema reads every scalar as its text; an alias to another field falls back to the value.
  const doc = parseDocument(textOf(frontMatter.lines, field.start, field.end), { schema: 'failsafe' });
  const written: unknown = doc.errors.length === 0 ? doc.get(key) : undefined;
  return typeof written === 'string' ? written : String(field.value);
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
  const replacement = value === undefined ? '' : formatField(key, value, eol);
  const raw = existing
    ? textOf(lines, 0, existing.start) + replacement + textOf(lines, existing.end, lines.length)
    : textOf(lines, 0, lines.length - 1) + replacement + textOf(lines, lines.length - 1, lines.length);
  return parseFrontMatterBlock(raw, value === undefined ? {} : { [key]: value });
}

/** A new front matter block from fields in order. */
export function createFrontMatter(
  fields: Readonly<Record<string, FrontMatterValue>>,
  eol = '\n',
): FrontMatter {
  const body = Object.entries(fields)
    .map(([key, value]) => formatField(key, value, eol))
    .join('');
  return parseFrontMatterBlock(`---${eol}${body}---${eol}`, fields);
}

/** Parses a block written here and checks that every field `written` reads back as the same value. */
function parseFrontMatterBlock(
  raw: string,
  written: Readonly<Record<string, FrontMatterValue>>,
): FrontMatter {
  const parsed = splitFrontMatter(raw).frontMatter;
  if (!parsed) throw new BrainError('Internal', 'A front matter block written here did not parse back.');
  for (const [key, value] of Object.entries(written)) {
    const read = getField(parsed, key);
    if (read === undefined || !sameValue(read, value)) {
      throw new BrainError(
        'InvalidArgument',
        `Front matter cannot hold "${key}" as given: it reads back otherwise.`,
      );
    }
  }
  return parsed;
}
