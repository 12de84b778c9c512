import type { SizeHistory } from '../../lib/index';
import type { BrainState } from './brain.svelte';
import { createRefresher } from './refresher';

/**
 * The growth chart's data: the engine's size samples. Fetched when the chart starts, whenever the engine says it
 * recorded a sample (topic `sizes`: samples are taken after a call's own change notices) and on `refresh()`.
 */
export class SizeHistoryState {
  history = $state.raw<SizeHistory | null>(null);
  error = $state<string | null>(null);
  #source: BrainState;
  #refresher = createRefresher(
    () => this.#load(),
    (error) => {
      this.error = this.#source.fail(error);
    },
    60,
  );

  constructor(source: BrainState) {
    this.#source = source;
  }

  /** Fetches now and again whenever the engine records a sample; returns the stop function. */
  start(): () => void {
    const unlisten = this.#source.onChange((change) => {
      if (change.topic === 'sizes' || change.topic === 'database') this.#refresher.request();
    });
    this.#refresher.request();
    return () => {
      unlisten();
      this.stop();
    };
  }

  refresh(): void {
    this.#refresher.request();
  }

  stop(): void {
    this.#refresher.cancel();
  }

  settled(): Promise<void> {
    return this.#refresher.settled();
  }

  async #load(): Promise<void> {
    const brain = this.#source.brain;
    if (!brain) return;
    this.history = await brain.sizeHistory();
    this.error = null;
  }
}
