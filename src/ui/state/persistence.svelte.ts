import type { BrainState } from './brain.svelte';

/** The part of `navigator.storage` used here (the browser's StorageManager; a fake in tests). */
export type PersistenceApi = Pick<StorageManager, 'persist' | 'persisted'>;
type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

/** This browser asked for persistent storage once on its own (a UI setting in localStorage, never agent.db). */
export const persistAskedKey = 'agent-brain.persist-asked';

function browserStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function browserStorage(): PersistenceApi | null {
  const storage = globalThis.navigator?.storage;
  return storage && typeof storage.persist === 'function' && typeof storage.persisted === 'function'
    ? storage
    : null;
}

/**
 * Whether the browser keeps this origin's data under storage pressure ("persistent") or may evict it ("best
 * effort"), and asking it to keep it. The app asks once by itself, at the first real write (there is data worth
 * keeping then): Chromium answers silently from its own heuristics (a site used often, bookmarked or installed),
 * Firefox asks the person — so never more than once. After that only the button asks.
 */
export class PersistenceState {
  /** null while unknown, or where the browser has no StorageManager. */
  persisted = $state<boolean | null>(null);
  asking = $state(false);
  /** The browser said no to the last request made from the button. */
  declined = $state(false);
  readonly supported: boolean;
  #source: BrainState;
  #storage: PersistenceApi | null;
  #store: KeyValueStore | null;
  #users = 0;
  #stop: (() => void) | null = null;
  #askedThisVisit = false;

  constructor(
    source: BrainState,
    storage: PersistenceApi | null = browserStorage(),
    store: KeyValueStore | null = browserStore(),
  ) {
    this.#source = source;
    this.#storage = storage;
    this.#store = store;
    this.supported = storage !== null;
  }

  /** Reads the state now and watches for the first real write; several components may start it (counted). */
  start(): () => void {
    this.#users++;
    if (this.#users === 1) {
      // The `database` announcement also comes with opening; every other topic is a committed write.
      this.#stop = this.#source.onChange((change) => {
        if (change.topic !== 'database') void this.#askOnce();
      });
      void this.refresh();
    }
    return () => {
      this.#users--;
      if (this.#users === 0) {
        this.#stop?.();
        this.#stop = null;
      }
    };
  }

  async refresh(): Promise<void> {
    if (!this.#storage) return;
    this.persisted = await this.#storage.persisted().catch(() => null);
  }

  /** Asks the browser to keep this origin's data (from a click). Resolves with its answer. */
  async request(): Promise<boolean | null> {
    if (!this.#storage || this.asking) return null;
    this.asking = true;
    this.#remember();
    try {
      const granted = await this.#storage.persist().catch(() => false);
      this.persisted = granted;
      this.declined = !granted;
      return granted;
    } finally {
      this.asking = false;
    }
  }

  async #askOnce(): Promise<void> {
    if (!this.#storage || this.persisted !== false || this.#askedThisVisit) return;
    this.#askedThisVisit = true;
    if (this.#store?.getItem(persistAskedKey)) return;
    this.#remember();
    this.persisted = await this.#storage.persist().catch(() => false);
  }

  #remember() {
    try {
      this.#store?.setItem(persistAskedKey, String(Date.now()));
    } catch {
      // Without the note the app may ask once more on a later visit; nothing else is lost.
    }
  }
}

const statesByBrain = new WeakMap<BrainState, PersistenceState>();

/** One persistence state per brain: the status bar and the storage view show (and ask) through the same one. */
export function persistenceFor(brain: BrainState): PersistenceState {
  let state = statesByBrain.get(brain);
  if (!state) {
    state = new PersistenceState(brain);
    statesByBrain.set(brain, state);
  }
  return state;
}
