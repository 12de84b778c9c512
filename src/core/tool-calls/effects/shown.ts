/**
 * Evidence of file changes in what a call printed: a `git diff` (`--cached`, `HEAD`, paths), `git stash show -p`,
 * a file compared with its own backup (`git diff --no-index x.py.orig x.py`, `diff -u x.py.bak x.py`), `git
 * status` (long, `--short`, `--porcelain`), and a run's final submission (SWE-agent's `submit`, mini-swe-agent's
 * `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`, whose output is the final patch), and a patch file git wrote printed
 * with `cat`/`head` (`git diff > patch.txt`, then `cat patch.txt`: only files with git's `index <hash>..<hash>`
 * line count, and never `git format-patch`'s mail). Each file the output shows
 * changed becomes a `shown` effect: a change made at some earlier step — often one the command line cannot tell,
 * a script that rewrote the file — carrying this file's part of the diff when the output holds it whole.
 *
 * What is not evidence of the run's own changes: a diff of commits (`git diff HEAD~1`, `git show`, `git log -p`:
 * the repository's history), a diff sent to a file (`git diff > patch.txt`: nothing is printed), `diff a b` of two
 * files that are not a file and its backup (expected against actual output), `--stat`/`--name-only` lists.
 */
import type { FileEffect } from '../effect-types';
import { outputLines } from '../output';
import { inScope } from '../shell/scope';
import type { ShellUnit } from '../shell/units';
import { porcelainEffects, shown, statusEffects } from './shown-status';
import { splitUnifiedDiff } from './unified-diff';

/** How one command prints changes: what it is, how to read its output, what its paths are relative to. */
export interface Showing {
  /** `git diff`, `git status`, `the final submission`… */
  readonly how: string;
  readonly format: 'diff' | 'status' | 'porcelain';
  /** `top`: the repository's top directory (git diff, porcelain, a submission); `cwd`: where it ran. */
  readonly base: 'top' | 'cwd';
  readonly cwd: string | null;
  /** A file compared with its own backup: only that file's diff counts, as a change of `file`. */
  readonly against: { readonly backup: string; readonly file: string } | null;
  /** A file's text printed (`cat patch.txt`): only a diff git made counts (its `index` lines say so). */
  readonly gitMade?: true;
}

/** mini-swe-agent's submit command prints this first; the rest of the output is the final patch. */
const submitMarkers = new Set(['COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', 'MINI_SWE_AGENT_FINAL_OUTPUT']);
const devices = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
/** `x.py.orig`, `x.py.bak`, `x.py.backup2`, `x.py~`, `x.py_old`: a copy of `x.py` kept before editing it. */
const backupSuffix = /^(?:[._-](?:orig(?:inal)?|bak|backup|old|save|saved|prev|before)\d*|~)$/i;
const looksLikePath = (word: string) =>
  word === '.' || word.includes('/') || /\.[A-Za-z0-9]{1,8}$/.test(word);

const showing = (
  unit: ShellUnit,
  how: string,
  format: Showing['format'],
  base: Showing['base'],
  cwd = unit.cwd,
) => ({ how, format, base, cwd, against: null }) satisfies Showing;

/** Whether the command's stdout goes to a file (then nothing it shows is in the output). */
function stdoutToFile(unit: ShellUnit): boolean {
  return unit.command.redirects.some(
    (r) =>
      ['>', '>>', '>|', '&>', '&>>'].includes(r.op) &&
      (r.fd === null || r.fd === 1) &&
      r.target !== null &&
      !devices.test(r.target.value),
  );
}

function backupPair(unit: ShellUnit, how: string, files: readonly string[]): Showing | null {
  if (files.length !== 2) return null;
  const [backup, file] = files as [string, string];
  if (!backup.startsWith(file) || !backupSuffix.test(backup.slice(file.length))) return null;
  return { how, format: 'diff', base: 'cwd', cwd: unit.cwd, against: { backup, file } };
}

function gitShowing(unit: ShellUnit, args: readonly string[]): Showing | null {
  let k = 0;
  let cwd = unit.cwd;
  while (k < args.length && (args[k] as string).startsWith('-')) {
    const a = args[k] as string;
    if (a === '-C') cwd = inScope(unit.cwd, args[k + 1] ?? '.');
    k += a === '-C' || a === '-c' ? 2 : 1;
  }
  const sub = args[k];
  const rest = args.slice(k + 1);
  const flags = rest.filter((a) => a.startsWith('-'));
  const dash = rest.indexOf('--');
  const named = (dash >= 0 ? rest.slice(0, dash) : rest).filter((a) => !a.startsWith('-'));
  if (sub === 'status') {
    if (flags.some((f) => f === '-z' || f.startsWith('--porcelain=v2') || f === '--porcelain=2')) return null;
    if (flags.some((f) => f.startsWith('--porcelain')))
      return showing(unit, 'git status', 'porcelain', 'top', cwd);
    const short = flags.some((f) => f === '--short' || /^-[a-zA-Z]*s/.test(f));
    return showing(unit, 'git status', short ? 'porcelain' : 'status', 'cwd', cwd);
  }
  if (sub === 'stash')
    return rest[0] === 'show' && flags.some((f) => f === '-p' || f === '--patch')
      ? showing(unit, 'git stash show -p', 'diff', 'top', cwd)
      : null;
  if (sub !== 'diff') return null;
  const lists = ['--stat', '--numstat', '--shortstat', '--name-only', '--name-status', '--summary', '--raw'];
  if (flags.some((f) => lists.some((l) => f === l || f.startsWith(`${l}=`)) || f === '-R')) return null;
  if (flags.includes('--no-index')) return backupPair(unit, 'git diff --no-index', named);
  // Only the working tree or the index against HEAD: a diff between commits is the repository's history.
  if (named.some((a) => a !== 'HEAD' && !looksLikePath(a))) return null;
  const cached = flags.some((f) => f === '--cached' || f === '--staged');
  return showing(unit, cached ? 'git diff --cached' : 'git diff', 'diff', 'top', cwd);
}

/** The one file `cat f` or `head [-n N | -N] f` prints, or null. */
function printedFile(name: 'cat' | 'head', args: readonly string[]): string | null {
  const files: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as string;
    if (name === 'head' && (a === '-n' || a === '-c')) k++;
    else if (name === 'head' && /^-(?:n|c)?\d+$/.test(a)) continue;
    else if (a.startsWith('-') && a !== '-')
      return null; // `cat -n` numbers the lines: not a patch any more
    else files.push(a);
  }
  return files.length === 1 && files[0] !== '-' ? (files[0] as string) : null;
}

/** How the command prints file changes, or null when it does not (or its output goes elsewhere). */
export function showingOf(unit: ShellUnit): Showing | null {
  const [name, ...args] = unit.argv;
  if (name === 'echo' && submitMarkers.has(args[0] ?? ''))
    return showing(unit, 'the final submission', 'diff', 'top');
  if (name === 'submit' && args.length === 0) return showing(unit, 'the final submission', 'diff', 'top');
  if (stdoutToFile(unit)) return null;
  if (name === 'git') return gitShowing(unit, args);
  const printed = name === 'cat' || name === 'head' ? printedFile(name, args) : null;
  if (printed !== null && !unit.pipedFrom)
    return { ...showing(unit, `the git diff in ${printed}`, 'diff', 'top'), gitMade: true };
  if (
    name === 'diff' &&
    args.some((a) => /^-[a-zA-Z]*u/.test(a) || a.startsWith('--unified') || /^-U\d*$/.test(a))
  )
    return backupPair(
      unit,
      'diff -u',
      args.filter((a, i) => !a.startsWith('-') && !/^-U$/.test(args[i - 1] ?? '')),
    );
  return null;
}

/**
 * One file's diff up to the end of its last hunk (an output goes on after it), or null when a hunk is cut short
 * (an output elided in the middle) or there is none. A created file's body comes with it when it is whole.
 */
export function wholeFileDiff(piece: string): { diff: string; added: string | null } | null {
  const lines = piece.split('\n');
  let k = lines.findIndex((l) => l.startsWith('@@'));
  if (k < 0) return null;
  const added: string[] = [];
  let noFinalNewline = false;
  let end = k;
  while (k < lines.length) {
    const header = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(lines[k] as string);
    if (!header) break;
    let old = header[1] === undefined ? 1 : Number(header[1]);
    let now = header[2] === undefined ? 1 : Number(header[2]);
    k++;
    while (old > 0 || now > 0) {
      const line = lines[k];
      if (line === undefined) return null;
      const c = line[0];
      if (c === '-') old--;
      else if (c === '+') {
        now--;
        added.push(line.slice(1));
        noFinalNewline = false;
      } else if (c === ' ' || line === '') {
        old--;
        now--;
      } else if (c !== '\\') return null;
      if (old < 0 || now < 0) return null;
      k++;
    }
    if ((lines[k] ?? '').startsWith('\\')) {
      noFinalNewline = true;
      k++;
    }
    end = k;
  }
  const body = added.join('\n') + (added.length > 0 && !noFinalNewline ? '\n' : '');
  return { diff: `${lines.slice(0, end).join('\n')}\n`, added: body };
}

const gitIndex = /^index [0-9a-f]{7,}\.\.[0-9a-f]{7,}/m;
const formatPatch = /^From [0-9a-f]{40} /;

function diffEffects(s: Showing, output: string, at: (p: string) => string): FileEffect[] {
  const out: FileEffect[] = [];
  if (s.gitMade && formatPatch.test(output)) return out; // a commit as mail: the repository's history
  for (const file of splitUnifiedDiff(output)) {
    if (s.gitMade && !gitIndex.test(file.diff)) continue;
    const whole = wholeFileDiff(file.diff);
    if (s.against) {
      const strip = (p: string | null) => (p === null ? null : p.replace(/^[ab]\//, ''));
      const names = [file.newPath, strip(file.newPath)];
      if (names.includes(s.against.file))
        out.push(shown(at(s.against.file), s.how, 'modified', whole?.diff ?? null));
      continue;
    }
    if (file.newPath === null) {
      if (file.oldPath !== null)
        out.push(shown(at(file.oldPath), s.how, 'deleted', whole?.diff ?? null, null));
      continue;
    }
    if (file.oldPath === null) {
      // A created file: its whole body is in the diff (an empty file has no hunk at all).
      const body = whole ? whole.added : file.diff.includes('\n@@') ? undefined : '';
      out.push(shown(at(file.newPath), s.how, 'created', whole?.diff ?? null, body));
      continue;
    }
    if (file.oldPath !== file.newPath) {
      out.push(shown(at(file.oldPath), s.how, 'deleted', null, null));
      out.push(shown(at(file.newPath), s.how, 'created', whole?.diff ?? null));
      continue;
    }
    out.push(shown(at(file.newPath), s.how, 'modified', whole?.diff ?? null));
  }
  return out;
}

/**
 * The `shown` effects of a call's output, for the commands of its line that print changes. Paths are resolved as
 * the printing command gives them: a diff's and porcelain's from the repository's top (the root when it is known,
 * else where the command ran), a long or short status's from where it ran. One effect per path, the first kept.
 */
export function shownEffects(
  showings: readonly Showing[],
  output: string,
  root: string | null,
): FileEffect[] {
  if (showings.length === 0 || output.trim() === '') return [];
  const effects: FileEffect[] = [];
  let lines: string[] | null = null;
  for (const s of showings) {
    const top = s.base === 'top' && root !== null ? root : s.cwd;
    const at = (p: string) => inScope(top, p);
    if (s.format === 'diff') effects.push(...diffEffects(s, output, at));
    else {
      lines ??= outputLines(output);
      effects.push(
        ...(s.format === 'status' ? statusEffects(s.how, lines, at) : porcelainEffects(s.how, lines, at)),
      );
    }
  }
  const seen = new Set<string>();
  return effects.filter((e) => !seen.has(e.path) && (seen.add(e.path), true));
}
