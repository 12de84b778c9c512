import type { Brain, HistoryHit } from '../../lib/index';
import { supersededDecisions } from '../search-hit';
import type { BrainState } from './brain.svelte';
import { ViewState } from './view-state.svelte';

// Replaced whole on each search ($state.raw), never changed in place.
const noneSuperseded: ReadonlyMap<number, number> = new Map();

/** History search: the query (from the route), its ranked hits, and how the words matched. */
export class SearchState extends ViewState {
  query = $state('');
  hits = $state.raw<readonly HistoryHit[]>([]);
  matched = $state<'all' | 'any' | 'none' | null>(null);
  /** Session and task titles, to say where a hit comes from. */
  sessionTitles = $state.raw<Readonly<Record<number, string>>>({});
  /** Decision hits a later decision replaced: event id → the replacing decision's id. */
  superseded = $state.raw<ReadonlyMap<number, number>>(noneSuperseded);
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
      const superseded = await laterDecisions(brain, hits);
      if (query !== this.query.trim()) return;
      this.elapsedMs = performance.now() - started;
      this.hits = hits;
      this.superseded = superseded;
      this.matched = matched;
      this.sessionTitles = Object.fromEntries(sessions.map((s) => [s.id, s.title]));
      this.error = null;
    } finally {
      this.searching = false;
    }
  }
}

/** Which decision hits were superseded: the later decisions of each hit's session, read once per session. */
async function laterDecisions(
  brain: Brain,
  hits: readonly HistoryHit[],
): Promise<ReadonlyMap<number, number>> {
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local, never reactive
  const firstBySession = new Map<NonNullable<HistoryHit['sessionId']>, NonNullable<HistoryHit['eventId']>>();
  for (const hit of hits) {
    if (hit.kind !== 'decision' || hit.eventId === null || hit.sessionId === null) continue;
    const first = firstBySession.get(hit.sessionId);
    if (first === undefined || hit.eventId < first) firstBySession.set(hit.sessionId, hit.eventId);
  }
  const later = await Promise.all(
    [...firstBySession].map(([sessionId, afterId]) =>
      brain.listEvents(sessionId, { kinds: ['decision'], afterId }),
    ),
  );
  return supersededDecisions(hits, later.flat());
}
