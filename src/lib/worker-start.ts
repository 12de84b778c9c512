/**
 * Starting the brain's worker so that `openBrain()` always settles. The worker is created with the one pattern
 * every bundler understands, `new Worker(new URL('…', import.meta.url), { type: 'module' })`: the app build (and
 * a consumer's bundler, from the package's `brain.worker.js`) emits it as a file next to the module. A worker
 * that cannot be fetched (a 404, an HTML fallback page), throws while it starts, or does not answer within a
 * bound rejects with a typed `BrainError` (code `WorkerUnavailable`, `details.stage` and `details.url`) naming its
 * URL.
 */
import * as Comlink from 'comlink';
import { BrainError } from '../core/errors';
import { guardEndpoint } from './bounds';
import type { BrainWorker } from '../worker/protocol';

/** How long a started worker may take to answer its first message (its module fetched and evaluated). */
export const defaultStartTimeoutMs = 8_000;

export type WorkerStartStage = 'create' | 'load' | 'timeout';

export interface StartedWorker {
  readonly worker: Worker;
  readonly remote: Comlink.Remote<BrainWorker>;
  /** The worker script's URL as the bundler resolved it. */
  readonly url: string;
}

/**
 * `new Worker(new URL(…))` stays literal so that bundlers find it; the URL they rewrite it to is known only inside
 * that expression, so a subclass that remembers it stands in for `Worker` during this one synchronous statement.
 */
function createBrainWorker(name: string): { worker: Worker; url: string } {
  const Native = globalThis.Worker;
  let url = '';
  globalThis.Worker = class extends Native {
    constructor(scriptUrl: string | URL, options?: WorkerOptions) {
      url = String(scriptUrl);
      super(scriptUrl, options);
    }
  };
  try {
    const worker = new Worker(new URL('../worker/brain.worker.ts', import.meta.url), {
      type: 'module',
      name,
    });
    return { worker, url };
  } catch (error) {
    throw startError('create', url, `could not be created (${describe(error)})`);
  } finally {
    globalThis.Worker = Native;
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

function startError(stage: WorkerStartStage, url: string, what: string): BrainError {
  const where = url === '' ? "agent-brain's worker" : `agent-brain's worker ${url}`;
  return new BrainError(
    'WorkerUnavailable',
    `${where} ${what}. Check that the file is served with the app as JavaScript (a bundler emits it next to the ` +
      `package's module: new Worker(new URL('./brain.worker.js', import.meta.url), { type: 'module' })).`,
    { stage, url },
  );
}

/**
 * Starts the worker and waits for its first answer: a Comlink read that any live worker answers, so a page
 * learns within `timeoutMs` whether the engine is there at all (opening the database may then take longer).
 */
export async function startBrainWorker(
  name: string,
  timeoutMs = defaultStartTimeoutMs,
): Promise<StartedWorker> {
  const { worker, url } = createBrainWorker(name);
  const remote = Comlink.wrap<BrainWorker>(guardEndpoint(worker));
  let onError: (event: Event) => void = () => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = (event: Event) => {
      event.preventDefault();
      const message = event instanceof ErrorEvent && event.message ? event.message : '';
      reject(
        startError(
          'load',
          url,
          message === ''
            ? 'could not be loaded (missing, or not served as a JavaScript module)'
            : `failed while starting: ${message}`,
        ),
      );
    };
    worker.addEventListener('error', onError);
    timer = setTimeout(
      () => reject(startError('timeout', url, `did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  // Any answer — a value or an error — means the worker's module ran and Comlink listens.
  // Reading a property of a Remote is a round trip to the worker; Comlink's types do not say so.
  const probe = remote.open as unknown as { readonly length: Promise<number> };
  const answered = Promise.resolve(probe.length).then(
    () => undefined,
    () => undefined,
  );
  try {
    await Promise.race([answered, failed]);
    return { worker, remote, url };
  } catch (error) {
    remote[Comlink.releaseProxy]();
    worker.terminate();
    throw error;
  } finally {
    clearTimeout(timer);
    worker.removeEventListener('error', onError);
  }
}
