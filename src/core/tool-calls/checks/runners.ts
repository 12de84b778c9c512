/**
 * Which commands are checks: an argv (prefixes already stripped) → the runner, the kind of check, the summary
 * parser that reads its output, and the rules that normalise its arguments. Per ecosystem in runners-*.ts;
 * package-manager scripts (`npm test`, `pnpm lint`, `yarn typecheck`) and task runners (`make test`, `just
 * lint`) are checks when the script or target name says what it is (`kindOfName`).
 */
import type { CheckKind } from '../types';
import { flags, shellQuote, type FlagRules } from './identity';
import { recognizeJs } from './runners-js';
import { recognizeNative } from './runners-native';
import { recognizePython } from './runners-python';

/** Which summary-line parser reads the output (`any`: a wrapper whose runner is not known — try them all). */
export type SummaryFamily =
  | 'pytest'
  | 'unittest'
  | 'jest'
  | 'vitest'
  | 'mocha'
  | 'node-test'
  | 'bun'
  | 'go'
  | 'cargo'
  | 'tsc'
  | 'eslint'
  | 'prettier'
  | 'ruff'
  | 'mypy'
  | 'pyright'
  | 'gradle'
  | 'maven'
  | 'tox'
  | 'any'
  | 'none';

export interface RunnerMatch {
  /** The identity's first word(s): `pytest`, `npm test`, `go test`, `ruff check`. */
  readonly runner: string;
  readonly kind: CheckKind;
  readonly summary: SummaryFamily;
  /** Arguments to normalise by `rules` into the identity. */
  readonly args: readonly string[];
  readonly rules: FlagRules;
}

/** A runner recognised: its identity's first words, kind, summary family, and the arguments with their rules. */
export const match = (
  runner: string,
  kind: RunnerMatch['kind'],
  summary: RunnerMatch['summary'],
  args: readonly string[],
  rules: FlagRules,
): RunnerMatch => ({ runner, kind, summary, args, rules });

/** The last path segment, without a Windows `.exe`/`.cmd`/`.bat` ending (exactly those, lower case). */
export function basename(word: string): string {
  const name = word.slice(word.lastIndexOf('/') + 1);
  if (name.length < 4 || name.charCodeAt(name.length - 4) !== 0x2e) return name;
  const ending = name.slice(-3);
  return ending === 'exe' || ending === 'cmd' || ending === 'bat' ? name.slice(0, -4) : name;
}

/** The runner of `argv`, or null when it is no check this classifier knows. */
export function recognizeRunner(argv: readonly string[]): RunnerMatch | null {
  if (argv.length === 0) return null;
  return recognizePython(argv) ?? recognizeJs(argv) ?? recognizeNative(argv);
}

/** What a script, target, task or tox environment named `name` checks, if its name says so. */
export function kindOfName(name: string): CheckKind | null {
  const n = name.toLowerCase();
  if (/(^|[:_.-])(format|fmt|prettier)[:_.-]?(check|verify)|check[:_.-]?(format|fmt)/.test(n))
    return 'format';
  if (/type-?check|check[:_.-]?types|^types?($|[:_.-])|^tsc($|[:_.-])|(^|[:_.-])(mypy|pyright)/.test(n)) {
    return 'typecheck';
  }
  if (/(^|[:_.-])(test|tests|spec|specs|e2e|unit|integration|jest|vitest|pytest)($|[:_.-])|^test/.test(n)) {
    return 'test';
  }
  if (/lint|clippy|flake8|ruff|detekt|checkstyle/.test(n)) return 'lint';
  if (/(^|[:_.-])(build|compile|assemble|bundle|dist)($|[:_.-])/.test(n)) return 'build';
  if (/(^|[:_.-])(check|verify|validate|ci)($|[:_.-])/.test(n)) return 'check';
  return null;
}

/** Arguments of package-manager scripts: what a test script's runner would drop, when it is jest or vitest. */
export const scriptArgRules: FlagRules = {
  drop: flags(
    '--run --silent --ci --watch=false --watchAll=false --no-watch -q --quiet --verbose --passWithNoTests --runInBand --if-present',
  ),
  dropValued: flags('--reporter --reporters --maxWorkers --loglevel'),
  keepValued: flags(
    '-t --testNamePattern --project -c --config --filter -F -w --workspace --prefix -C --dir --cwd',
  ),
};

const pmBuiltins = new Set(
  flags(
    'install i add remove rm uninstall update up upgrade ci init create exec dlx x link publish pack start dev serve info why list ls outdated audit config set version help cache store import rebuild prune dedupe workspace workspaces',
  ),
);

/** Global options of npm/pnpm/yarn/bun that come before the script: kept (they choose the package) or not. */
const pmGlobalValued = new Set(flags('--prefix -C --dir --cwd -w --workspace --filter -F'));

/** `npm test`, `npm run lint`, `pnpm typecheck`, `yarn workspace web test`, `bun run build`. */
export function recognizeScript(argv: readonly string[]): RunnerMatch | null {
  const pm = basename(argv[0] ?? '');
  if (pm !== 'npm' && pm !== 'pnpm' && pm !== 'yarn' && pm !== 'bun') return null;
  const globals: string[] = [];
  let i = 1;
  while (i < argv.length && (argv[i] as string).startsWith('-')) {
    const flag = argv[i] as string;
    if (pmGlobalValued.has(flag) && i + 1 < argv.length) {
      globals.push(flag, argv[i + 1] as string);
      i += 2;
    } else {
      if (flag === '-r' || flag === '--recursive' || flag === '-ws' || flag === '--workspaces')
        globals.push(flag);
      i++;
    }
  }
  if (pm === 'yarn' && argv[i] === 'workspace' && argv[i + 1]) {
    globals.push('workspace', argv[i + 1] as string);
    i += 2;
  }
  const sub = argv[i];
  if (sub === undefined) return null;
  let script: string;
  if (sub === 'test' || sub === 't' || sub === 'tst') {
    if (pm === 'bun') return null;
    script = 'test';
    i++;
  } else if (sub === 'run' || sub === 'run-script' || sub === 'rum' || sub === 'urn') {
    const name = argv[i + 1];
    if (name === undefined || name.startsWith('-')) return null;
    script = name;
    i += 2;
  } else if (pm !== 'npm' && !pmBuiltins.has(sub) && !sub.includes('.') && !sub.includes('/')) {
    script = sub;
    i++;
  } else return null;
  const kind = kindOfName(script);
  if (!kind) return null;
  const where = globals.length > 0 ? ` ${globals.map(shellQuote).join(' ')}` : '';
  const runner = script === 'test' ? `${pm}${where} test` : `${pm}${where} run ${shellQuote(script)}`;
  return { runner, kind, summary: 'any', args: argv.slice(i), rules: scriptArgRules };
}
