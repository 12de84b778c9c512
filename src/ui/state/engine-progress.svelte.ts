import type { EngineProgress } from '../../lib/index';
import type { BrainState } from './brain.svelte';
import type { Progress } from './operation.svelte';

const phaseText: Record<EngineProgress['operation'], Partial<Record<EngineProgress['phase'], string>>> = {
  compact: {
    reading: 'Compacting: reading pages',
    writing: 'Compacting: writing the compacted file (pages)',
  },
  importDatabase: { checking: 'Checking every page, before and after installing' },
};

/** An engine report as the progress bar shows it: words for the phase, counts in pages. */
export function engineProgressToProgress(p: EngineProgress): Progress {
  return { phase: phaseText[p.operation][p.phase] ?? p.phase, done: p.done, total: p.total, unit: 'items' };
}

/**
 * The engine's page counts for one long operation (compact, importDatabase), reported from inside the call.
 * The watch is registered while the panel is shown — before the call starts, since a call can reach its long
 * statement before a later registration is handled. `clear()` before each run so a finished run's last report
 * never shows for the next.
 */
export class EngineProgressWatch {
  latest = $state.raw<EngineProgress | null>(null);
  readonly #operation: EngineProgress['operation'];

  constructor(operation: EngineProgress['operation']) {
    this.#operation = operation;
  }

  start(source: BrainState): () => void {
    const brain = source.brain;
    if (!brain) return () => undefined;
    let stopped = false;
    let stop: (() => Promise<void>) | null = null;
    brain
      .watchProgress((p) => {
        if (!stopped && p.operation === this.#operation) this.latest = p;
      })
      .then(
        (unwatch) => {
          if (stopped) void unwatch();
          else stop = unwatch;
        },
        // Without the watch the bar stays indeterminate; a lost brain is said by the brain state.
        (error: unknown) => void source.fail(error),
      );
    return () => {
      stopped = true;
      void stop?.();
    };
  }

  clear(): void {
    this.latest = null;
  }

  /** The counts to show while `running`, or null (then the caller's own progress shows). */
  progress(running: boolean): Progress | null {
    return running && this.latest ? engineProgressToProgress(this.latest) : null;
  }
}
