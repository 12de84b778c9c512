/**
 * Unsaved edits by file path, as immutable maps: a `$state.raw` holding one is replaced, never mutated, so every
 * change is a new value the UI sees.
 */
export type Drafts = ReadonlyMap<string, string>;

export const noDrafts: Drafts = new Map();

/** `text` as the draft of `path`, or no draft when it equals what is on disk. */
export function withDraft(drafts: Drafts, path: string, text: string, onDisk: string | undefined): Drafts {
  const next = new Map(drafts);
  if (text === onDisk) next.delete(path);
  else next.set(path, text);
  return next;
}

export function withoutDraft(drafts: Drafts, path: string): Drafts {
  if (!drafts.has(path)) return drafts;
  const next = new Map(drafts);
  next.delete(path);
  return next;
}
