/**
 * Python checks: pytest, unittest, Django (`manage.py test`, `runtests.py`), tox, nox, mypy, pyright, ruff,
 * flake8, pylint, black/isort in check mode — run directly, as `python -m X`, or under `coverage run`.
 */
import { cleanTarget, flags, type FlagRules } from './identity';
import { basename, kindOfName, type RunnerMatch } from './runners';

export const pythonExe = /^(python(\d+(\.\d+)*)?|py|pypy3?)$/;

const pytestRules: FlagRules = {
  drop: flags(
    '-q -qq -v -vv -vvv -x -s -l --exitfirst --showlocals --no-header --no-summary --disable-warnings --verbose --quiet --no-cov --full-trace --cache-clear --capture=no',
  ),
  dropValued: flags(
    '--tb --capture --maxfail --durations --durations-min -n --numprocesses --dist --cov --cov-report --timeout -r -p --junitxml --junit-xml --basetemp -W',
  ),
  numeric: ['-n', '--numprocesses'],
  dropLetters: 'qvxsl',
  keepValued: flags('-k -m -c --rootdir --deselect --ignore --ignore-glob -o --override-ini'),
};

const unittestRules: FlagRules = {
  drop: flags('-v -q -f -b -c --failfast --buffer --catch --locals --verbose --quiet'),
  dropLetters: 'vqfbc',
  keepValued: flags('-k -s -p -t --start-directory --pattern --top-level-directory'),
};

const djangoRules: FlagRules = {
  drop: flags('--noinput --no-input --keepdb --failfast --debug-sql --timing --buffer -b'),
  dropValued: flags('-v --verbosity --parallel'),
  numeric: ['--parallel'],
  keepValued: flags('--settings -k --tag --exclude-tag --testrunner --pattern -p'),
};

const mypyRules: FlagRules = {
  drop: flags(
    '--pretty --no-pretty --show-error-codes --hide-error-codes --show-column-numbers --show-error-context --no-error-summary --show-traceback --no-incremental --color-output --no-color-output --show-absolute-path -v --verbose',
  ),
  dropValued: ['--cache-dir', '--junit-xml'],
  keepValued: flags('--config-file -p --package -m --module --python-version'),
};

const lintRules: FlagRules = {
  drop: flags('-q --quiet -s --silent --statistics --no-cache --show-fixes --no-show-fixes -v'),
  dropValued: flags('--output-format --format --cache-dir --output-file -j --jobs -f'),
  keepValued: flags('--config --select --ignore --extend-select --extend-ignore --rcfile --disable'),
};

const formatRules: FlagRules = {
  drop: flags('-q --quiet -v --verbose --check --check-only -c --diff'),
  keepValued: flags('-l --line-length -t --target-version --config --profile --settings-path'),
};

const envRules: FlagRules = {
  drop: flags('-q -v -vv -p --parallel -r -R --reuse-existing-virtualenvs --recreate'),
  keepValued: flags('-e -c -s --session --sessions -k -t -m'),
};

const match = (runner: string, kind: RunnerMatch['kind'], summary: RunnerMatch['summary']) => ({
  runner,
  kind,
  summary,
});

/** A python tool by the name it is invoked as (an executable, or a `-m` module) and its arguments. */
function pythonTool(name: string, args: readonly string[]): RunnerMatch | null {
  switch (name) {
    case 'pytest':
    case 'py.test':
      return { ...match('pytest', 'test', 'pytest'), args, rules: pytestRules };
    case 'unittest':
      return { ...match('unittest', 'test', 'unittest'), args, rules: unittestRules };
    case 'tox':
    case 'nox':
      return { ...match(name, envKind(args), 'tox'), args, rules: envRules };
    case 'mypy':
    case 'dmypy':
      return {
        ...match('mypy', 'typecheck', 'mypy'),
        args: name === 'dmypy' ? args.slice(1) : args,
        rules: mypyRules,
      };
    case 'pyright':
    case 'basedpyright':
      return { ...match('pyright', 'typecheck', 'pyright'), args, rules: lintRules };
    case 'ruff':
      return ruff(args);
    case 'flake8':
    case 'pylint':
    case 'pyflakes':
    case 'pycodestyle':
    case 'pydocstyle':
      return { ...match(name, 'lint', 'none'), args, rules: lintRules };
    case 'black':
    case 'isort':
      if (!args.some((a) => a === '--check' || a === '--check-only' || a === '-c' || a === '--diff'))
        return null;
      return { ...match(`${name} --check`, 'format', 'none'), args, rules: formatRules };
    case 'py_compile':
    case 'compileall':
      return { ...match(`python -m ${name}`, 'build', 'none'), args, rules: {} };
    case 'django':
    case 'django-admin':
      return args[0] === 'test'
        ? { ...match('django test', 'test', 'unittest'), args: args.slice(1), rules: djangoRules }
        : null;
    default:
      return null;
  }
}

function ruff(args: readonly string[]): RunnerMatch | null {
  const [sub, ...rest] = args;
  if (sub === 'format') {
    if (!rest.includes('--check') && !rest.includes('--diff')) return null;
    return { ...match('ruff format --check', 'format', 'ruff'), args: rest, rules: formatRules };
  }
  if (sub === 'check') return { ...match('ruff check', 'lint', 'ruff'), args: rest, rules: lintRules };
  if (sub === undefined || sub.startsWith('-') || sub.includes('/') || sub === '.') {
    return { ...match('ruff check', 'lint', 'ruff'), args, rules: lintRules };
  }
  return null;
}

/** tox/nox: the environments named decide (`-e lint` is a lint run); by default a test run. */
function envKind(args: readonly string[]): RunnerMatch['kind'] {
  const i = args.findIndex((a) => a === '-e' || a === '-s' || a === '--session' || a === '--sessions');
  const names = i >= 0 ? (args[i + 1] ?? '').split(',') : [];
  const kinds = names.map(kindOfName).filter((k) => k !== null);
  return kinds.length > 0 && kinds.every((k) => k === kinds[0]) ? (kinds[0] as RunnerMatch['kind']) : 'test';
}

/** Interpreter options before `-m`/the script: `-u`, `-B`, `-W error`, `-X dev`. */
export function skipInterpreterOptions(argv: readonly string[], from: number): number {
  let i = from;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (a === '-m' || a === '-c' || a === '-' || !a.startsWith('-')) return i;
    i += a === '-W' || a === '-X' ? 2 : 1;
  }
  return i;
}

export function recognizePython(argv: readonly string[]): RunnerMatch | null {
  const name = basename(argv[0] as string);
  if (name === 'coverage' && argv[1] === 'run') return coverageRun(argv.slice(2));
  if (!pythonExe.test(name)) {
    if (name === 'manage.py' && argv[1] === 'test') return django(argv.slice(2));
    if (name === 'runtests.py') return runtests(argv[0] as string, argv.slice(1));
    return pythonTool(name, argv.slice(1));
  }
  const i = skipInterpreterOptions(argv, 1);
  if (argv[i] === '-m') return pythonTool(argv[i + 1] ?? '', argv.slice(i + 2));
  const script = basename(argv[i] ?? '');
  if (script === 'manage.py' && argv[i + 1] === 'test') return django(argv.slice(i + 2));
  if (script === 'runtests.py') return runtests(argv[i] as string, argv.slice(i + 1));
  if (script === 'setup.py' && argv[i + 1] === 'test') {
    return { ...match('python setup.py test', 'test', 'any'), args: argv.slice(i + 2), rules: pytestRules };
  }
  return null;
}

function django(args: readonly string[]): RunnerMatch {
  return { ...match('django test', 'test', 'unittest'), args, rules: djangoRules };
}

/** A project's own `runtests.py` (Django's `tests/runtests.py`, and others like it): named by its path. */
function runtests(path: string, args: readonly string[]): RunnerMatch {
  return { ...match(cleanTarget(path), 'test', 'any'), args, rules: djangoRules };
}

/** `coverage run [opts] -m pytest …` is `pytest …`; `coverage run x.py` is a script run. */
function coverageRun(args: readonly string[]): RunnerMatch | null {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-') && args[i] !== '-m') {
    i += /^--(source|rcfile|omit|include|data-file)$/.test(args[i] as string) ? 2 : 1;
  }
  if (args[i] === '-m') return pythonTool(args[i + 1] ?? '', args.slice(i + 2));
  return recognizePython(['python', ...args.slice(i)]);
}
