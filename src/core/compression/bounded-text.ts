/**
 * Texts the active checkpoint repeats (an instruction in the next action, the agent's stated intention) are
 * bounded: the first lines up to ~300 characters, then where the whole text is — `… (full text: event #N)` — so a
 * problem statement of 4,000 characters never becomes the next action, and nothing is lost.
 */
import type { EventId } from '../ids';

export const MAX_REPEATED_CHARS = 300;

/** The first lines of `text` that fit in `max` characters (a first line past it is cut at a word). */
export function firstLines(text: string, max = MAX_REPEATED_CHARS): { text: string; cut: boolean } {
  const trimmed = text.trim();
  if (trimmed.length <= max) return { text: trimmed, cut: false };
  const kept: string[] = [];
  let used = 0;
  for (const line of trimmed.split('\n')) {
    const clean = line.trimEnd();
    if (used + clean.length + (kept.length > 0 ? 1 : 0) > max) break;
    kept.push(clean);
    used += clean.length + 1;
  }
  while (kept.length > 0 && (kept.at(-1) as string).trim() === '') kept.pop();
  if (kept.length > 0) return { text: kept.join('\n'), cut: true };
  const head = trimmed.slice(0, max);
  const space = head.lastIndexOf(' ');
  return { text: (space > max / 2 ? head.slice(0, space) : head).trimEnd(), cut: true };
}

/** `text` bounded, with a pointer to its event when it was cut. */
export function boundedText(text: string, eventId: EventId, max = MAX_REPEATED_CHARS): string {
  const { text: head, cut } = firstLines(text, max);
  return cut ? `${head} … (full text: event #${eventId})` : head;
}

/** The same on one line (for a sentence or a list item): line breaks become spaces. */
export const boundedInline = (text: string, eventId: EventId, max = MAX_REPEATED_CHARS) =>
  boundedText(text, eventId, max).replace(/\s*\n\s*/g, ' ');
