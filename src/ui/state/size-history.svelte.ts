import type { SizeHistory } from '../../lib/index';
import type { BrainState } from './brain.svelte';
import { createRefresher } from './refresher';

/**
 * The growth chart's data: the engine's size samples. Fetched when the chart starts and whenever `refresh()` is
 * called — the storage view calls it each time its audit is refreshed, which follows every change and every
 * cleanup, upkeep or compaction (the engine takes its samples inside those calls, so they are there by then).
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
