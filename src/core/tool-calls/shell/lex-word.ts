/**
 * One word of a command line: quotes removed (`'…'`, `"…"` with its four escapes, `$'…'` decoded, backslashes),
 * expansions kept as written and flagged, unquoted glob characters flagged. One forward pass.
 */
import { blank, meta, type Word } from './lex';
import { readAnsiQuoted, scanBackquote, scanDollar } from './lex-scan';

/** ASCII characters that end a word or need a look (blanks, operators, quotes, escapes, expansions, globs). */
const special = new Uint8Array(128);
for (const c of ' \t\r\n|&;()<>\\\'"$`*?[') special[c.charCodeAt(0)] = 1;

/** The end of the run of ordinary characters from `i`: each is taken as it is. */
function plainRun(src: string, i: number, n: number): number {
  let j = i;
  for (; j < n; j++) {
    const code = src.charCodeAt(j);
    if (code < 128 && special[code] === 1) break;
  }
  return j;
}

/** One word from `start` (not blank, not an operator): quotes removed, expansions kept verbatim. */
export function readWord(src: string, start: number, problems: string[]): Word {
  const n = src.length;
  let i = start;
  let value = '';
  let quoted = false;
  let expands = false;
  let glob = false;
  while (i < n) {
    const run = plainRun(src, i, n);
    if (run > i) {
      value += src.slice(i, run);
      i = run;
      continue;
    }
    const c = src[i] as string;
    if (blank(c) || c === '\n') break;
    if (meta(c)) {
      if ((c === '<' || c === '>') && src[i + 1] === '(') {
        const end = scanDollar(src, i + 1);
        value += src.slice(i, end);
        expands = true;
        i = end;
        continue;
      }
      break;
    }
    if (c === '\\') {
      if (src[i + 1] === '\n') i += 2;
      else {
        value += src[i + 1] ?? '';
        quoted = true;
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      const close = src.indexOf("'", i + 1);
      const end = close < 0 ? n : close;
      if (close < 0) problems.push('A single quote is not closed.');
      value += src.slice(i + 1, end);
      quoted = true;
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (c === '$' && src[i + 1] === "'") {
      const read = readAnsiQuoted(src, i + 2);
      value += read.value;
      quoted = true;
      i = read.end;
      continue;
    }
    if (c === '"') {
      const read = readDoubleQuoted(src, i + 1);
      if (!read.closed) problems.push('A double quote is not closed.');
      value += read.value;
      expands ||= read.expands;
      quoted = true;
      i = read.end;
      continue;
    }
    if (c === '$' || c === '`') {
      const end = c === '$' ? scanDollar(src, i + 1) : scanBackquote(src, i + 1);
      value += src.slice(i, end);
      expands = true;
      i = end;
      continue;
    }
    if (c === '*' || c === '?' || c === '[') glob = true;
    value += c;
    i++;
  }
  return { kind: 'word', value, raw: src.slice(start, i), start, end: i, quoted, expands, glob };
}

/** `"`, `\\`, `$` and a backquote: what ends or changes the text inside double quotes. */
const inDoubleQuotesSpecial = (code: number) =>
  code === 0x22 || code === 0x5c || code === 0x24 || code === 0x60;

function readDoubleQuoted(src: string, from: number) {
  const n = src.length;
  let i = from;
  let value = '';
  let expands = false;
  while (i < n) {
    let run = i;
    while (run < n && !inDoubleQuotesSpecial(src.charCodeAt(run))) run++;
    if (run > i) {
      value += src.slice(i, run);
      i = run;
      continue;
    }
    const c = src[i] as string;
    if (c === '"') return { value, expands, end: i + 1, closed: true };
    if (c === '\\') {
      const d = src[i + 1];
      if (d === '\n') i += 2;
      else if (d === '"' || d === '\\' || d === '$' || d === '`') {
        value += d;
        i += 2;
      } else {
        value += c;
        i++;
      }
      continue;
    }
    if (c === '$' || c === '`') {
      const end = c === '$' ? scanDollar(src, i + 1) : scanBackquote(src, i + 1);
      if (end > i + 1) expands = true;
      value += src.slice(i, end);
      i = end;
      continue;
    }
    value += c;
    i++;
  }
  return { value, expands, end: n, closed: false };
}
