/**
 * A bash tokenizer for command lines agents write: words with quote removal, operators, redirections with their
 * fd, and here-document bodies. One pass, linear in the input, no regular expressions over the input, never
 * throws: an unterminated quote or here-document takes the rest of the input and says so in `problems`.
 *
 * Not a full bash parser (see README "Shell parsing"): expansions (`$x`, `$(…)`, backticks, globs) are kept as
 * written inside the word's value and flagged, never evaluated.
 */
import { readWord } from './lex-word';

export interface Word {
  readonly kind: 'word';
  /** The value after quote removal; expansions stay as written (`$HOME`, `$(pwd)`). */
  readonly value: string;
  /** The source text of the word. */
  readonly raw: string;
  readonly start: number;
  readonly end: number;
  /** Some part was quoted (so `EOF` vs `'EOF'`, and `NAME=` vs `"NAME"=`, can be told apart). */
  readonly quoted: boolean;
  /** Contains an expansion outside single quotes: `$…`, `${…}`, `$(…)` or a backquote. */
  readonly expands: boolean;
  /** Contains an unquoted glob character (`*`, `?`, `[`). */
  readonly glob: boolean;
}

export type ControlOp = '&&' | '||' | ';' | ';;' | '&' | '|' | '|&' | '\n' | '(' | ')';
export type RedirectOp = '>' | '>>' | '>|' | '<' | '<>' | '>&' | '<&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

export interface Operator {
  readonly kind: 'op';
  readonly op: ControlOp;
  readonly start: number;
  readonly end: number;
}

export interface Redirect {
  readonly kind: 'redirect';
  readonly op: RedirectOp;
  /** The explicit fd (`2>`), else null (the default: 1 for output, 0 for input). */
  readonly fd: number | null;
  readonly start: number;
  end: number;
  /** The target word (for a here-document: the delimiter word). Filled in by the lexer. */
  target: Word | null;
  /** A here-document's body, and whether its delimiter was quoted (then the body is literal). */
  heredoc: { body: string; quotedDelimiter: boolean; terminated: boolean } | null;
}

export type Token = Word | Operator | Redirect;

export interface LexResult {
  readonly tokens: readonly Token[];
  readonly problems: readonly string[];
}

export const blank = (c: string) => c === ' ' || c === '\t' || c === '\r';
export const meta = (c: string) =>
  c === '|' || c === '&' || c === ';' || c === '(' || c === ')' || c === '<' || c === '>';
const isDigits = (s: string) => s.length > 0 && s.length < 4 && /^[0-9]+$/.test(s);

/** Tokenize `src`. */
export function lex(src: string): LexResult {
  const tokens: Token[] = [];
  const problems: string[] = [];
  const pending: { redirect: Redirect; delimiter: string; stripTabs: boolean }[] = [];
  let i = 0;
  const n = src.length;
  let expectDelimiter: Redirect | null = null;
  let expectTarget: Redirect | null = null;

  const readHeredocs = () => {
    for (const p of pending) {
      let body = '';
      let terminated = false;
      while (i < n) {
        let eol = src.indexOf('\n', i);
        if (eol < 0) eol = n;
        let line = src.slice(i, eol);
        if (line.endsWith('\r')) line = line.slice(0, -1);
        i = Math.min(n, eol + 1);
        const compared = p.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === p.delimiter) {
          terminated = true;
          break;
        }
        body += (p.stripTabs ? compared : line) + '\n';
      }
      if (!terminated) problems.push(`Here-document "${p.delimiter}" is not terminated.`);
      p.redirect.heredoc = {
        body,
        quotedDelimiter: p.redirect.heredoc?.quotedDelimiter ?? false,
        terminated,
      };
    }
    pending.length = 0;
  };

  while (i < n) {
    const c = src[i] as string;
    if (blank(c)) {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '\n') {
      expectDelimiter = null;
      expectTarget = null;
      tokens.push({ kind: 'op', op: '\n', start: i, end: i + 1 });
      i++;
      if (pending.length > 0) readHeredocs();
      continue;
    }
    if (c === '#') {
      const eol = src.indexOf('\n', i);
      i = eol < 0 ? n : eol;
      continue;
    }
    if (meta(c) && !((c === '<' || c === '>') && src[i + 1] === '(')) {
      const redirect = readRedirectOp(src, i, null);
      if (redirect) {
        tokens.push(redirect);
        i = redirect.end;
        if (redirect.op === '<<' || redirect.op === '<<-') expectDelimiter = redirect;
        else expectTarget = redirect;
        continue;
      }
      const op = readControlOp(src, i);
      expectDelimiter = null;
      expectTarget = null;
      tokens.push({ kind: 'op', op, start: i, end: i + op.length });
      i += op.length;
      continue;
    }
    const word = readWord(src, i, problems);
    i = word.end;
    if (isDigits(word.raw) && (src[i] === '>' || src[i] === '<')) {
      const redirect = readRedirectOp(src, i, Number(word.raw));
      if (redirect) {
        tokens.push(redirect);
        i = redirect.end;
        if (redirect.op === '<<' || redirect.op === '<<-') expectDelimiter = redirect;
        else expectTarget = redirect;
        continue;
      }
    }
    if (expectDelimiter) {
      expectDelimiter.target = word;
      expectDelimiter.end = word.end;
      expectDelimiter.heredoc = { body: '', quotedDelimiter: word.quoted, terminated: false };
      pending.push({
        redirect: expectDelimiter,
        delimiter: word.value,
        stripTabs: expectDelimiter.op === '<<-',
      });
      expectDelimiter = null;
      continue;
    }
    if (expectTarget) {
      expectTarget.target = word;
      expectTarget.end = word.end;
      expectTarget = null;
      continue;
    }
    tokens.push(word);
  }
  if (pending.length > 0) readHeredocs();
  return { tokens, problems };
}

function readControlOp(src: string, i: number): ControlOp {
  const c = src[i];
  const d = src[i + 1];
  if (c === '&' && d === '&') return '&&';
  if (c === '|' && d === '|') return '||';
  if (c === '|' && d === '&') return '|&';
  if (c === ';' && d === ';') return ';;';
  if (c === '(' || c === ')' || c === '|' || c === '&' || c === ';') return c;
  return ';';
}

function readRedirectOp(src: string, i: number, fd: number | null): Redirect | null {
  const three = src.slice(i, i + 3);
  const two = src.slice(i, i + 2);
  let op: RedirectOp | null = null;
  if (three === '<<<' || three === '<<-' || three === '&>>') op = three;
  else if (two === '>>' || two === '>|' || two === '>&' || two === '<&' || two === '<>' || two === '<<')
    op = two;
  else if (two === '&>') op = '&>';
  else if (src[i] === '>' || src[i] === '<') op = src[i] as '>' | '<';
  if (!op) return null;
  // `<(…)` and `>(…)` are process substitutions, read as words.
  if ((op === '<' || op === '>') && src[i + 1] === '(') return null;
  return { kind: 'redirect', op, fd, start: i, end: i + op.length, target: null, heredoc: null };
}
