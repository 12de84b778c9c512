/**
 * The import anchor's line reader on a second thread (a Node worker_thread): the engine's own `serveReadAhead`
 * (src/engine/importers/read-ahead.ts), loaded through Vite's `runnerImport`, on the thread's parent port. Steps are
 * packed with fflate (`packJson`): Node's CompressionStream costs ~170 µs a call, ~5× fflate, where the browser's
 * costs about as much as fflate.
 */
import { parentPort } from 'node:worker_threads';
import { runnerImport } from 'vite';

const src = new URL('../../../src/', import.meta.url).pathname;
const { serveReadAhead } = (await runnerImport(`${src}engine/importers/read-ahead.ts`)).module;
const { packJson } = (await runnerImport(`${src}storage/sqlite/repos/step-json.ts`)).module;
const port = {
  postMessage: (message, transfer) => parentPort.postMessage(message, transfer),
  onmessage: null,
};
parentPort.on('message', (data) => port.onmessage?.({ data }));
serveReadAhead(port, { pack: packJson });
parentPort.postMessage({ type: 'ready' });
