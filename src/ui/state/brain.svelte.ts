import { isBrainError, openBrain, type Brain, type BrainChange, type BrainInfo } from '../../lib/index';
import { messageOf } from '../errors';
import { createRefresher } from './refresher';

export type BrainStatus = 'opening' | 'open' | 'elsewhere' | 'taken-over' | 'stopped' | 'error';

export interface BrainStateOptions {
  /** The database in OPFS; the app uses the default `agent.db`, tests their own. */
  readonly dbName?: string;
  readonly closeOnPageHide?: boolean;
  /** Called with each newly opened client (the app exposes it as `globalThis.agentBrain`). */
  readonly onOpen?: (brain: Brain) => void;
}

type ChangeListener = (change: BrainChange) => void;

/**
 * The app's connection to its brain: who owns the database, the storage facts, and a fan-out of the engine's
 * change announcements to the view states. A reopen (taking the brain back) announces a `database` change so
 * every view fetches again.
 */
export class BrainState {
  status = $state<BrainStatus>('opening');
  /** Why opening failed (status `error`). */
  error = $state<string | null>(null);
  /** The failure's code (status `error`), e.g. `BrainMissing`: the notice then offers what fits. */
  errorCode = $state<string | null>(null);
  info = $state.raw<BrainInfo | null>(null);
  brain = $state.raw<Brain | null>(null);
  /** Whether any session exists (null until known): an empty brain opens on the demo. */
  hasSessions = $state<boolean | null>(null);
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- plain bookkeeping, nothing renders from it
  #listeners = new Set<ChangeListener>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- plain bookkeeping, nothing renders from it
  #writers = new Set<() => Promise<void>>();
  /** The open client, kept after a take-over (when `brain` is null) so reopening can stop its worker. */
  #client: Brain | null = null;
  #unsubscribe: (() => Promise<void>) | null = null;
  #options: BrainStateOptions;
  #info = createRefresher(
    () => this.#loadInfo(),
    (error) => this.fail(error),
  );

  constructor(options: BrainStateOptions = {}) {
    this.#options = options;
  }

  /** `startEmpty`: the person chose to start over where the kept brain is missing (`BrainMissing`). */
  async open(takeOver = false, startEmpty = false): Promise<void> {
    this.status = 'opening';
    this.error = null;
    this.errorCode = null;
    await this.#release();
    try {
      const brain = await openBrain({
        takeOver,
        ...(startEmpty ? { startEmpty } : {}),
        ...(this.#options.dbName === undefined ? {} : { dbName: this.#options.dbName }),
        ...(this.#options.closeOnPageHide === undefined
          ? {}
          : { closeOnPageHide: this.#options.closeOnPageHide }),
        onOwnerEvent: (event) => {
          if (event.kind === 'taken-over') this.#lost();
          else if (event.kind === 'worker-lost') this.#lost('stopped');
        },
      });
      this.#client = brain;
      this.brain = brain;
      this.#options.onOpen?.(brain);
      this.#unsubscribe = await brain.subscribe((change) => this.#announce(change));
      const [info, sessions] = await Promise.all([brain.info(), brain.listSessions()]);
      this.info = info;
      this.hasSessions = sessions.length > 0;
      this.status = 'open';
      this.#announce({ topic: 'database' });
    } catch (error) {
      if (isBrainError(error, 'OpenElsewhere')) {
        this.status = 'elsewhere';
      } else {
        this.status = 'error';
        this.error = messageOf(error);
        this.errorCode = isBrainError(error) ? error.code : null;
      }
    }
  }

  /** Listen to the engine's committed changes (and reopenings); returns the unsubscribe function. */
  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Something in this page that writes on its own (the demo agent): `stop` is awaited before the whole database
   * is replaced, so nothing goes on writing into the imported brain. Returns the unregister function.
   */
  registerWriter(stop: () => Promise<void>): () => void {
    this.#writers.add(stop);
    return () => this.#writers.delete(stop);
  }

  /** Stops every registered writer (see `registerWriter`); call before importing over the current brain. */
  async stopWriters(): Promise<void> {
    await Promise.all([...this.#writers].map((stop) => stop()));
  }

  /** For view states: a failed call that means this tab lost the brain flips the status; others are returned. */
  fail(error: unknown): string {
    if (isBrainError(error, 'OpenElsewhere') || isBrainError(error, 'Closed')) {
      if (this.status === 'open') this.#lost();
    }
    return messageOf(error);
  }

  /** Resolves once the storage facts reflect every change announced so far. */
  settled(): Promise<void> {
    return this.#info.settled();
  }

  async close(): Promise<void> {
    await this.#release();
    this.status = 'opening';
  }

  #announce(change: BrainChange) {
    this.#info.request();
    for (const listener of this.#listeners) listener(change);
  }

  async #loadInfo() {
    const brain = this.brain;
    if (!brain || this.status !== 'open') return;
    const [info, sessions] = await Promise.all([brain.info(), brain.listSessions()]);
    if (brain !== this.brain) return;
    this.info = info;
    this.hasSessions = sessions.length > 0;
  }

  #lost(status: 'taken-over' | 'stopped' = 'taken-over') {
    this.status = status;
    this.brain = null;
    this.#info.cancel();
  }

  async #release() {
    const brain = this.#client;
    const unsubscribe = this.#unsubscribe;
    this.#client = null;
    this.brain = null;
    this.#unsubscribe = null;
    this.#info.cancel();
    await unsubscribe?.().catch(() => undefined);
    await brain?.close().catch(() => undefined);
  }
}
