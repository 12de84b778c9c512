/**
 * What a command line names is not always a file it changed. Three readings keep command-line words out of the
 * files changed:
 * - a word the shell expands (`$f`, `*.pyc`, `$(ls)`) names no file here: its effect is a `bulk` one — files
 *   matching it may have changed, which ones is not known (`sed -i … $f` in a loop, `rm *.pyc`);
 * - a file the output says was not there did not change: `sed: can't read the: No such file or directory` — the
 *   shell split an unquoted script into words and sed took them as files —, `rm: cannot remove 'x'`, `cp: cannot
 *   stat 'x'`, `touch: cannot touch 'x'`, perl's `Can't open x`, git's `pathspec 'x' did not match`, a redirection
 *   into a missing directory;
 * - a line the shell refused (an unclosed quote, and the shell's syntax error in the output) ran nothing;
 * - a patch apply_patch refused (`apply_patch verification failed: …`) changed no file.
 */
import type { FileEffect } from '../effect-types';
import { outputLines } from '../output';
import { patchRefusal } from './apply-patch';
import type { ShellUnit } from '../shell/units';

/**
 * A glob's or expansion's directory: the part of the path before its first segment that the shell rewrites (the
 * directory the command ran in when that is the first).
 */
function fixedDirectory(path: string, at: (p: string) => string): string {
  const parts = path.split('/');
  const k = parts.findIndex((p) => /[$*?[`]/.test(p));
  const fixed = parts.slice(0, Math.max(k, 0)).join('/');
  return fixed === '' ? (path.startsWith('/') ? '/' : at('.')) : fixed;
}

/**
 * The unit's effects on paths it names through words the shell expands, as `bulk` effects on the directory the
 * words lie in (`scope: 'matched'`).
 */
export function unnamedToBulk(
  unit: ShellUnit,
  effects: FileEffect[],
  at: (p: string) => string,
): FileEffect[] {
  const unnamed = new Set<string>();
  for (const w of unit.words) if (w.expands || w.glob) unnamed.add(at(w.value));
  for (const r of unit.command.redirects) if (r.target?.expands) unnamed.add(at(r.target.value));
  if (unnamed.size === 0) return effects;
  return effects.map((e): FileEffect => {
    const from = e.kind === 'move' || e.kind === 'copy' || e.kind === 'edit' ? e.from : undefined;
    const word = unnamed.has(e.path) ? e.path : from !== undefined && unnamed.has(from) ? from : null;
    if (word === null || e.kind === 'bulk' || e.kind === 'mkdir' || e.kind === 'shown') return e;
    const how = `${e.via} ${word}`;
    return {
      kind: 'bulk',
      path: fixedDirectory(word, at),
      via: e.via,
      change: e.change,
      scope: 'matched',
      how,
    };
  });
}

const missing: readonly RegExp[] = [
  /^g?sed: can't read (.+): No such file or directory$/,
  /^(?:rm|mv|cp|touch|chmod|ln|truncate): cannot (?:remove|stat|touch|access|open) ['‘](.+)['’]: No such file or directory$/,
  /^Can't open (?:perl script )?"?(.+?)"?: No such file or directory\.?$/,
  /^error: pathspec '(.+)' did not match any file\(s\) known to git\.?$/,
  /^(?:\/bin\/)?(?:ba|da|z)?sh: (?:line \d+: |\d+: )?(?:cannot create )?(.+?): (?:No such file or directory|Directory nonexistent)$/,
];
const refused = /unexpected EOF while looking for matching|Syntax error: Unterminated quoted string/;

/** The names the output says were not there (as the commands printed them), at most the first 2,000 lines'. */
function missingNames(output: string): Set<string> {
  const names = new Set<string>();
  if (
    !output.includes('No such file') &&
    !output.includes('did not match') &&
    !output.includes('nonexistent')
  )
    return names;
  for (const line of outputLines(output).slice(0, 2000)) {
    for (const re of missing) {
      const m = re.exec(line);
      if (m) names.add((m[1] as string).replace(/^\.\//, ''));
    }
  }
  return names;
}

const namedBy = (path: string, names: ReadonlySet<string>) => {
  if (names.has(path)) return true;
  for (const name of names) if (path.endsWith(`/${name}`)) return true;
  return false;
};

/**
 * The call's effects without those its output says did not happen: every one when the shell refused the line
 * (`problems` has an unclosed quote and the output the shell's syntax error), else those on files it says were
 * not there. Evidence (`shown`) and `bulk` effects are kept.
 */
export function withoutNotDone(
  effects: readonly FileEffect[],
  output: string,
  problems: readonly string[],
): { effects: FileEffect[]; notes: string[] } {
  if (effects.length === 0) return { effects: [], notes: [] };
  const unclosed = problems.some((p) => / quote is not closed/.test(p));
  if (unclosed && refused.test(output))
    return {
      effects: effects.filter((e) => e.kind === 'shown'),
      notes: ['The shell refused the command line (a quote is not closed): none of its commands ran.'],
    };
  const refusal = patchRefusal(output, true);
  if (refusal !== null && effects.some((e) => e.via === 'apply_patch' || e.via === 'applypatch'))
    return {
      effects: effects.filter((e) => e.via !== 'apply_patch' && e.via !== 'applypatch'),
      notes: [`The patch was not applied: ${refusal}`],
    };
  const names = missingNames(output);
  if (names.size === 0) return { effects: [...effects], notes: [] };
  const kept = effects.filter((e) => {
    if (e.kind === 'shown' || e.kind === 'bulk') return true;
    const from = e.kind === 'move' || e.kind === 'copy' || e.kind === 'edit' ? e.from : undefined;
    return !namedBy(e.path, names) && (from === undefined || !namedBy(from, names));
  });
  const dropped = effects.length - kept.length;
  return {
    effects: kept,
    notes:
      dropped > 0
        ? [`${dropped} file${dropped === 1 ? '' : 's'} the output says did not exist: not changed.`]
        : [],
  };
}
