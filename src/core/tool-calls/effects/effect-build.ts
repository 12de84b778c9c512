/**
 * Building edit effects: an `edit` effect with its before/after bodies filled from Claude Code's result when it
 * carries the original file (`originalFile`), replayed with `applyEdit`.
 */
import { applyEdit } from '../apply-edit';
import type { FileEffect, TextEdit } from '../effect-types';
import type { Fields } from '../json-input';
import { str } from '../json-input';

/** Fill `before`/`after` from Claude Code's result when it carries the original body. */
export function withBodies(effect: FileEffect, result: Fields | null): FileEffect {
  const original = str(result, 'originalFile', 'originalFileContents');
  if (original === null) return effect;
  const applied = applyEdit(original, effect);
  return { ...effect, before: original, after: applied.ok ? applied.after : null };
}

export function edit(path: string, via: string, edits: TextEdit[], result: Fields | null): FileEffect {
  return withBodies({ kind: 'edit', path, via, change: 'modified', edits, replayable: true }, result);
}
