/**
 * The agent's text waiting for its next tool call, per thread: what it said it would do becomes that call's
 * `thought` (its stated intention). Plain text wins over reasoning; reasoning is used when it said nothing else.
 * The time of the latest text is kept: text no call followed becomes a note of that time, not of the next item.
 */
import { bounded } from './naming';

/** What waits in one thread, as plain data (a follower keeps it with its resume point). */
export interface WaitingThought {
  readonly thread: string | null;
  readonly text: readonly string[];
  readonly reasoning: readonly string[];
  readonly at: number;
}

export function createThoughts(maxChars: number, from: readonly WaitingThought[] = []) {
  const said = new Map<string | null, { text: string[]; reasoning: string[]; at: number }>(
    from.map((w) => [w.thread, { text: [...w.text], reasoning: [...w.reasoning], at: w.at }]),
  );
  return {
    add(thread: string | null, text: string, reasoning: boolean, at: number) {
      if (text.trim() === '') return;
      const entry = said.get(thread) ?? { text: [], reasoning: [], at };
      (reasoning ? entry.reasoning : entry.text).push(bounded(text.trim(), maxChars));
      entry.at = at;
      said.set(thread, entry);
    },
    /** The text waiting in `thread` and the time it was said (then forgotten), or null. */
    take(thread: string | null): { readonly text: string; readonly at: number } | null {
      const entry = said.get(thread);
      if (!entry) return null;
      said.delete(thread);
      const parts = entry.text.length > 0 ? entry.text : entry.reasoning;
      return parts.length === 0 ? null : { text: bounded(parts.join('\n\n'), maxChars), at: entry.at };
    },
    threads: () => [...said.keys()],
    /** What waits now, to start another writer (after a reload) where this one stopped. */
    waiting: (): WaitingThought[] =>
      [...said].map(([thread, e]) => ({ thread, text: [...e.text], reasoning: [...e.reasoning], at: e.at })),
  };
}
