/**
 * `sed` as agents use it: the options (`-i`, `-i.bak`, BSD's `-i ''`, `-e`, `-E`, `-n`, `-f`), the script, the
 * files. A script is replayable when every command is an address-less `s` with a literal pattern (after
 * unescaping; `^`/`$` anchors allowed) and a literal replacement (`&` expanded) with flags `g` or a number —
 * replaying it is then plain string search, linear and exact. Anything else (regular expressions, addresses,
 * `d`, `I`, `p`, `w`) is recorded as written and not replayed: a JavaScript regex would neither match sed's
 * dialects exactly nor be safe from catastrophic backtracking.
 */
import type { SedSubstitution } from '../effect-types';

export interface SedCall {
  readonly inPlace: boolean;
  readonly scripts: readonly string[];
  /** The script came from a file (`-f`): not visible here. */
  readonly scriptFile: boolean;
  readonly extended: boolean;
  readonly quiet: boolean;
  readonly files: readonly string[];
}

export function parseSedArgs(args: readonly string[]): SedCall {
  let inPlace = false;
  let scriptFile = false;
  let extended = false;
  let quiet = false;
  const scripts: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (a === '-i' || a === '--in-place') {
      inPlace = true;
      const next = args[i + 1];
      if (next !== undefined && (next === '' || /^\.[A-Za-z0-9_~.-]{0,10}$/.test(next))) i++;
    } else if (a.startsWith('--in-place=') || /^-i[^-]/.test(a) || /^-[nEersuz]+i/.test(a)) {
      // `-i.bak`, `-ie` (suffix `e`); or `-Ei`, `-ni`: flags, then -i with the rest as its suffix.
      inPlace = true;
      const flags = /^-([nEersuz]*)i/.exec(a)?.[1] ?? '';
      if (flags.includes('n')) quiet = true;
      if (flags.includes('E') || flags.includes('r')) extended = true;
    } else if (a === '-e' || a === '--expression') scripts.push(args[++i] ?? '');
    else if (a.startsWith('--expression=')) scripts.push(a.slice('--expression='.length));
    else if (a === '-f' || a === '--file') {
      scriptFile = true;
      i++;
    } else if (a === '-E' || a === '-r' || a === '--regexp-extended') extended = true;
    else if (a === '-n' || a === '--quiet' || a === '--silent') quiet = true;
    else if (a === '-l' || a === '--line-length') i++;
    else if (/^-[nEersuz]+$/.test(a)) {
      if (a.includes('n')) quiet = true;
      if (a.includes('E') || a.includes('r')) extended = true;
      if (a.includes('e')) scripts.push(args[++i] ?? '');
    } else if (a.startsWith('-') && a.length > 1) continue;
    else positional.push(a);
  }
  if (scripts.length === 0 && !scriptFile && positional.length > 0)
    scripts.push(positional.shift() as string);
  return { inPlace, scripts, scriptFile, extended, quiet, files: positional };
}

const breSpecial = '.*[]\\';
const ereSpecial = '.*[]\\+?(){}|';

/** The script's substitutions when every command is a literal `s///`; null otherwise. */
export function literalSubstitutions(script: string, extended: boolean): SedSubstitution[] | null {
  const subs: SedSubstitution[] = [];
  let i = 0;
  const n = script.length;
  while (i < n) {
    const c = script[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === ';') {
      i++;
      continue;
    }
    if (c !== 's') return null;
    const delim = script[i + 1];
    if (delim === undefined || delim === '\\' || delim === '\n' || delim === ' ') return null;
    const pattern = readPart(script, i + 2, delim);
    if (!pattern) return null;
    const replacement = readPart(script, pattern.end, delim);
    if (!replacement) return null;
    let j = replacement.end;
    let global = false;
    let occurrence = 1;
    while (j < n && script[j] !== ';' && script[j] !== '\n') {
      const f = script[j] as string;
      if (f === 'g') global = true;
      else if (f >= '1' && f <= '9') {
        const digits = /^\d{1,4}/.exec(script.slice(j))?.[0] ?? '1';
        occurrence = Number(digits);
        j += digits.length - 1;
      } else if (f !== ' ' && f !== '\t') return null;
      j++;
    }
    const sub = literalPair(pattern.text, replacement.text, delim, extended);
    if (!sub) return null;
    subs.push({ ...sub, global, occurrence });
    i = j;
  }
  return subs.length > 0 ? subs : null;
}

/** The text up to the next unescaped `delim` (escapes kept), and the index after it. */
function readPart(script: string, from: number, delim: string): { text: string; end: number } | null {
  let j = from;
  while (j < script.length) {
    const c = script[j];
    if (c === '\\') j += 2;
    else if (c === delim) return { text: script.slice(from, j), end: j + 1 };
    else if (c === '\n') return null;
    else j++;
  }
  return null;
}

function literalPair(pattern: string, replacement: string, delim: string, extended: boolean) {
  let p = pattern;
  const atLineStart = p.startsWith('^');
  if (atLineStart) p = p.slice(1);
  const atLineEnd = p.endsWith('$') && !p.endsWith('\\$');
  if (atLineEnd) p = p.slice(0, -1);
  const special = extended ? ereSpecial : breSpecial;
  let find = '';
  for (let k = 0; k < p.length; k++) {
    const c = p[k] as string;
    if (c === '\\') {
      const d = p[k + 1];
      if (d === undefined) return null;
      if (d === delim || d === '/' || special.includes(d) || d === '^' || d === '$') find += d;
      else if (d === 't') find += '\t';
      else return null;
      k++;
    } else if (special.includes(c) || c === '^' || c === '$') return null;
    else find += c;
  }
  if (find === '' && !atLineStart && !atLineEnd) return null;
  let replace = '';
  for (let k = 0; k < replacement.length; k++) {
    const c = replacement[k] as string;
    if (c === '&') replace += find;
    else if (c === '\\') {
      const d = replacement[k + 1];
      if (d === undefined) return null;
      if (d === 'n') replace += '\n';
      else if (d === 't') replace += '\t';
      else if (/[0-9LlUuEe]/.test(d)) return null;
      else replace += d;
      k++;
    } else replace += c;
  }
  return { find, replace, atLineStart, atLineEnd };
}

/** Replay literal substitutions, line by line as sed does (a body's final newline is not a line). */
export function replaySed(body: string, subs: readonly SedSubstitution[]): string {
  const lines = body.split('\n');
  const last = lines.length - 1;
  for (let k = 0; k <= last; k++) {
    if (k === last && lines[k] === '' && last > 0) break;
    let line = lines[k] as string;
    for (const sub of subs) line = substitute(line, sub);
    lines[k] = line;
  }
  return lines.join('\n');
}

function substitute(line: string, sub: SedSubstitution): string {
  if (sub.atLineStart && sub.atLineEnd) return line === sub.find && sub.occurrence === 1 ? sub.replace : line;
  if (sub.atLineStart)
    return sub.occurrence === 1 && line.startsWith(sub.find)
      ? sub.replace + line.slice(sub.find.length)
      : line;
  if (sub.atLineEnd) {
    return sub.occurrence === 1 && line.endsWith(sub.find)
      ? line.slice(0, line.length - sub.find.length) + sub.replace
      : line;
  }
  let out = '';
  let from = 0;
  let count = 0;
  for (;;) {
    const at = line.indexOf(sub.find, from);
    if (at < 0) break;
    count++;
    const hit = count === sub.occurrence || (sub.global && count > sub.occurrence);
    out += line.slice(from, at) + (hit ? sub.replace : sub.find);
    from = at + sub.find.length;
    if (!sub.global && count >= sub.occurrence) break;
  }
  return out + line.slice(from);
}
