/**
 * What a shell command writes through redirections and `tee`, with the text when it shows: a here-document's
 * body (`cat > f <<'EOF'`), `echo` words, a plain `printf` format, nothing at all (`> f`, `: > f`). An unquoted
 * here-document delimiter means the body is expanded by the shell: with a `$`, backquote or backslash in it the
 * written text is not known, and the body is left out.
 */
import type { FileEffect } from '../effect-types';
import type { Redirect } from '../shell/lex';
import { inScope } from '../shell/scope';
import type { ShellUnit } from '../shell/units';

const devices = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** The text a here-document feeds in, or null when the shell would change it. */
export function heredocText(redirect: Redirect): string | null {
  const doc = redirect.heredoc;
  if (!doc) return null;
  if (doc.quotedDelimiter) return doc.body;
  return /[$`\\]/.test(doc.body) ? null : doc.body;
}

/** What the command prints to stdout, when it is known from the command alone. */
export function knownStdout(unit: ShellUnit): string | null {
  const [name, ...args] = unit.argv;
  const stdin = unit.command.redirects.find((r) => r.heredoc && (r.fd === null || r.fd === 0));
  const here = unit.command.redirects.find((r) => r.op === '<<<' && r.target);
  if (unit.words.some((w) => w.expands || w.glob)) return null;
  if (name === undefined) return '';
  if (
    (name === 'cat' || name === 'tee') &&
    args.every((a) => a === '-' || (name === 'tee' && !a.startsWith('-')) || a === '-a')
  ) {
    if (stdin) return heredocText(stdin);
    if (here?.target && !here.target.expands) return here.target.value + '\n';
    return null;
  }
  if (name === 'echo') {
    let k = 0;
    let newline = true;
    while (args[k] === '-n' || args[k] === '-e' || args[k] === '-E') {
      if (args[k] === '-e') return null;
      if (args[k] === '-n') newline = false;
      k++;
    }
    return args.slice(k).join(' ') + (newline ? '\n' : '');
  }
  if (name === 'printf' && args.length === 1) return printfText(args[0] as string);
  if (name === 'true' || name === ':') return '';
  return null;
}

/** A printf format with no conversions: `\n`, `\t`, `\\` and `%%` decoded; null when it has more. */
function printfText(format: string): string | null {
  let out = '';
  for (let k = 0; k < format.length; k++) {
    const c = format[k] as string;
    if (c === '%') {
      if (format[k + 1] !== '%') return null;
      out += '%';
      k++;
    } else if (c === '\\') {
      const d = format[k + 1];
      if (d === 'n') out += '\n';
      else if (d === 't') out += '\t';
      else if (d === '\\') out += '\\';
      else return null;
      k++;
    } else out += c;
  }
  return out;
}

/** Files written by `>`, `>>`, `&>`, `2>`, `>|` (devices and fd duplications excepted). */
export function redirectWrites(unit: ShellUnit): FileEffect[] {
  const effects: FileEffect[] = [];
  const stdout = unit.argv.length === 0 ? '' : undefined;
  for (const r of unit.command.redirects) {
    if (!r.target || !['>', '>>', '>|', '&>', '&>>', '>&'].includes(r.op)) continue;
    const target = r.target.value;
    if (r.op === '>&' && (/^\d+$/.test(target) || target === '-')) continue;
    if (devices.test(target) || target === '') continue;
    const path = inScope(unit.cwd, target);
    const fromStdout = r.fd === null || r.fd === 1;
    const text = r.target.expands
      ? null
      : fromStdout && r.op !== '&>' && r.op !== '&>>'
        ? (stdout ?? knownStdout(unit))
        : null;
    const via = unit.command.redirects.some((x) => x.heredoc) && text !== null ? `heredoc ${r.op}` : r.op;
    if (r.op === '>>' || r.op === '&>>') effects.push({ kind: 'append', path, via, change: null, text });
    else
      effects.push({
        kind: 'write',
        path,
        via,
        change: null,
        body: text,
        ...(text !== null ? { after: text } : {}),
      });
  }
  return effects;
}

/** `tee [-a] files…`: each file gets what tee reads. */
export function teeWrites(unit: ShellUnit): FileEffect[] {
  const [, ...args] = unit.argv;
  const append = args.includes('-a') || args.includes('--append');
  const text = unit.pipedFrom ? null : knownStdout(unit);
  return args
    .filter((a) => !a.startsWith('-'))
    .map((file): FileEffect => {
      const path = inScope(unit.cwd, file);
      return append
        ? { kind: 'append', path, via: 'tee -a', change: null, text }
        : {
            kind: 'write',
            path,
            via: 'tee',
            change: null,
            body: text,
            ...(text !== null ? { after: text } : {}),
          };
    });
}
