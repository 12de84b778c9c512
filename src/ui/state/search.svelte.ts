import type { HistoryHit } from '../../lib/index';
import type { BrainState } from './brain.svelte';
import { ViewState } from './view-state.svelte';

/** History search: the query (from the route), its ranked hits, and how the words matched. */
export class SearchState extends ViewState {
  query = $state('');
  hits = $state.raw<readonly HistoryHit[]>([]);
  matched = $state<'all' | 'any' | 'none' | null>(null);
  /** Session and task titles, to say where a hit comes from. */
  sessionTitles = $state.raw<Readonly<Record<number, string>>>({});
  searching = $state(false);
  elapsedMs = $state<number | null>(null);

  constructor(source: BrainState) {
    super(source, 0);
  }

  search(query: string): void {
    if (query === this.query && this.matched !== null) return;
    this.query = query;
    this.refresh();
  }

  /** Runs the query (the route's); a search that finishes after the query changed is dropped. */
  protected async load(): Promise<void> {
    const brain = this.source.brain;
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
