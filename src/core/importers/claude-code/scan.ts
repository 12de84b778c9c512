/**
 * The cheap skip: a Claude Code line's top-level `type` read without JSON.parse. `progress` records can be 99 % of
 * a multi-GB file (anthropics/claude-code#18905) and are never needed, so they are recognised by a native
 * substring search and then a scan of the line's top level (strings stepped over, nested values skipped by depth)
 * up to its `type` key — no allocation but the value. Nested objects also have `type` keys: only depth 1 counts.
 */

/** Record types skipped without a parse. */
export const cheapSkipTypes: ReadonlySet<string> = new Set(['progress']);

/** The record's top-level `type` when the line is one of `cheapSkipTypes`, else null (then parse the line). */
export function cheapSkipType(line: string): string | null {
  if (!line.includes('"type":"progress"') && !line.includes('"type": "progress"')) return null;
  const type = topLevelType(line);
  return type !== null && cheapSkipTypes.has(type) ? type : null;
}

/**
 * The value of the top-level `"type"` key when it is a plain string (no escapes), else null. Linear in the
 * position of that key; a line that is not a JSON object gives null.
 */
export function topLevelType(line: string): string | null {
  let i = line.indexOf('{');
  if (i < 0) return null;
  let depth = 0;
  let expectKey = false;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(line, i);
      if (end < 0) return null;
      if (depth === 1 && expectKey && end - i === 5 && line.startsWith('"type"', i)) {
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
function stringEnd(line: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = line.indexOf('"', i);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; k > start && line.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    i = q + 1;
  }
}

function valueAfterKey(line: string, from: number): string | null {
  let i = from;
  while (i < line.length && (line[i] === ' ' || line[i] === ':')) i++;
  if (line[i] !== '"') return null;
  const end = stringEnd(line, i);
  if (end < 0) return null;
  const value = line.slice(i + 1, end);
  return value.includes('\\') ? null : value;
}

/** True when the line holds only white space (without copying it, as `trim` would). */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return false;
  }
  return true;
}

/** True when the last character that is not white space is `}`: the line may be a whole object. */
export function endsLikeObject(line: string): boolean {
  for (let i = line.length - 1; i >= 0; i--) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) return c === 0x7d;
  }
  return false;
}
