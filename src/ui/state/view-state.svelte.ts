import type { BrainChange } from '../../lib/index';
import type { BrainState } from './brain.svelte';
import { createRefresher, type Refresher } from './refresher';

/**
 * What every view state that shows engine data shares: `load()` fetches (coalesced by a refresher: at most one
 * fetch in flight and one queued), `start()` fetches now and again after each engine change the view `wants`
 * (all by default) until the returned function stops it, `refresh()` asks for a fetch, and `settled()` resolves
 * once none is scheduled or running. A failed fetch is said in `error`, after `BrainState.fail` has seen it (a
 * lost brain flips the app's status).
 */
export abstract class ViewState {
  error = $state<string | null>(null);
  protected readonly source: BrainState;
  readonly #refresher: Refresher;

  /** `delayMs`: how long a request waits for more to join it (see refresher.ts). */
  constructor(source: BrainState, delayMs?: number) {
    this.source = source;
    this.#refresher = createRefresher(
      () => this.load(),
      (error) => {
        this.error = this.source.fail(error);
      },
      delayMs,
    );
  }

  /** Fetches now and after every change the view wants; returns the function that stops. */
  start(): () => void {
    const stop = this.source.onChange((change) => {
      if (this.wants(change)) this.#refresher.request();
    });
    this.#refresher.request();
    return () => {
      stop();
      this.#refresher.cancel();
    };
  }

  refresh(): void {
    this.#refresher.request();
  }

  /** Resolves once what is shown reflects every request (and every wanted change) so far. */
  settled(): Promise<void> {
    return this.#refresher.settled();
  }

  /** Whether an engine change may alter what this view shows. */
  protected wants(_change: BrainChange): boolean {
    return true;
  }

  protected abstract load(): Promise<void>;
}
