/**
 * The check's test runner over the workspace's CommonJS files: every `test/*.test.js` runs with `test(name, fn)`,
 * `assert` and `console` in scope and `require` resolving inside the workspace; a test may be async. Its lines are
 * TAP-like (`ok 1 - test/x.test.js: name`, `not ok 2 - …: why`, `# …` for what a test logged) and end with the counts.
 *
 * Contract: `runTests` is self-contained — no import, no name from this module — because it does not run here: the
 * sandbox (check-sandbox.ts) ships its source text (`runTests.toString()`) into a worker of an opaque origin. It is
 * one long function for that reason only.
 */
export interface CheckResult {
  readonly output: string;
  readonly exitCode: number;
}

export async function runTests(files: Readonly<Record<string, string>>): Promise<CheckResult> {
  class AssertionError extends Error {}

  const show = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : String(value));
  const assert = {
    equal(actual: unknown, expected: unknown) {
      if (actual !== expected) throw new AssertionError(`expected ${show(expected)}, got ${show(actual)}`);
    },
    ok(value: unknown, message?: string) {
      if (!value) throw new AssertionError(message ?? `expected a truthy value, got ${show(value)}`);
    },
    deepEqual(actual: unknown, expected: unknown) {
      const [a, b] = [JSON.stringify(actual), JSON.stringify(expected)];
      if (a !== b) throw new AssertionError(`expected ${b}, got ${a}`);
    },
  };

  const lines: string[] = [];
  const log = (...values: unknown[]) => {
    const text = values.map((v) => (typeof v === 'string' ? v : show(v))).join(' ');
    for (const line of text.split('\n')) lines.push(`# ${line}`);
  };
  const console = { log, info: log, warn: log, error: log };
  const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

  const resolve = (from: string, request: string) => {
    const base = from.split('/').slice(0, -1);
    for (const part of request.split('/')) {
      if (part === '..') base.pop();
      else if (part !== '.' && part !== '') base.push(part);
    }
    const path = base.join('/');
    return path.endsWith('.js') ? path : `${path}.js`;
  };

  let pass = 0;
  let fail = 0;
  const testFiles = Object.keys(files)
    .filter((p) => /^test\/.+\.test\.js$/.test(p))
    .sort();
  for (const testFile of testFiles) {
    const cache = new Map<string, { exports: unknown }>();
    const tests: { name: string; fn: () => unknown }[] = [];
    const register = (name: string, fn: () => unknown) => tests.push({ name, fn });
    const load = (path: string): unknown => {
      const cached = cache.get(path);
      if (cached) return cached.exports;
      const source = files[path];
      if (source === undefined) throw new Error(`Cannot find module '${path}'`);
      const module = { exports: {} as unknown };
      cache.set(path, module);
      const fn = new Function('module', 'exports', 'require', 'test', 'assert', 'console', source) as (
        ...args: unknown[]
      ) => void;
      const require = (request: string) => load(resolve(path, request));
      fn(module, module.exports, require, register, assert, console);
      return module.exports;
    };
    try {
      load(testFile);
    } catch (error) {
      fail += 1;
      lines.push(`not ok - ${testFile} did not load: ${why(error)}`);
      continue;
    }
    for (const t of tests) {
      try {
        await t.fn();
        pass += 1;
        lines.push(`ok ${pass + fail} - ${testFile}: ${t.name}`);
      } catch (error) {
        fail += 1;
        lines.push(`not ok ${pass + fail} - ${testFile}: ${t.name}: ${why(error)}`);
      }
    }
  }
  lines.push(`# tests ${pass + fail}`, `# pass ${pass}`, `# fail ${fail}`);
  return { output: lines.join('\n'), exitCode: fail === 0 && pass > 0 ? 0 : 1 };
}
