/**
 * What an agent's own compaction summary left out that the brain still holds (issue 30): after Claude Code or
 * Codex compacts its context, the agent works from its summary alone — files it changed, checks it ran, the check
 * that fails, decisions, the last command are gone unless the summary says them. A fact counts as said when the
 * summary names it: a file by its path or its file name, a check or a command by its command line (whitespace
 * ignored) or, for a long one, its first words, a decision by most of its longer words. Deliberately literal: it
 * says what the summary does not name, not what it means.
 */
import type { EventId, StepId } from '../ids';
import type { ActiveCheckpoint } from './model';

export type LeftOutKind = 'file' | 'check' | 'failing_check' | 'decision' | 'last_command' | 'blocker';

export interface LeftOut {
  readonly kind: LeftOutKind;
  /** One line a person reads: `src/report.ts (modified, 3 edits)`, `npx vitest run — failed`. */
  readonly text: string;
  /** The event that holds it (a file's last change, a check's run, a decision), when an event does. */
  readonly eventId: EventId | null;
  /** The step (tool call) that holds it, for the last command. */
  readonly stepId: StepId | null;
}

const squash = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** A command or check is named when the summary holds it, or its first three words for a long one. */
function namesCommand(summary: string, command: string): boolean {
  const c = squash(command);
  if (c === '') return true;
  if (summary.includes(c)) return true;
  const words = c.split(' ');
  return words.length > 3 && summary.includes(words.slice(0, 3).join(' '));
}

function namesFile(summary: string, path: string): boolean {
  const p = squash(path);
  const base = p.slice(p.lastIndexOf('/') + 1);
  return summary.includes(p) || (base.length >= 3 && summary.includes(base));
}

/** Most (≥ 60 %) of the decision's words of five letters or more are in the summary. */
function namesText(summary: string, text: string): boolean {
  const words = [...new Set(squash(text).match(/[\p{L}\p{N}_]{5,}/gu) ?? [])];
  if (words.length === 0) return summary.includes(squash(text));
  return words.filter((w) => summary.includes(w)).length / words.length >= 0.6;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * `before`: the compaction's time — what happened after it is in the agent's context, not left out of anything
 * (checks, decisions, the blocker and the last command are taken up to it; a file's changes carry no time, so
 * every changed file counts).
 */
export function leftOutOfSummary(
  summary: string,
  checkpoint: ActiveCheckpoint,
  before = Infinity,
): LeftOut[] {
  const said = squash(summary);
  const out: LeftOut[] = [];
  const upTo = <T extends { readonly at: number }>(item: T | null): T | null =>
    item !== null && item.at <= before ? item : null;
  const failing = upTo(checkpoint.nextAction.failing);
  if (failing !== null && !namesCommand(said, failing.name))
    out.push({
      kind: 'failing_check',
      text: `${failing.name} — ${failing.result}${failing.failingBefore ? ' (failed before the change too)' : ''}`,
      eventId: failing.eventId,
      stepId: null,
    });
  if (checkpoint.blocker !== null && !namesText(said, checkpoint.blocker.text))
    out.push({
      kind: 'blocker',
      text: checkpoint.blocker.text,
      eventId: checkpoint.blocker.eventId,
      stepId: null,
    });
  for (const file of checkpoint.files) {
    if (file.transient || namesFile(said, file.path)) continue;
    out.push({
      kind: 'file',
      text: `${file.path} (${file.change}, ${plural(file.edits, 'edit')})`,
      eventId: file.lastEventId,
      stepId: null,
    });
  }
  for (const check of checkpoint.validations) {
    if (check.at > before) continue;
    if (failing !== null && check.eventId === failing.eventId) continue;
    if (namesCommand(said, check.name)) continue;
    out.push({
      kind: 'check',
      text: `${check.name} — ${check.result}${check.stale ? ' (files changed since)' : ''}`,
      eventId: check.eventId,
      stepId: null,
    });
  }
  for (const decision of checkpoint.decisions) {
    if (decision.at > before) continue;
    if (namesText(said, decision.text)) continue;
    out.push({ kind: 'decision', text: decision.text, eventId: decision.eventId, stepId: null });
  }
  const last = upTo(checkpoint.lastAction);
  if (last !== null && !namesCommand(said, last.command))
    out.push({
      kind: 'last_command',
      text: `${last.command}${last.exitCode === null ? '' : ` — exit ${last.exitCode}`}`,
      eventId: null,
      stepId: last.stepId,
    });
  return out;
}
