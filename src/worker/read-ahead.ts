/**
 * The brain worker's line reader: a nested worker (line-reader.worker.ts) that reads, parses and packs a large
 * transcript while this worker writes it (engine/importers/read-ahead.ts). One per unit, ended with it. Where a
 * nested worker cannot be made (no `Worker` in this scope, a script the bundler did not emit), the unit is read
 * in this worker, as before.
 */
import { readAheadWith, type ReaderThread } from '../engine/importers/read-ahead';

export function startLineReader(): ReaderThread | null {
  if (typeof Worker === 'undefined') return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./line-reader.worker.ts', import.meta.url), {
      type: 'module',
      name: 'agent-brain line reader',
    });
  } catch {
    return null;
  }
  return {
    port: worker,
    onFailure(listener) {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        listener(event.message || 'its script could not be loaded');
      });
      worker.addEventListener('messageerror', () => listener('a message could not be read'));
    },
    terminate: () => worker.terminate(),
  };
}

export const lineReaderReadAhead = readAheadWith(startLineReader);
