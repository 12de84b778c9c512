import type { HistoryHit } from '../lib/index';

/**
 * How a history-search hit reads, without saying anything twice. The engine's document title leads with the
 * kind ("File change src/paginate.ts", "Decision", "Step 3: bash (error)") and its text often does too
 * ("Decision: …"); the result already shows the kind as a badge and the path on its own, so each is said once.
 */
export interface HitHeading {
  /** The kind, in words ("file change"); "superseded decision" once a later decision replaced it. */
  readonly badge: string;
  readonly superseded: boolean;
  /** What the title adds to the badge and the path (a check's name and result, a step's tool); null if nothing. */
  readonly title: string | null;
  readonly path: string | null;
  /** The snippet without a leading "Decision:"-style prefix that repeats the badge. */
  readonly snippet: string;
}

/** Words that lead an event's text for its kind (core/events/model.ts, describeEvent). */
const textPrefixes: Readonly<Record<string, string>> = {
  instruction: 'User',
  decision: 'Decision',
  blocker: 'Blocker',
  question: 'Question',
  progress: 'Progress',
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A word, possibly marked as a hit (`[Decision]`), then a colon: the prefix to drop. */
const markedPrefix = (word: string) => new RegExp(`^\\[?${escape(word)}\\]?:\\s*`, 'i');

export function hitHeading(
  hit: Pick<HistoryHit, 'kind' | 'title' | 'path' | 'snippet'>,
  superseded = false,
): HitHeading {
  const kind = hit.kind.replace(/_/g, ' ');
  let title = hit.title.trim();
  const step = /^Step (\d+):\s*(.*)$/i.exec(title);
  if (step) title = `#${step[1]} ${step[2]}`;
  else title = title.replace(new RegExp(`^${escape(kind)}:?\\s*`, 'i'), '');
  if (hit.path) {
    const at = title.indexOf(hit.path);
    if (at >= 0) title = `${title.slice(0, at)}${title.slice(at + hit.path.length)}`;
  }
  title = title.replace(/\s+/g, ' ').trim();
  const prefix = textPrefixes[hit.kind];
  const snippet = prefix ? hit.snippet.replace(markedPrefix(prefix), '') : hit.snippet;
  return {
    badge: superseded ? `superseded ${kind}` : kind,
    superseded,
    title: title === '' || title.toLowerCase() === kind ? null : title,
    path: hit.path,
    snippet,
  };
}

/**
 * The decisions among `hits` that a later decision replaced: event id → the id of the decision replacing it.
 * `later` are decisions of the same sessions recorded after the earliest hit (listEvents' `supersedes`).
 */
export function supersededDecisions(
  hits: readonly Pick<HistoryHit, 'kind' | 'eventId'>[],
  later: readonly { readonly id: number; readonly kind: string; readonly supersedes?: number | null }[],
): ReadonlyMap<number, number> {
  const wanted = new Set(
    hits.filter((h) => h.kind === 'decision' && h.eventId !== null).map((h) => h.eventId),
  );
  const replaced = new Map<number, number>();
  for (const event of later) {
    const target = event.kind === 'decision' ? event.supersedes : null;
    if (target !== null && target !== undefined && wanted.has(target as HistoryHit['eventId'])) {
      if (!replaced.has(target)) replaced.set(target, event.id);
    }
  }
  return replaced;
}

/** The search box's example: words that find something in the built-in demo (test/unit checks they do). */
export const searchExamples = ['cursor', 'paginate.ts', 'npm test'] as const;
