/**
 * The search text of a recorded tool step: what its params and result *say*, not their JSON. Indexing the JSON
 * text hid every word that begins a line of a command's output (`"…py\ndjango/db/…"` tokenises as `ndjango`) and
 * glued escapes to words (`\"name\"`, `\tstatus`). Here the JSON value is walked and its string leaves are written
 * out as they read, each under the key that holds it (`output: …`, `exitCode: 1`), one leaf a line.
 *
 * Paths need nothing more: the index tokenizer (unicode61) splits `django/db/backends/postgresql/operations.py` on
 * `/` and `.`, and a query word with joiners (`operations.py`, `postgresql/operations`) becomes a phrase of the
 * same tokens (core/events/search.ts), so the whole path, a tail of it and the bare file name all match.
 *
 * A long text keeps its head and its tail — where a command's output states what happened (the failure summary
 * at the end of a test run) — and says what was cut between them.
 */

/** Characters of a step's text kept from its start and from its end; what lies between is not indexed. */
export const STEP_TEXT_HEAD = 32 * 1024;
export const STEP_TEXT_TAIL = 16 * 1024;
/** How far a cut may move to fall between words rather than inside one. */
const CUT_SLACK = 256;

/** The title of a step's search document: `Step 3: bash (error)`. */
export const stepTitle = (step: { seq: number; tool: string; status: string }) =>
  `Step ${step.seq}: ${step.tool} (${step.status})`;

function leafText(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
      return String(value);
    default:
      return null;
  }
}

/**
 * Past this depth a value adds no text. recordStep bounds values to 64 levels; a row stored before that bound (or
 * outside agent-brain) may be deeper, and its text must not cost the stack.
 */
const MAX_DEPTH = 64;

/** Appends the lines of a JSON value under `label`. */
function walk(value: unknown, label: string | null, lines: string[], depth: number): void {
  const leaf = leafText(value);
  if (leaf !== null) {
    if (leaf !== '') lines.push(label === null ? leaf : `${label}: ${leaf}`);
    return;
  }
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) walk(item, label, lines, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && typeof item === 'object') {
      // A nested object or list: its key (meaningful text, e.g. a path used as a key) on a line of its own.
      lines.push(`${key}:`);
      walk(item, null, lines, depth + 1);
    } else walk(item, key, lines, depth + 1);
  }
}

/** The decoded text of one JSON value: its string leaves and keys, one leaf a line. */
export function jsonSearchText(value: unknown): string {
  const lines: string[] = [];
  walk(value, null, lines, 0);
  return lines.join('\n');
}

const isSpace = (code: number) => code === 32 || code === 10 || code === 9 || code === 13;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * A cut near `at`, moved within the slack (towards `towards`) to whitespace, which it leaves out, never inside a
 * surrogate pair. The head ends before the returned index; the tail starts at it.
 */
function cutNear(text: string, at: number, towards: -1 | 1): number {
  for (let i = 0; i < CUT_SLACK; i++) {
    const p = at + towards * i;
    if (p <= 0 || p >= text.length) break;
    if (isSpace(text.charCodeAt(p))) return towards === 1 ? p + 1 : p;
  }
  return isLowSurrogate(text.charCodeAt(at)) ? at + towards : at;
}

/** A text bounded to its head and tail, the cut said in words where it was made. */
export function headAndTail(text: string, head = STEP_TEXT_HEAD, tail = STEP_TEXT_TAIL): string {
  if (text.length <= head + tail) return text;
  const headEnd = cutNear(text, head, -1);
  const tailStart = cutNear(text, text.length - tail, 1);
  const omitted = tailStart - headEnd;
  return `${text.slice(0, headEnd)}\n[… ${omitted} characters not indexed …]\n${text.slice(tailStart)}`;
}

const stepBody = (params: string, result: string) =>
  headAndTail([params, result].filter((part) => part !== '').join('\n\n'));

/** The body of a step's search document: params, then result, decoded and bounded. */
export const stepSearchText = (params: unknown, result: unknown) =>
  stepBody(jsonSearchText(params), jsonSearchText(result));

/** The same from the stored columns (JSON text; see storedJsonSearchText). */
export const storedStepSearchText = (params: string, result: string) =>
  stepBody(storedJsonSearchText(params), storedJsonSearchText(result));

/**
 * A stored params/result column as search text: decoded when it is JSON; when it is not (changed outside
 * agent-brain), its text as it is, with JSON escapes undone so that its words still read as words.
 */
function storedJsonSearchText(stored: string): string {
  try {
    return jsonSearchText(JSON.parse(stored));
  } catch {
    return decodeJsonEscapes(stored);
  }
}

const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '/': '/' };

/**
 * JSON string escapes undone in text that may be cut JSON (a search document indexed before decoding: the first
 * characters of a JSON value, often cut mid-string, so it cannot be parsed). `\\` stays one backslash.
 */
export function decodeJsonEscapes(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/gsu, (whole, code: string) => {
    if (code === '\\') return '\\';
    if (code.length === 5) return String.fromCharCode(parseInt(code.slice(1), 16));
    return escapes[code] ?? whole;
  });
}
