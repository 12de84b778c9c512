/**
 * Markdown rendered off the main thread: marked runs in a small module worker (markdown.worker.ts) under a time
 * budget, and the page only sanitises (DOMPurify needs a DOM) and inserts. A render that overruns the budget
 * stops the worker — the one way to bound time whatever the text — and the next render starts a fresh one.
 *
 * `render` resolves with what to show, always: HTML, or the text with one sentence why (past a budget, a failure
 * in marked, a worker that would not start). It rejects only when its signal aborts, with the signal's reason.
 * One job runs at a time; the budget counts from when the worker receives it, never its start-up.
 */
import { markdownLimits, type MarkdownLimits, type MarkdownOff } from './markdown-bounds';
import { finishMarkdown, type RenderedMarkdown, type RenderMarkdownOptions } from './markdown';
import {
  errorSummary,
  parseMarkdown,
  type MarkdownWorkerMessage,
  type ParsedMarkdown,
} from './markdown-parse';

export type { RenderedMarkdown, RenderMarkdownOptions };

export interface MarkdownRenderer {
  /**
   * The rendering at once, on the page, when the file is small and plain enough that marked and the sanitiser
   * take a few ms whatever it holds (`onPageLimits`); else null, and `render` is the way.
   */
  renderNow(source: string, options?: RenderMarkdownOptions): RenderedMarkdown | null;
  render(source: string, options?: RenderMarkdownOptions, signal?: AbortSignal): Promise<RenderedMarkdown>;
  /** Stops the worker; renders still queued resolve as text. A later render starts a new worker. */
  close(): void;
}

export interface MarkdownRendererOptions {
  readonly limits?: MarkdownLimits;
  /** How long the worker may take to load before the preview gives up on it (ms). */
  readonly startTimeoutMs?: number;
  /** Tests stand another worker in (one that hangs, one that fails to load). */
  readonly startWorker?: () => Worker;
}

interface Job {
  readonly id: number;
  readonly source: string;
  readonly options: RenderMarkdownOptions;
  readonly settle: (parsed: ParsedMarkdown) => void;
  settled: boolean;
}

/**
 * What the page renders itself: 8 KiB at most, nested 16 levels at most, a tenth of the emphasis budget and a
 * tenth of the tag budget. The worst files inside these bounds take ~10 ms to render and as long to insert (marked
 * warm); most `.agent` files are far smaller, and render with no round trip and no empty box while a view mounts.
 */
export const onPageLimits = { chars: 8 * 1024, depth: 16, emphasisRun: 500, tags: 1_000 } as const;

const startBundledWorker = () =>
  new Worker(new URL('./markdown.worker.ts', import.meta.url), {
    type: 'module',
    name: 'agent-brain:markdown',
  });

export function createMarkdownRenderer(options: MarkdownRendererOptions = {}): MarkdownRenderer {
  const limits = options.limits ?? markdownLimits;
  const startTimeoutMs = options.startTimeoutMs ?? 20_000;
  const startWorker = options.startWorker ?? startBundledWorker;
  const queue: Job[] = [];
  let running: { job: Job; timer?: ReturnType<typeof setTimeout> } | null = null;
  let worker: Promise<Worker> | null = null;
  let live: Worker | null = null;
  let nextId = 1;

  const stopWorker = () => {
    live?.terminate();
    live = null;
    worker = null;
  };

  const finishRunning = (parsed: ParsedMarkdown) => {
    if (!running) return;
    const { job, timer } = running;
    clearTimeout(timer);
    running = null;
    job.settle(parsed);
    pump();
  };

  const onMessage = (event: MessageEvent<MarkdownWorkerMessage>) => {
    const message = event.data;
    if (message.type === 'done' && running?.job.id === message.id) finishRunning(message.parsed);
  };

  const onError = (event: ErrorEvent) => {
    // An error marked did not catch (parseMarkdown catches its own): this worker is done; so is its job.
    event.preventDefault();
    const message = event.message || 'the worker stopped';
    stopWorker();
    if (running) finishRunning(off({ kind: 'failed', message }));
  };

  function startOnce(): Promise<Worker> {
    if (worker) return worker;
    let started: Worker;
    try {
      started = startWorker();
    } catch (error) {
      return Promise.reject(error as Error);
    }
    live = started;
    const starting = new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`it did not load within ${startTimeoutMs} ms`)),
        startTimeoutMs,
      );
      started.onmessage = (event: MessageEvent<MarkdownWorkerMessage>) => {
        if (event.data.type !== 'ready') return;
        clearTimeout(timer);
        started.onmessage = onMessage;
        started.onerror = onError;
        resolve(started);
      };
      started.onerror = (event) => {
        event.preventDefault();
        clearTimeout(timer);
        reject(new Error(event.message || 'it failed to load'));
      };
    }).catch((error: unknown) => {
      started.terminate();
      // Only if it is still the current one: a start abandoned by close() must not stop its successor.
      if (worker === starting) {
        worker = null;
        live = null;
      }
      throw error;
    });
    worker = starting;
    return starting;
  }

  function pump() {
    if (running) return;
    const job = queue.shift();
    if (!job) return;
    // Held before the worker is ready, so that no second job overtakes this one meanwhile.
    running = { job };
    startOnce().then(
      (ready) => {
        if (running?.job !== job) return;
        ready.postMessage({
          id: job.id,
          source: job.source,
          frontMatter: job.options.frontMatter ?? 'show',
          limits,
        });
        running.timer = setTimeout(() => {
          stopWorker();
          finishRunning(off({ kind: 'time', limit: limits.timeMs }));
        }, limits.timeMs);
      },
      (error: unknown) => {
        if (running?.job !== job) return;
        finishRunning(off({ kind: 'unavailable', message: errorSummary(error) }));
      },
    );
  }

  return {
    renderNow(source, renderOptions = {}) {
      if (source.length > onPageLimits.chars) return null;
      const { depth, emphasisRun, tags } = onPageLimits;
      const parsed = parseMarkdown(source, renderOptions.frontMatter ?? 'show', {
        ...limits,
        depth,
        emphasisRun,
        tags,
      });
      // Over the page's stricter budgets: the worker decides, under the real ones.
      return parsed.kind === 'off' && parsed.off.kind !== 'failed' ? null : finishSafely(parsed, source);
    },
    render(source, renderOptions = {}, signal) {
      return new Promise<RenderedMarkdown>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const job: Job = {
          id: nextId++,
          source,
          options: renderOptions,
          settled: false,
          settle: (parsed) => {
            if (job.settled) return;
            job.settled = true;
            signal?.removeEventListener('abort', onAbort);
            resolve(finishSafely(parsed, source));
          },
        };
        const onAbort = () => {
          if (job.settled) return;
          job.settled = true;
          const queued = queue.indexOf(job);
          if (queued >= 0) queue.splice(queued, 1);
          // A job already in the worker runs on (inside its budget); its answer is dropped.
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(job);
        pump();
      });
    },
    close() {
      const closed = off({ kind: 'unavailable', message: 'the renderer was closed' });
      const queued = queue.splice(0);
      stopWorker();
      if (running) finishRunning(closed);
      for (const job of queued) job.settle(closed);
    },
  };
}

const off = (reason: MarkdownOff): ParsedMarkdown => ({ kind: 'off', off: reason });

/** Sanitising runs here, on the page: if even that fails, the text is still shown (and why). */
function finishSafely(parsed: ParsedMarkdown, source: string): RenderedMarkdown {
  try {
    return finishMarkdown(parsed, source);
  } catch (error) {
    return finishMarkdown(off({ kind: 'failed', message: errorSummary(error) }), source);
  }
}
