import type { BrainChange, SizeHistory } from '../../lib/index';
import type { BrainState } from './brain.svelte';
import { ViewState } from './view-state.svelte';

/**
 * The growth chart's data: the engine's size samples. Fetched when the chart starts, whenever the engine says it
 * recorded a sample (topic `sizes`: samples are taken after a call's own change notices) and on `refresh()`.
 */
export class SizeHistoryState extends ViewState {
  history = $state.raw<SizeHistory | null>(null);

  constructor(source: BrainState) {
    super(source, 60);
  }

  /** A new sample (or a new database): the chart is fetched again. */
  protected override wants(change: BrainChange): boolean {
    return change.topic === 'sizes' || change.topic === 'database';
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    this.history = await brain.sizeHistory();
    this.error = null;
  }
}
