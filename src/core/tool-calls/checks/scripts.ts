/**
 * Ad-hoc checks: the scripts agents write and run to see whether a fix works (`python reproduce_issue.py`).
 * Every interpreter-and-file run is a `ScriptRun`; it is a check when
 * - the context says the same script ran before and files were edited since (`certainty: 'rerun'`), or
 * - its file name says test/repro/check/verify/validate/bug/issue (`certainty: 'candidate'`).
 * A plain run (`python manage.py migrate`, `node server.js`) stays a script run, not a check.
 */
import type { CheckCertainty, ClassifyContext, ScriptRun } from '../types';
import { cleanTarget, shellQuote } from './identity';
import { basename } from './runners';
import { pythonExe, skipInterpreterOptions } from './runners-python';

const nodeValued = new Set([
  '-r',
  '--require',
  '--import',
  '--loader',
  '--experimental-loader',
  '--env-file',
  '--conditions',
  '-C',
]);
const scriptExtension = /\.(py|sh|bash|js|mjs|cjs|ts|mts|rb|pl|php)$/;

/** The interpreter and script of `argv`, or null when it runs no script file. */
export function scriptOf(
  argv: readonly string[],
): { interpreter: string; path: string; args: readonly string[] } | null {
  const name = basename(argv[0] ?? '');
  if (pythonExe.test(name)) {
    const i = skipInterpreterOptions(argv, 1);
    const path = argv[i];
    if (path === undefined || path === '-m' || path === '-c' || path === '-') return null;
    return { interpreter: 'python', path, args: argv.slice(i + 1) };
  }
  if (name === 'node' || name === 'tsx' || name === 'ts-node' || name === 'vite-node' || name === 'esno') {
    let i = 1;
    while (i < argv.length && (argv[i] as string).startsWith('-')) {
      if (argv[i] === '-e' || argv[i] === '-p' || argv[i] === '--eval' || argv[i] === '--print') return null;
      i += nodeValued.has(argv[i] as string) ? 2 : 1;
    }
    const path = argv[i];
    return path === undefined ? null : { interpreter: 'node', path, args: argv.slice(i + 1) };
  }
  if (name === 'deno' && argv[1] === 'run') return firstFile('deno', argv, 2);
  if (name === 'bun' && (argv[1] === 'run' || scriptExtension.test(argv[1] ?? ''))) {
    const from = argv[1] === 'run' ? 2 : 1;
    return scriptExtension.test(argv[from] ?? '') ? firstFile('bun', argv, from) : null;
  }
  if (name === 'bash' || name === 'sh' || name === 'zsh')
    return firstFile(name === 'zsh' ? 'zsh' : 'sh', argv, 1);
  if (name === 'ruby' || name === 'perl' || name === 'php' || name === 'Rscript' || name === 'julia') {
    return firstFile(name, argv, 1);
  }
  if (name === 'go' && argv[1] === 'run') return firstFile('go run', argv, 2);
  const first = argv[0] ?? '';
  if (
    (first.startsWith('./') || (first.includes('/') && !first.startsWith('/'))) &&
    scriptExtension.test(first)
  ) {
    return { interpreter: 'exec', path: first, args: argv.slice(1) };
  }
  if (first.startsWith('./') && !first.includes('node_modules'))
    return { interpreter: 'exec', path: first, args: argv.slice(1) };
  return null;
}

function firstFile(interpreter: string, argv: readonly string[], from: number) {
  let i = from;
  while (i < argv.length && (argv[i] as string).startsWith('-')) i++;
  const path = argv[i];
  return path === undefined ? null : { interpreter, path, args: argv.slice(i + 1) };
}

/** The script run's identity: interpreter, path (relative to `root` when inside it), arguments; scoped. */
export function scriptRun(
  argv: readonly string[],
  scope: string | null,
  root: string | undefined,
): ScriptRun | null {
  const script = scriptOf(argv);
  if (!script) return null;
  const base = root?.replace(/\/+$/, '');
  let path = cleanTarget(script.path);
  if (base && path.startsWith(base + '/')) path = path.slice(base.length + 1);
  const body = [script.interpreter, path, ...script.args]
    .map((w, k) => (k === 0 ? w : shellQuote(w)))
    .join(' ');
  return { id: scope ? `${scope}: ${body}` : body, interpreter: script.interpreter, path, args: script.args };
}

const checkName =
  /(^|[_.-])(repro|reproduce|reproduction|reproducer|test|tests|check|verify|validate|validation|bug|issue)([_.-]|\d|$)|^test|_test$|^repro/i;

/** Whether a script run is a check, and how sure: null when it is a plain run. */
export function scriptCertainty(run: ScriptRun, context: ClassifyContext | undefined): CheckCertainty | null {
  const prior = context?.priorScriptRuns;
  if (prior && Object.hasOwn(prior, run.id) && (prior[run.id]?.editsSince ?? 0) > 0) return 'rerun';
  const stem = basename(run.path).replace(/\.[A-Za-z0-9]+$/, '');
  return checkName.test(stem) ? 'candidate' : null;
}
