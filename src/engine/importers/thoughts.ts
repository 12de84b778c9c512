/**
 * The agent's text waiting for its next tool call, per thread: what it said it would do becomes that call's
 * `thought` (its stated intention). Plain text wins over reasoning; reasoning is used when it said nothing else.
 */
import { bounded } from './naming';

export function createThoughts(maxChars: number) {
  const said = new Map<string | null, { text: string[]; reasoning: string[] }>();
  return {
    add(thread: string | null, text: string, reasoning: boolean) {
      if (text.trim() === '') return;
      const entry = said.get(thread) ?? { text: [], reasoning: [] };
      (reasoning ? entry.reasoning : entry.text).push(bounded(text.trim(), maxChars));
      said.set(thread, entry);
    },
    /** The text waiting in `thread` (then forgotten), or null. */
    take(thread: string | null): string | null {
      const entry = said.get(thread);
      if (!entry) return null;
      said.delete(thread);
      const parts = entry.text.length > 0 ? entry.text : entry.reasoning;
      return parts.length === 0 ? null : bounded(parts.join('\n\n'), maxChars);
    },
    threads: () => [...said.keys()],
  };
}
