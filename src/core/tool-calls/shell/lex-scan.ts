/**
 * The lexer's scanners for what it keeps verbatim: `$name`, `${…}`, `$(…)`, `$((…))`, backquotes, and the
 * decoding of `$'…'`. Each is one forward pass (nesting counted, quotes skipped), so a word costs its length.
 */

const nameChar = (c: string | undefined) =>
  c !== undefined &&
  ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_');

/** The end of the expansion whose `$` is just before `i` (`i` itself when a lone `$`). */
export function scanDollar(src: string, i: number): number {
  const c = src[i];
  if (c === '(') return scanBalanced(src, i, '(', ')');
  if (c === '{') return scanBalanced(src, i, '{', '}');
  if (c !== undefined && '?$!#@*-0123456789'.includes(c)) return i + 1;
  let j = i;
  while (nameChar(src[j])) j++;
  return j;
}

/** From an opening bracket at `i`: the index just past its match, quotes and escapes skipped; or the end. */
function scanBalanced(src: string, i: number, open: string, close: string): number {
  const n = src.length;
  let depth = 0;
  let j = i;
  while (j < n) {
    const c = src[j];
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === "'") {
      const q = src.indexOf("'", j + 1);
      j = q < 0 ? n : q + 1;
      continue;
    }
    if (c === '"') {
      j = skipDoubleQuoted(src, j + 1);
      continue;
    }
    if (c === '`') {
      j = scanBackquote(src, j + 1);
      continue;
    }
    if (c === open) depth++;
    else if (c === close) {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return n;
}

function skipDoubleQuoted(src: string, j: number): number {
  const n = src.length;
  while (j < n) {
    const c = src[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j + 1;
    else j++;
  }
  return n;
}

/** From just after an opening backquote: the index past the closing one (or the end). */
export function scanBackquote(src: string, i: number): number {
  const n = src.length;
  let j = i;
  while (j < n) {
    const c = src[j];
    if (c === '\\') j += 2;
    else if (c === '`') return j + 1;
    else j++;
  }
  return n;
}

const ansiEscapes: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decode `$'…'` from just after the opening quote: C escapes, `\xHH`, octal `\NNN`. */
export function readAnsiQuoted(src: string, i: number): { value: string; end: number } {
  const n = src.length;
  let value = '';
  let j = i;
  while (j < n) {
    const c = src[j] as string;
    if (c === "'") return { value, end: j + 1 };
    if (c !== '\\') {
      value += c;
      j++;
      continue;
    }
    const d = src[j + 1] ?? '';
    const simple = Object.hasOwn(ansiEscapes, d) ? ansiEscapes[d] : undefined;
    if (simple !== undefined) {
      value += simple;
      j += 2;
    } else if (d === 'x' && /^[0-9a-fA-F]{1,2}/.test(src.slice(j + 2, j + 4))) {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(src.slice(j + 2, j + 4))?.[0] ?? '';
      value += String.fromCharCode(parseInt(hex, 16));
      j += 2 + hex.length;
    } else if (d >= '0' && d <= '7') {
      const oct = /^[0-7]{1,3}/.exec(src.slice(j + 1, j + 4))?.[0] ?? '0';
      value += String.fromCharCode(parseInt(oct, 8) & 0xff);
      j += 1 + oct.length;
    } else {
      value += c + d;
      j += 2;
    }
  }
  return { value, end: n };
}
