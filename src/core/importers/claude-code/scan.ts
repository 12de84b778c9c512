/**
 * The cheap skip: a Claude Code line's top-level `type` read without JSON.parse — and, from its bytes, without
 * decoding it. `progress` records can be 99 % of a multi-GB file (anthropics/claude-code#18905) and are never
 * needed, so they are recognised by a scan of the line's top level (strings stepped over by a native search for
 * their closing quote, nested values skipped by depth) up to its `type` key; nested objects also have `type`
 * keys: only depth 1 counts. The scan reads text and UTF-8 bytes alike: JSON's structural characters are ASCII,
 * and a byte of a multi-byte character is never one of them.
 */

/** Record types skipped without a parse. */
export const cheapSkipTypes: ReadonlySet<string> = new Set(['progress']);

/** A line as the scan reads it: its text or its UTF-8 bytes. */
interface Scanned {
  readonly length: number;
  /** The code unit (text) or byte at `i`. */
  code(i: number): number;
  /** The next index of the ASCII character `code` from `from`, or -1 (a native search). */
  find(code: number, from: number): number;
  /** The characters in [start, end) when they are plain ASCII, else null. */
  ascii(start: number, end: number): string | null;
}

function ofText(line: string): Scanned {
  return {
    length: line.length,
    code: (i) => line.charCodeAt(i),
    find: (code, from) => line.indexOf(String.fromCharCode(code), from),
    ascii: (start, end) => line.slice(start, end),
  };
}

function ofBytes(bytes: Uint8Array): Scanned {
  return {
    length: bytes.length,
    code: (i) => bytes[i] as number,
    find: (code, from) => bytes.indexOf(code, from),
    ascii(start, end) {
      let s = '';
      for (let i = start; i < end; i++) {
        const b = bytes[i] as number;
        if (b >= 0x80) return null;
        s += String.fromCharCode(b);
      }
      return s;
    },
  };
}

/** The record's top-level `type` when the line is one of `cheapSkipTypes`, else null (then parse the line). */
export function cheapSkipType(line: string): string | null {
  if (!line.includes('"type":"progress"') && !line.includes('"type": "progress"')) return null;
  return skipTypeOf(ofText(line));
}

/**
 * The same, from the line's UTF-8 bytes (no newline), for a caller that has not decoded it yet: a line skipped
 * so is never decoded. Values longer than any skipped type are not read.
 */
export function cheapSkipTypeOfBytes(bytes: Uint8Array): string | null {
  return skipTypeOf(ofBytes(bytes));
}

function skipTypeOf(line: Scanned): string | null {
  const type = topLevelTypeOf(line);
  return type !== null && cheapSkipTypes.has(type) ? type : null;
}

const QUOTE = 0x22;
const TYPE_KEY = '"type"';

/**
 * The value of the top-level `"type"` key when it is a plain string (no escapes, at most MAX_TYPE_CHARS), else
 * null. Linear in the position of that key; a line that is not a JSON object gives null.
 */
function topLevelTypeOf(line: Scanned): string | null {
  let i = line.find(0x7b /* { */, 0);
  if (i < 0) return null;
  let depth = 0;
  let expectKey = false;
  for (; i < line.length; i++) {
    const c = line.code(i);
    if (c === QUOTE) {
      const end = stringEnd(line, i);
      if (end < 0) return null;
      if (
        depth === 1 &&
        expectKey &&
        end - i === TYPE_KEY.length - 1 &&
        line.ascii(i, end + 1) === TYPE_KEY
      ) {
        return valueAfterKey(line, end + 1);
      }
      i = end;
      expectKey = false;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      if (depth === 0) return null;
    } else if (c === 0x2c /* , */) {
      if (depth === 1) expectKey = true;
    }
  }
  return null;
}

/** Index of the quote closing the string that opens at `start`, or -1. */
function stringEnd(line: Scanned, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = line.find(QUOTE, i);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; k > start && line.code(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    i = q + 1;
  }
}

/** The longest value worth reading: every skipped type is shorter. */
const MAX_TYPE_CHARS = 64;

function valueAfterKey(line: Scanned, from: number): string | null {
  let i = from;
  for (let c = line.code(i); i < line.length && (c === 0x20 || c === 0x3a); c = line.code(++i));
  if (i >= line.length || line.code(i) !== QUOTE) return null;
  const end = stringEnd(line, i);
  if (end < 0 || end - i - 1 > MAX_TYPE_CHARS) return null;
  const value = line.ascii(i + 1, end);
  return value === null || value.includes('\\') ? null : value;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;

/** True when the line holds only white space (without copying it, as `trim` would). */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (!isSpace(line.charCodeAt(i))) return false;
  return true;
}

/** True when the last character that is not white space is `}`: the line may be a whole object. */
export function endsLikeObject(line: string | Uint8Array): boolean {
  const scanned = typeof line === 'string' ? ofText(line) : ofBytes(line);
  for (let i = scanned.length - 1; i >= 0; i--) {
    const c = scanned.code(i);
    if (!isSpace(c)) return c === 0x7d;
  }
  return false;
}
