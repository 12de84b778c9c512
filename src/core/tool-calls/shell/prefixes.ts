/**
 * Commands that run another command: `env`, `timeout 600`, `uv run`, `npx`, `coverage run -m`, `xargs`… Each is
 * stripped so the runner underneath is what gets classified. Table-driven: per prefix, the options that take a
 * value (so the value is not mistaken for the command).
 */

interface Prefix {
  /** Options whose value is the next word. */
  readonly withValue?: readonly string[];
  /** Words after the name (a subcommand) that must follow for this to be a prefix: `uv run`, `pnpm exec`. */
  readonly sub?: readonly string[];
  /** Skip `NAME=value` words too (env, cross-env). */
  readonly assignments?: boolean;
  /** A positional value before the command (timeout's duration). */
  readonly positional?: number;
}

const prefixes: Record<string, Prefix> = {
  env: { withValue: ['-u', '--unset', '-C', '--chdir', '-S'], assignments: true },
  'cross-env': { assignments: true },
  timeout: { withValue: ['-s', '--signal', '-k', '--kill-after'], positional: 1 },
  time: {},
  nice: { withValue: ['-n', '--adjustment'] },
  nohup: {},
  stdbuf: { withValue: ['-i', '-o', '-e'] },
  unbuffer: {},
  command: {},
  builtin: {},
  exec: {},
  chronic: {},
  caffeinate: {},
  catchsegv: {},
  sudo: { withValue: ['-u', '-g', '-C', '-D', '-h', '-p', '-U', '--user', '--group'] },
  'xvfb-run': { withValue: ['-s', '--server-args', '-n', '--server-num', '-e', '--error-file', '-f'] },
  uv: {
    sub: ['run'],
    withValue: [
      '--with',
      '--python',
      '-p',
      '--project',
      '--extra',
      '--group',
      '--directory',
      '--env-file',
      '--package',
    ],
  },
  poetry: { sub: ['run'], withValue: ['-C', '--directory', '-P', '--project'] },
  pipenv: { sub: ['run'] },
  bundle: { sub: ['exec'] },
  hatch: { sub: ['run'] },
  rye: { sub: ['run'] },
  pdm: { sub: ['run'], withValue: ['-p', '--project'] },
  conda: { sub: ['run'], withValue: ['-n', '--name', '-p', '--prefix', '--cwd'] },
  mamba: { sub: ['run'], withValue: ['-n', '--name', '-p', '--prefix'] },
  micromamba: { sub: ['run'], withValue: ['-n', '--name', '-p', '--prefix'] },
  npx: { withValue: ['-p', '--package', '-c', '--call'] },
  bunx: { withValue: ['-p', '--package'] },
  pnpx: {},
  dotenv: { withValue: ['-e', '-v', '-c'] },
  xargs: {
    withValue: ['-n', '-I', '-P', '-L', '-d', '-s', '-E', '-a', '--max-args', '--max-procs', '--delimiter'],
  },
};

/** `pnpm exec`, `yarn dlx`, `npm exec`, `bun x`: a package runner with its subcommand. */
const packageExec: Record<string, readonly string[]> = {
  pnpm: ['exec', 'dlx'],
  yarn: ['dlx', 'exec'],
  npm: ['exec', 'x'],
  bun: ['x'],
};

/** The tables by name, own keys only (a command named `constructor` is no prefix). */
const prefixesByName = new Map(Object.entries(prefixes));
const packageExecByName = new Map(Object.entries(packageExec));

export interface Stripped {
  /** Index of the first word of the command underneath. */
  readonly start: number;
  /** `timeout`'s duration, when one wrapped the command. */
  readonly timeout: string | null;
  /** The words stripped, in order (`['timeout 600', 'uv run']`): kept for the record, not for identity. */
  readonly prefixes: readonly string[];
}

const basename = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** Skip every prefix in front of `argv[from…]`; at most 8 deep (`sudo env timeout …`). */
export function stripPrefixes(argv: readonly string[], from = 0): Stripped {
  let i = from;
  let timeout: string | null = null;
  const stripped: string[] = [];
  for (let depth = 0; depth < 8 && i < argv.length; depth++) {
    const name = basename(argv[i] as string);
    const exec = packageExecByName.get(name);
    if (exec && exec.includes(argv[i + 1] ?? '')) {
      stripped.push(`${name} ${argv[i + 1]}`);
      i = skipOptions(argv, i + 2, {});
      continue;
    }
    const prefix = prefixesByName.get(name);
    if (!prefix) break;
    let j = i + 1;
    if (prefix.sub) {
      if (!prefix.sub.includes(argv[j] ?? '')) break;
      j++;
    }
    j = skipOptions(argv, j, prefix);
    if (prefix.positional) {
      if (name === 'timeout') timeout = argv[j] ?? null;
      j += prefix.positional;
    }
    if (j >= argv.length) break;
    stripped.push(argv.slice(i, j).join(' '));
    i = j;
  }
  return { start: i, timeout, prefixes: stripped };
}

function skipOptions(argv: readonly string[], from: number, prefix: Prefix): number {
  let j = from;
  while (j < argv.length) {
    const word = argv[j] as string;
    if (word === '--') return j + 1;
    if (prefix.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      j++;
      continue;
    }
    if (!word.startsWith('-') || word === '-') return j;
    const name = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
    j += prefix.withValue?.includes(name) && !word.includes('=') ? 2 : 1;
  }
  return j;
}

/** Shells whose `-c` argument (or here-document on stdin) is itself a command line. */
export const shells = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'fish']);

/**
 * The script a shell wrapper runs: `bash -lc 'script'` → `script`; `sh -c "…"`; `bash` with no file reads
 * stdin (the caller passes a here-document then). Returns null for `bash script.sh` (a script run).
 */
export function shellScript(argv: readonly string[], start: number): { script: string | null } | null {
  const name = basename(argv[start] ?? '');
  if (name === 'eval') return { script: argv.slice(start + 1).join(' ') };
  if (!shells.has(name)) return null;
  let j = start + 1;
  let commandMode = false;
  while (j < argv.length) {
    const word = argv[j] as string;
    if (word === '--') {
      j++;
      break;
    }
    if (!word.startsWith('-') && !word.startsWith('+')) break;
    if (word === '-o' || word === '+o' || word === '-O' || word === '+O') j++;
    else if (!word.startsWith('--') && word.slice(1).includes('c')) commandMode = true;
    j++;
  }
  if (commandMode) return { script: argv[j] ?? '' };
  if (j >= argv.length) return { script: null };
  return null;
}
