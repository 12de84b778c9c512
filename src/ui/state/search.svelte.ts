import type { HistoryHit } from '../../lib/index';
import type { BrainState } from './brain.svelte';
import { createRefresher } from './refresher';

/** History search: the query (from the route), its ranked hits, and how the words matched. */
export class SearchState {
  query = $state('');
  hits = $state.raw<readonly HistoryHit[]>([]);
  matched = $state<'all' | 'any' | 'none' | null>(null);
  /** Session and task titles, to say where a hit comes from. */
  sessionTitles = $state.raw<Readonly<Record<number, string>>>({});
  searching = $state(false);
  error = $state<string | null>(null);
  elapsedMs = $state<number | null>(null);

  #source: BrainState;
  #refresher = createRefresher(
    () => this.#search(),
    (error) => {
      this.error = this.#source.fail(error);
    },
    0,
  );

  constructor(source: BrainState) {
    this.#source = source;
  }

  search(query: string): void {
    if (query === this.query && this.matched !== null) return;
    this.query = query;
    this.#refresher.request();
  }

  settled(): Promise<void> {
    return this.#refresher.settled();
  }

  async #search(): Promise<void> {
    const brain = this.#source.brain;
    const query = this.query.trim();
    if (!brain) return;
    if (query === '') {
      this.hits = [];
      this.matched = null;
      return;
    }
    this.searching = true;
    try {
      const started = performance.now();
      const [{ hits, matched }, sessions] = await Promise.all([
        brain.searchHistory(query, { limit: 50 }),
        brain.listSessions(),
      ]);
      if (query !== this.query.trim()) return;
      this.elapsedMs = performance.now() - started;
      this.hits = hits;
      this.matched = matched;
      this.sessionTitles = Object.fromEntries(sessions.map((s) => [s.id, s.title]));
      this.error = null;
    } finally {
      this.searching = false;
    }
  }
}
