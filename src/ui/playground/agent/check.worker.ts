/**
 * The check the page can evaluate itself: a tiny test runner over the workspace's CommonJS files. Every
 * `test/*.test.js` runs with `test(name, fn)` and `assert` in scope and `require` resolving inside the workspace.
 * It runs in this worker so that a model's infinite loop is ended by terminating it.
 */
interface CheckRequest {
  readonly files: Readonly<Record<string, string>>;
}

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

function resolve(from: string, request: string): string {
  const base = from.split('/').slice(0, -1);
  for (const part of request.split('/')) {
    if (part === '..') base.pop();
    else if (part !== '.' && part !== '') base.push(part);
  }
  const path = base.join('/');
  return path.endsWith('.js') ? path : `${path}.js`;
}

function run(files: Readonly<Record<string, string>>): { output: string; exitCode: number } {
  const lines: string[] = [];
  let pass = 0;
  let fail = 0;
  const testFiles = Object.keys(files)
    .filter((p) => /^test\/.+\.test\.js$/.test(p))
    .sort();
  for (const testFile of testFiles) {
    const cache = new Map<string, { exports: unknown }>();
    const tests: { name: string; fn: () => void }[] = [];
    const load = (path: string): unknown => {
      const cached = cache.get(path);
      if (cached) return cached.exports;
      const source = files[path];
      if (source === undefined) throw new Error(`Cannot find module '${path}'`);
      const module = { exports: {} as unknown };
      cache.set(path, module);
      const fn = new Function('module', 'exports', 'require', 'test', 'assert', source) as (
        ...args: unknown[]
      ) => void;
      fn(module, module.exports, (request: string) => load(resolve(path, request)), register, assert);
      return module.exports;
    };
    const register = (name: string, fn: () => void) => tests.push({ name, fn });
    try {
      load(testFile);
    } catch (error) {
      fail += 1;
      lines.push(
        `not ok - ${testFile} did not load: ${error instanceof Error ? error.message : String(error)}`,
      );
      continue;
    }
    for (const t of tests) {
      try {
        t.fn();
        pass += 1;
        lines.push(`ok ${pass + fail} - ${testFile}: ${t.name}`);
      } catch (error) {
        fail += 1;
        lines.push(
          `not ok ${pass + fail} - ${testFile}: ${t.name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
  lines.push(`# tests ${pass + fail}`, `# pass ${pass}`, `# fail ${fail}`);
  return { output: lines.join('\n'), exitCode: fail === 0 && pass > 0 ? 0 : 1 };
}

self.onmessage = (event: MessageEvent<CheckRequest>) => {
  self.postMessage(run(event.data.files));
};
