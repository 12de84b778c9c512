/**
 * JavaScript/TypeScript checks: jest, vitest, mocha, `node --test`, `bun test`, playwright, tsc (and vue-tsc,
 * svelte-check), eslint, `prettier --check`, biome, deno, the usual bundlers' build commands, and package-manager
 * scripts (runners.ts `recognizeScript`).
 */
import { flags, type FlagRules } from './identity';
import { basename, kindOfName, match as m, recognizeScript, type RunnerMatch } from './runners';

const jestRules: FlagRules = {
  drop: flags(
    '--silent --verbose --ci --runInBand -i --no-watch --no-watchman --bail --detectOpenHandles --forceExit --passWithNoTests --no-cache --watchAll=false --watch=false --coverage=false --json --useStderr --no-coverage --expand --noStackTrace --run --no-file-parallelism --hideSkippedTests --exit --full-trace -b',
  ),
  dropValued: flags(
    '--reporters --reporter -R --maxWorkers --minWorkers -w --testTimeout --outputFile --coverageReporters --pool --timeout --slow --reporter-option --test-reporter --test-reporter-destination --test-concurrency --test-timeout --workers -j',
  ),
  keepValued: flags(
    '-t --testNamePattern --testPathPattern --testPathPatterns -c --config --selectProjects --project --shard -g --grep --fgrep --test-name-pattern --test-skip-pattern --import --require --root --dir --environment',
  ),
};

const tscRules: FlagRules = {
  drop: flags(
    '--noEmit --pretty --listFiles --extendedDiagnostics --diagnostics --incremental --listEmittedFiles --explainFiles --noErrorTruncation',
  ),
  dropValued: ['--output', '--tsBuildInfoFile'],
  keepValued: flags('-p --project --target --module --lib --jsx --tsconfig --threshold --workspace'),
};

const eslintRules: FlagRules = {
  drop: flags('--cache --no-cache --quiet --no-error-on-unmatched-pattern --log-level'),
  dropValued: flags('-f --format -o --output-file --cache-location --cache-strategy --log-level --loglevel'),
  keepValued: flags(
    '-c --config --ext --max-warnings --rule --ignore-pattern --parser --plugin --ignore-path',
  ),
};

const buildRules: FlagRules = { drop: flags('--silent --quiet -q'), dropValued: ['--logLevel', '-l'] };

export function recognizeJs(argv: readonly string[]): RunnerMatch | null {
  const name = basename(argv[0] as string);
  const args = argv.slice(1);
  const sub = args[0];
  switch (name) {
    case 'jest':
      return m('jest', 'test', 'jest', args, jestRules);
    case 'vitest': {
      const rest = sub === 'run' || sub === 'watch' ? args.slice(1) : args;
      return m('vitest', 'test', 'vitest', rest, jestRules);
    }
    case 'mocha':
    case '_mocha':
      return m('mocha', 'test', 'mocha', args, jestRules);
    case 'ava':
    case 'tap':
    case 'jasmine':
      return m(name, 'test', 'any', args, jestRules);
    case 'node':
      if (!args.some((a) => a === '--test' || a.startsWith('--test='))) return null;
      return m(
        'node --test',
        'test',
        'node-test',
        args.filter((a) => a !== '--test'),
        jestRules,
      );
    case 'bun':
      if (sub === 'test') return m('bun test', 'test', 'bun', args.slice(1), jestRules);
      return recognizeScript(argv);
    case 'playwright':
      return sub === 'test' ? m('playwright test', 'test', 'any', args.slice(1), jestRules) : null;
    case 'cypress':
      return sub === 'run' ? m('cypress run', 'test', 'any', args.slice(1), jestRules) : null;
    case 'tsc':
    case 'vue-tsc':
    case 'tsgo':
      if (
        args.some((a) => a === '--watch' || a === '-w' || a === '--init' || a === '--version' || a === '-v')
      ) {
        return null;
      }
      return m(name, 'typecheck', 'tsc', args, tscRules);
    case 'svelte-check':
      return m('svelte-check', 'typecheck', 'any', args, tscRules);
    case 'eslint':
      return m('eslint', 'lint', 'eslint', args, eslintRules);
    case 'oxlint':
    case 'stylelint':
    case 'standard':
    case 'xo':
      return m(name, 'lint', 'eslint', args, eslintRules);
    case 'prettier':
      return prettier(args);
    case 'biome':
      if (sub === 'check' || sub === 'lint' || sub === 'ci')
        return m(`biome ${sub}`, 'lint', 'any', args.slice(1), eslintRules);
      if (sub === 'format' && !args.includes('--write'))
        return m('biome format', 'format', 'any', args.slice(1), eslintRules);
      return null;
    case 'deno':
      return deno(args);
    case 'vite':
    case 'next':
    case 'nuxt':
    case 'astro':
    case 'svelte-kit':
      return sub === 'build' ? m(`${name} build`, 'build', 'none', args.slice(1), buildRules) : null;
    case 'webpack':
    case 'rollup':
    case 'tsup':
    case 'parcel':
      return m(name, 'build', 'none', args, buildRules);
    case 'turbo':
    case 'nx':
      return taskRunner(name, args);
    default:
      return recognizeScript(argv);
  }
}

function prettier(args: readonly string[]): RunnerMatch | null {
  const checking = args.some((a) => a === '--check' || a === '-c' || a === '--list-different' || a === '-l');
  if (!checking) return null;
  return m('prettier --check', 'format', 'prettier', args, {
    drop: flags('--check -c --list-different -l --cache --no-cache --no-error-on-unmatched-pattern'),
    dropValued: flags('--log-level --loglevel --cache-location --cache-strategy'),
    keepValued: flags('--config --ignore-path --plugin --parser'),
  });
}

function deno(args: readonly string[]): RunnerMatch | null {
  const [sub, ...rest] = args;
  if (sub === 'test') return m('deno test', 'test', 'any', rest, jestRules);
  if (sub === 'check') return m('deno check', 'typecheck', 'tsc', rest, tscRules);
  if (sub === 'lint') return m('deno lint', 'lint', 'any', rest, eslintRules);
  if (sub === 'fmt' && rest.includes('--check'))
    return m('deno fmt --check', 'format', 'any', rest, { drop: ['--check'] });
  return null;
}

/** `turbo run test`, `turbo lint`, `nx test web`, `nx run-many -t lint`: the task's name says what it is. */
function taskRunner(name: string, args: readonly string[]): RunnerMatch | null {
  let rest = args[0] === 'run' || args[0] === 'run-many' || args[0] === 'affected' ? args.slice(1) : args;
  const t = rest.findIndex((a) => a === '-t' || a === '--target' || a === '--targets');
  const task = t >= 0 ? rest[t + 1] : rest[0];
  if (t >= 0) rest = [...rest.slice(0, t), ...rest.slice(t + 2)];
  else rest = rest.slice(1);
  const kind = task ? kindOfName(task.split(':').pop() ?? task) : null;
  if (!task || !kind) return null;
  return m(`${name} ${task}`, kind, 'any', rest, {
    drop: flags('--parallel --no-cache --output-logs=errors-only'),
  });
}
