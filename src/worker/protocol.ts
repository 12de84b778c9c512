/**
 * The worker's own contract: the engine's API (declared once, in `src/core/api`) behind an explicit open/close with
 * one owner per database. Callers (the lib) import the API types from here or from core/api: they are the same.
 */
import type { BrainApi, BrainInfo } from '../core/api';

export * from '../core/api';

export interface OpenOptions {
  /** The database file name in OPFS; default `agent.db`. */
  readonly dbName?: string;
  /** Take the brain over from another tab that holds it. */
  readonly takeOver?: boolean;
  /** Open an empty brain where the kept one is missing (otherwise that is refused with `BrainMissing`). */
  readonly startEmpty?: boolean;
  /**
   * A token naming this opening (`openBrain` makes one): the worker holds the lock `holderLockName(dbName, holder)`
   * for as long as it owns the database, so the page that comes after this one in the tab can recognise it.
   */
  readonly holder?: string;
  /**
   * The holder tokens of pages this tab showed before, which let go of the brain when they were hidden (a reload,
   * a navigation). Stopping a worker takes a moment after its page is gone: if the owner lock is still held by the
   * worker of one of them, the new worker waits for it to end (queued on the lock, not stealing it: that worker may
   * still have the files open) instead of refusing with `OpenElsewhere`. A lock held by anyone else (another tab) is
   * still refused.
   */
  readonly leftBy?: readonly string[];
}

/**
 * What happened to this page's hold on the brain: another tab took it over, it was closed, or its worker stopped
 * without being asked (the browser ended it — e.g. out of memory — or it crashed): then the page gets the owner
 * lock (below) that the worker held, and every call still waiting is rejected with `Closed`.
 */
export type OwnerEvent =
  { readonly kind: 'taken-over' } | { readonly kind: 'closed' } | { readonly kind: 'worker-lost' };

/** What the worker exposes: the engine, behind an explicit open/close with one owner per database. */
export interface WorkerHost {
  /** Resolves once this worker owns the database; rejects with `OpenElsewhere` if another tab holds it. */
  open(options: OpenOptions, onOwnerEvent?: (event: OwnerEvent) => void): Promise<BrainInfo>;
  close(): Promise<void>;
}

export type BrainWorker = WorkerHost & BrainApi;
