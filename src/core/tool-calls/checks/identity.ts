/**
 * A check's identity: runner + the arguments that choose what runs, without the flags that only change how the
 * output looks or how fast it stops (`-q`, `-v`, `-x`, `--tb=short`, `-s`, `--color`). Unknown flags are kept:
 * a flag this table does not know might change what runs, and two spellings that differ only in it stay two
 * checks rather than one wrong one.
 */

export interface FlagRules {
  /** Flags without a value to drop. */
  readonly drop?: readonly string[];
  /** Flags with a value to drop, written `--tb short` or `--tb=short` (`-n4` for one-letter ones too). */
  readonly dropValued?: readonly string[];
  /** One-letter flags that may be bundled (`-xq`): a bundle made only of these is dropped. */
  readonly dropLetters?: string;
  /** Flags among `dropValued` whose value is taken only when it is a number or `auto` (`-j`, `-n auto`). */
  readonly numeric?: readonly string[];
  /** Kept flags that take a value, so the value is not read as a target. */
  readonly keepValued?: readonly string[];
  /** Keep targets as written (go: `./pkg/...` and `pkg/...` are different packages). */
  readonly rawTargets?: boolean;
  /** Rules for the arguments after `--` (cargo's test-binary flags, npm's script arguments). */
  readonly afterDashDash?: FlagRules;
}

/** A flag list written as one space-separated string (tables stay readable, one line per rule). */
export const flags = (list: string): readonly string[] => list.split(' ');

const colour = ['--color', '--colors', '--no-color', '--no-colors', '--colour', '--no-colour', '--no-colour'];
const colourValued = ['--color', '--colour'];

export interface Normalised {
  /** The arguments kept in the identity, in order (values glued to their flag as written: `-k x`). */
  readonly kept: readonly string[];
  /** The positional arguments among them: test files, packages, labels. */
  readonly targets: readonly string[];
}

/** Normalise `args` by `rules`. */
export function normaliseArgs(args: readonly string[], rules: FlagRules): Normalised {
  const kept: string[] = [];
  const targets: string[] = [];
  const drop = new Set([...(rules.drop ?? []), ...colour]);
  const dropValued = new Set([...(rules.dropValued ?? []), ...colourValued]);
  const keepValued = new Set(rules.keepValued ?? []);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      const rest = normaliseArgs(args.slice(i + 1), rules.afterDashDash ?? rules);
      if (rest.kept.length > 0) kept.push('--', ...rest.kept);
      targets.push(...rest.targets);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      const target = rules.rawTargets ? arg : cleanTarget(arg);
      kept.push(target);
      targets.push(target);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (drop.has(arg) || (eq > 0 && dropValued.has(name))) {
      if (args[i + 1] === 'true' || args[i + 1] === 'false') i++;
      continue;
    }
    if (dropValued.has(arg)) {
      const next = args[i + 1];
      const numericOnly = rules.numeric?.includes(arg) ?? false;
      if (next !== undefined && !next.startsWith('-') && (!numericOnly || /^(\d+|auto|logical)$/.test(next)))
        i++;
      continue;
    }
    if (isShortWithValue(arg, dropValued)) continue;
    if (rules.dropLetters && isBundle(arg, rules.dropLetters)) continue;
    if (keepValued.has(arg) && i + 1 < args.length) {
      kept.push(arg, args[i + 1] as string);
      i++;
      continue;
    }
    kept.push(arg);
  }
  return { kept, targets };
}

/** `-n4` when `-n` takes a value. */
function isShortWithValue(arg: string, valued: ReadonlySet<string>): boolean {
  return arg.length > 2 && arg[1] !== '-' && valued.has(arg.slice(0, 2));
}

function isBundle(arg: string, letters: string): boolean {
  if (arg.length < 2 || arg[1] === '-') return false;
  for (let k = 1; k < arg.length; k++) if (!letters.includes(arg[k] as string)) return false;
  return true;
}

/** `./tests/x.py` → `tests/x.py`; a trailing `/` dropped (not from `/` or `./`). */
export function cleanTarget(arg: string): string {
  let t = arg;
  while (t.startsWith('./') && t.length > 2) t = t.slice(2);
  if (t.length > 1 && t.endsWith('/')) t = t.slice(0, -1);
  return t;
}

const safeWord = /^[A-Za-z0-9_@%+=:,./\-[\]*?^~]+$/;

/** A word as it would be typed: bare when it needs no quotes, else in single quotes. */
export function shellQuote(word: string): string {
  if (word !== '' && safeWord.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `scope: runner kept…` — the check's id. */
export function checkId(scope: string | null, runner: string, kept: readonly string[]): string {
  const body = [runner, ...kept.map(shellQuote)].join(' ');
  return scope ? `${scope}: ${body}` : body;
}
