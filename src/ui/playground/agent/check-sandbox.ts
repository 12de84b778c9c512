/**
 * The document of the frame the check runs in. Model-written code never runs in the page's origin: the frame is
 * sandboxed without `allow-same-origin` (an opaque origin, "null": no OPFS, IndexedDB, Cache Storage or locks of
 * the app, and no access to the page), and its Content-Security-Policy has `connect-src 'none'` and no script or
 * worker source but itself, so neither `fetch` nor `import()` nor `importScripts` reaches a server.
 *
 * The tests run in a worker the frame starts from a blob: URL (a worker from an opaque-origin document can only be
 * built from its own bytes; it inherits the frame's origin and CSP), so an endless loop blocks neither the frame
 * nor the page, and removing the frame ends it. The worker hands its result back over a MessagePort only it and the
 * frame hold: what the model's code posts with `self.postMessage` reaches nobody.
 *
 * Served as `srcdoc`, not as a file: nothing to fetch (offline, dev and build alike), and a module script from an
 * opaque origin would need the server's CORS. The page's own CSP, if it has one, applies to the frame too.
 */
import { runTests } from './test-runner';

export const sandboxAttribute = 'allow-scripts';
export const resultKind = 'agent-brain/check-result';

export const sandboxPolicy = [
  "default-src 'none'",
  // The frame's one inline script; the worker's `new Function` over the workspace's files.
  "script-src 'unsafe-inline' 'unsafe-eval'",
  'worker-src blob:',
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The worker's entry: one run, its result sent on the port it was given (captured before any test runs). */
function workerMain(run: typeof runTests) {
  self.onmessage = (event: MessageEvent<{ files: Record<string, string>; port: MessagePort }>) => {
    self.onmessage = null;
    const { files, port } = event.data;
    const send = MessagePort.prototype.postMessage.bind(port);
    run(files).then(
      (result) => send({ output: String(result.output), exitCode: Number(result.exitCode) }),
      (error: unknown) => send({ output: `# the test runner failed: ${String(error)}`, exitCode: 1 }),
    );
  };
}

/** The frame's script: takes one request from its parent, runs it in a worker, answers with the run's id. */
function frameMain(workerSource: string, kind: string) {
  const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  const onMessage = (event: MessageEvent<{ id: string; files: Record<string, string> }>) => {
    if (event.source !== parent) return;
    removeEventListener('message', onMessage);
    const { id, files } = event.data;
    const reply = (output: string, exitCode: number) =>
      parent.postMessage({ kind, id, output, exitCode }, '*');
    const worker = new Worker(url);
    const channel = new MessageChannel();
    channel.port1.onmessage = (result: MessageEvent<{ output: string; exitCode: number }>) =>
      reply(result.data.output, result.data.exitCode);
    worker.onerror = (error) => reply(`# the test runner failed: ${error.message}`, 1);
    worker.postMessage({ files, port: channel.port2 }, [channel.port2]);
  };
  addEventListener('message', onMessage);
}

/** A value as a JavaScript literal that cannot end the inline script it sits in. */
const literal = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The frame's whole document, for `iframe.srcdoc`. */
export function sandboxDocument(): string {
  const workerSource = `(${workerMain.toString()})(${runTests.toString()});`;
  const script = `(${frameMain.toString()})(${literal(workerSource)}, ${literal(resultKind)});`;
  if (/<\/script/i.test(script)) throw new Error('The check sandbox script would end its own <script> tag.');
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${sandboxPolicy}">` +
    `</head><body><script>${script}</script></body></html>`
  );
}
