import { messageOf } from '../errors';

export interface Progress {
  /** What is happening now, in words ("Reading the file"). */
  readonly phase: string;
  readonly done: number;
  /** Unknown (an indeterminate bar) until the engine or the file says. */
  readonly total: number | null;
  readonly unit: 'bytes' | 'items';
}

export type ReportProgress = (progress: Progress) => void;

/**
 * One long-running user action (import, export, cleanup, vacuum, demo run): whether it runs, how far it is, and
 * how it ended. Only one run at a time: a second start while running is refused (the button is disabled anyway).
 */
export class Operation {
  running = $state(false);
  progress = $state.raw<Progress | null>(null);
  /** The failure of the last run, as a sentence for a person. */
  error = $state<string | null>(null);
  #mapError: (error: unknown) => string;

  constructor(mapError: (error: unknown) => string = messageOf) {
    this.#mapError = mapError;
  }

  /** Runs `work`; resolves with its result, or `undefined` when it failed (the error is then in `error`). */
  async run<T>(first: Progress, work: (report: ReportProgress) => Promise<T>): Promise<T | undefined> {
    if (this.running) return undefined;
    this.running = true;
    this.error = null;
    this.progress = first;
    try {
      return await work((progress) => {
        this.progress = progress;
      });
    } catch (error) {
      this.error = this.#mapError(error);
      return undefined;
    } finally {
      this.running = false;
      this.progress = null;
    }
  }
}
