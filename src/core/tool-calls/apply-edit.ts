/**
 * Replaying an effect: a known before-body and a file effect → the after-body, or the reason it cannot be told.
 * Pure and bounded: exact string search for replacements, line matching for patch hunks (refused past
 * `maxMatchWork` line comparisons), literal sed substitutions only. Never throws.
 */
import type { FileEffect, TextEdit } from './effect-types';
import { applyHunks } from './effects/apply-hunks';
import { replaySed } from './effects/sed';
import { applyUnifiedDiff } from './effects/unified-diff';

export type ApplyResult =
  { readonly ok: true; readonly after: string | null } | { readonly ok: false; readonly reason: string };

const fail = (reason: string): ApplyResult => ({ ok: false, reason });

/**
 * The body after `effect`, given the body before it (null: the file did not exist, or is not known). For a
 * `move` or `copy`, `before` is the body at `from`; `delete` gives null.
 */
export function applyEdit(before: string | null, effect: FileEffect): ApplyResult {
  try {
    return applyEffect(before, effect);
  } catch (error) {
    // Defence in depth: nothing below is meant to throw; if it does, the caller still gets a reason.
    return fail(`internal error: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function applyEffect(before: string | null, effect: FileEffect): ApplyResult {
  switch (effect.kind) {
    case 'write':
      return effect.body === null
        ? fail('the call does not show the text it wrote')
        : { ok: true, after: effect.body };
    case 'append':
      return effect.text === null
        ? fail('the call does not show the text it appended')
        : { ok: true, after: (before ?? '') + effect.text };
    case 'edit': {
      if (before === null) return fail('an edit needs the body before it');
      let body = before;
      for (const edit of effect.edits) {
        const result = applyTextEdit(body, edit);
        if (!result.ok) return result;
        body = result.after ?? '';
      }
      return { ok: true, after: body };
    }
    case 'delete':
      return { ok: true, after: null };
    case 'move':
    case 'copy':
      return before === null ? fail(`the body of ${effect.from} is not known`) : { ok: true, after: before };
    case 'touch':
      return { ok: true, after: before ?? '' };
    case 'mkdir':
      return fail('a directory has no body');
    case 'restore':
      return fail('restored from version control: the committed body is not known here');
    case 'modify':
      return fail(`not replayable: ${effect.how}`);
    case 'bulk':
      return fail(`not replayable: ${effect.how}`);
    case 'shown':
      return fail(`evidence of an earlier change, not an edit: ${effect.how}`);
    default: {
      const unknown: never = effect;
      return fail(`unknown effect ${JSON.stringify(unknown)}`);
    }
  }
}

/** One text edit applied to `before`. */
export function applyTextEdit(before: string, edit: TextEdit): ApplyResult {
  switch (edit.type) {
    case 'replace': {
      if (edit.old === '')
        return before === '' ? { ok: true, after: edit.new } : fail('an empty old text only creates a file');
      const at = before.indexOf(edit.old);
      if (at < 0) return fail('the old text is not in the body');
      if (edit.all) return { ok: true, after: before.split(edit.old).join(edit.new) };
      return { ok: true, after: before.slice(0, at) + edit.new + before.slice(at + edit.old.length) };
    }
    case 'search-replace': {
      let body = before;
      for (const block of edit.blocks) {
        const next = searchReplace(body, block.search, block.replace);
        if (next === null) return fail('a SEARCH block is not in the body');
        body = next;
      }
      return { ok: true, after: body };
    }
    case 'insert': {
      const lines = before.split('\n');
      if (!Number.isInteger(edit.afterLine) || edit.afterLine < 0 || edit.afterLine > lines.length) {
        return fail(`line ${edit.afterLine} is outside the body (${lines.length} lines)`);
      }
      const head = lines.slice(0, edit.afterLine).join('\n');
      const tail = lines.slice(edit.afterLine).join('\n');
      const parts = [
        ...(edit.afterLine > 0 ? [head] : []),
        edit.text,
        ...(edit.afterLine < lines.length ? [tail] : []),
      ];
      return { ok: true, after: parts.join('\n') };
    }
    case 'lines': {
      const lines = before.split('\n');
      const { start, end } = edit;
      if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || start > lines.length + 1)
        return fail(`lines ${start}:${end} are outside the body (${lines.length} lines)`);
      const replaced = edit.text === '' ? [] : edit.text.split('\n');
      const after = [...lines.slice(0, start - 1), ...replaced, ...lines.slice(Math.max(end, start - 1))];
      return { ok: true, after: after.join('\n') };
    }
    case 'hunks':
      return applyHunks(before, edit.chunks);
    case 'unified-diff':
      return applyUnifiedDiff(before, edit.diff);
    case 'sed':
      return edit.substitutions === null
        ? fail('the sed script is more than literal s/a/b/ substitutions')
        : { ok: true, after: replaySed(before, edit.substitutions) };
    default: {
      const unknown: never = edit;
      return fail(`unknown edit ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Cline's matching: an empty search replaces the whole body; else the exact text; else the same lines with
 * leading and trailing white space ignored. Null when neither is found.
 */
function searchReplace(body: string, search: string, replace: string): string | null {
  if (search === '') return replace;
  const at = body.indexOf(search);
  if (at >= 0) return body.slice(0, at) + replace + body.slice(at + search.length);
  if (search.endsWith('\n') && body.endsWith(search.slice(0, -1))) {
    return body.slice(0, body.length - search.length + 1) + replace.replace(/\n$/, '');
  }
  const bodyLines = body.split('\n');
  const wanted = search.split('\n');
  if (wanted[wanted.length - 1] === '') wanted.pop();
  if (wanted.length === 0 || bodyLines.length * wanted.length > 50_000_000) return null;
  const trimmed = wanted.map((l) => l.trim());
  for (let i = 0; i + wanted.length <= bodyLines.length; i++) {
    let match = true;
    for (let j = 0; j < wanted.length && match; j++)
      match = (bodyLines[i + j] as string).trim() === trimmed[j];
    if (!match) continue;
    const middle = (replace.endsWith('\n') ? replace.slice(0, -1) : replace).split('\n');
    return [...bodyLines.slice(0, i), ...middle, ...bodyLines.slice(i + wanted.length)].join('\n');
  }
  return null;
}

/** The one place `text` occurs in `body`, or -1 when it is empty, absent, or there more than once. */
function onlyPlace(body: string, text: string): number {
  if (text === '') return -1;
  const at = body.indexOf(text);
  return at >= 0 && body.indexOf(text, at + 1) < 0 ? at : -1;
}

/**
 * The body before `edits`, told from the body after them — for an edit whose tool returned the file it saved (Cline's
 * `replace_in_file`, Roo's `apply_diff`) when the body before it was never seen (the agent's first edit of a file it
 * did not read whole): each replacement, taken back from the last, must stand in exactly one place of the body, and
 * the edits replayed onto the result must give the body after exactly. Else null: not told (never a guess).
 */
export function unapplyEdits(after: string, edits: readonly TextEdit[]): string | null {
  // A file with CRLF line ends (Windows) edited by blocks written with LF (the model's): taken back on its lines,
  // and the body before keeps the file's line ends.
  if (after.includes('\r\n') && !/(?:^|[^\r])\n/.test(after)) {
    const lf = (text: string) => text.replaceAll('\r\n', '\n');
    const told = unapplyExact(
      lf(after),
      edits.map((e) => lfEdit(e, lf)),
    );
    return told === null ? null : told.replaceAll('\n', '\r\n');
  }
  return unapplyExact(after, edits);
}

function lfEdit(edit: TextEdit, lf: (text: string) => string): TextEdit {
  if (edit.type === 'replace') return { ...edit, old: lf(edit.old), new: lf(edit.new) };
  if (edit.type === 'search-replace')
    return { ...edit, blocks: edit.blocks.map((b) => ({ search: lf(b.search), replace: lf(b.replace) })) };
  return edit;
}

function unapplyExact(after: string, edits: readonly TextEdit[]): string | null {
  const steps: { readonly old: string; readonly new: string }[] = [];
  for (const edit of edits) {
    if (edit.type === 'replace' && !edit.all) steps.push({ old: edit.old, new: edit.new });
    else if (edit.type === 'search-replace')
      for (const block of edit.blocks) steps.push({ old: block.search, new: block.replace });
    else return null;
  }
  if (steps.length === 0) return null;
  let body = after;
  for (const step of [...steps].reverse()) {
    const at = onlyPlace(body, step.new);
    if (at < 0) return null;
    body = body.slice(0, at) + step.old + body.slice(at + step.new.length);
  }
  let replayed = body;
  for (const edit of edits) {
    const result = applyTextEdit(replayed, edit);
    if (!result.ok || result.after === null) return null;
    replayed = result.after;
  }
  return replayed === after ? body : null;
}
