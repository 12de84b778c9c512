/**
 * Checks of compiled ecosystems and task runners: go, cargo, make, just, gradle, maven, and a few others
 * (dotnet, swift, ctest, bazel, rspec, phpunit, mix) read by exit code and the generic summary parsers.
 */
import { flags, type FlagRules } from './identity';
import { basename, kindOfName, match as m, type RunnerMatch } from './runners';

const goRules: FlagRules = {
  drop: flags('-v -failfast -cover -json -x -trimpath'),
  dropValued: flags('-count -timeout -p -parallel -coverprofile -covermode -coverpkg -o -outputdir'),
  keepValued: flags('-run -skip -bench -tags -ldflags -gcflags -mod -C -exec'),
  rawTargets: true,
};

const cargoRules: FlagRules = {
  drop: flags('-q --quiet -v -vv --verbose --no-fail-fast --locked --frozen --offline'),
  dropValued: flags('-j --jobs --message-format --color -Z'),
  keepValued: flags(
    '-p --package --test --bin --example --bench --features -F --target --manifest-path --profile',
  ),
  afterDashDash: {
    drop: flags('--nocapture --no-capture --show-output -q --quiet'),
    dropValued: flags('--test-threads --color --format -Z'),
    keepValued: ['--skip'],
  },
};

const makeRules: FlagRules = {
  drop: flags('-s --silent --quiet -k --keep-going --no-print-directory -w --print-directory'),
  dropValued: flags('-j --jobs -l --load-average -O --output-sync'),
  numeric: ['-j', '-l'],
  keepValued: flags('-C --directory -f --file --makefile --justfile -d'),
};

const gradleRules: FlagRules = {
  drop: flags(
    '--info -i --debug -d --stacktrace -s --full-stacktrace -S -q --quiet --no-daemon --daemon --offline --parallel --scan --build-cache --no-build-cache --continue --warn -w',
  ),
  dropValued: flags('--console --warning-mode --max-workers'),
  keepValued: flags('--tests -x --exclude-task -p --project-dir'),
};

const mavenRules: FlagRules = {
  drop: flags(
    '-q --quiet -B --batch-mode -e --errors -X --debug -ntp --no-transfer-progress -o --offline -U --update-snapshots -fae --fail-at-end',
  ),
  dropValued: flags('-T --threads -l --log-file'),
  keepValued: flags('-pl --projects -f --file -P --activate-profiles -s --settings -rf'),
};

const plainRules: FlagRules = {
  drop: flags('-v --verbose -q --quiet --nologo --output-on-failure'),
};

export function recognizeNative(argv: readonly string[]): RunnerMatch | null {
  const name = basename(argv[0] as string);
  const args = argv.slice(1);
  const sub = args[0];
  switch (name) {
    case 'go':
      if (sub === 'test') return m('go test', 'test', 'go', args.slice(1), goRules);
      if (sub === 'vet') return m('go vet', 'lint', 'none', args.slice(1), goRules);
      if (sub === 'build') return m('go build', 'build', 'none', args.slice(1), goRules);
      return null;
    case 'golangci-lint':
      return sub === 'run' ? m('golangci-lint run', 'lint', 'none', args.slice(1), goRules) : null;
    case 'staticcheck':
      return m('staticcheck', 'lint', 'none', args, goRules);
    case 'cargo':
      return cargo(args);
    case 'make':
    case 'gmake':
    case 'just':
      return make(name, args);
    case 'gradle':
    case 'gradlew':
      return gradle(args);
    case 'mvn':
    case 'mvnw':
      return maven(args);
    case 'dotnet':
      if (sub === 'test') return m('dotnet test', 'test', 'any', args.slice(1), plainRules);
      if (sub === 'build') return m('dotnet build', 'build', 'none', args.slice(1), plainRules);
      return null;
    case 'swift':
      if (sub === 'test') return m('swift test', 'test', 'any', args.slice(1), plainRules);
      if (sub === 'build') return m('swift build', 'build', 'none', args.slice(1), plainRules);
      return null;
    case 'ctest':
    case 'rspec':
    case 'phpunit':
    case 'pest':
      return m(name, 'test', 'any', args, {
        ...plainRules,
        dropValued: flags('-j --parallel --format -f'),
      });
    case 'bazel':
    case 'bazelisk':
      if (sub === 'test') return m('bazel test', 'test', 'any', args.slice(1), plainRules);
      if (sub === 'build') return m('bazel build', 'build', 'none', args.slice(1), plainRules);
      return null;
    case 'mix':
      return sub === 'test' ? m('mix test', 'test', 'any', args.slice(1), plainRules) : null;
    case 'rake':
      return sub && kindOfName(sub)
        ? m(`rake ${sub}`, kindOfName(sub) ?? 'check', 'any', args.slice(1), plainRules)
        : null;
    default:
      return null;
  }
}

function cargo(args: readonly string[]): RunnerMatch | null {
  let i = 0;
  while (i < args.length && ((args[i] as string).startsWith('-') || (args[i] as string).startsWith('+'))) {
    i += args[i] === '--color' || args[i] === '-Z' || args[i] === '--config' ? 2 : 1;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  switch (sub) {
    case 'test':
    case 't':
      return m('cargo test', 'test', 'cargo', rest, cargoRules);
    case 'nextest':
      return rest[0] === 'run' ? m('cargo nextest run', 'test', 'cargo', rest.slice(1), cargoRules) : null;
    case 'build':
    case 'b':
      return m('cargo build', 'build', 'none', rest, cargoRules);
    case 'check':
    case 'c':
      return m('cargo check', 'typecheck', 'none', rest, cargoRules);
    case 'clippy':
      return m('cargo clippy', 'lint', 'none', rest, cargoRules);
    case 'fmt':
      return rest.includes('--check')
        ? m(
            'cargo fmt --check',
            'format',
            'none',
            rest.filter((a) => a !== '--check'),
            cargoRules,
          )
        : null;
    default:
      return null;
  }
}

/** make/just: the targets named decide; a bare `make` builds the default target. */
function make(name: string, args: readonly string[]): RunnerMatch | null {
  const runner = name === 'gmake' ? 'make' : name;
  const targets: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (
      makeRules.keepValued?.includes(a) ||
      (makeRules.dropValued?.includes(a) && /^\d+$/.test(args[i + 1] ?? ''))
    )
      i++;
    else if (!a.startsWith('-') && !a.includes('=')) targets.push(a);
  }
  if (targets.length === 0) return runner === 'make' ? m('make', 'build', 'any', args, makeRules) : null;
  const kinds = targets.map(kindOfName).filter((k) => k !== null);
  if (kinds.length === 0) return null;
  return m(runner, kinds[kinds.length - 1] as RunnerMatch['kind'], 'any', args, makeRules);
}

function gradle(args: readonly string[]): RunnerMatch | null {
  const tasks = args.filter(
    (a, i) => !a.startsWith('-') && !gradleRules.keepValued?.includes(args[i - 1] ?? ''),
  );
  const kinds = tasks.map((t) => kindOfName(t.split(':').pop() ?? t)).filter((k) => k !== null);
  if (kinds.length === 0) return null;
  const kind = kinds.includes('test') ? 'test' : (kinds[kinds.length - 1] as RunnerMatch['kind']);
  return m('gradle', kind, 'gradle', args, gradleRules);
}

const mavenTestGoals = new Set(flags('test verify install package integration-test surefire:test deploy'));

function maven(args: readonly string[]): RunnerMatch | null {
  const goals = args.filter(
    (a, i) => !a.startsWith('-') && !mavenRules.keepValued?.includes(args[i - 1] ?? ''),
  );
  const skipTests = args.some(
    (a) => a === '-DskipTests' || a === '-Dmaven.test.skip=true' || a === '-DskipTests=true',
  );
  let kind: RunnerMatch['kind'] | null = null;
  for (const goal of goals) {
    if (mavenTestGoals.has(goal)) kind = skipTests ? (kind ?? 'build') : 'test';
    else if (goal === 'compile' || goal === 'test-compile') kind ??= 'build';
    else if (/checkstyle|pmd|spotbugs/.test(goal)) kind ??= 'lint';
    else if (/spotless:check|fmt:check/.test(goal)) kind ??= 'format';
  }
  return kind ? m('mvn', kind, 'maven', args, mavenRules) : null;
}
