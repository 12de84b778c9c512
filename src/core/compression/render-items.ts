/**
 * The summary's lists that fold on long sessions: decisions (the newest ten and those naming a file still changed;
 * the rest counted, with how to list them) and the agent's todo list.
 */
import type { ActiveCheckpoint, CheckpointDecision } from './model';

function inline(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Decisions the summary shows in full: the newest this many, plus those naming a file still changed. */
export const SUMMARY_DECISIONS = 10;

/** Decisions in force worth their line: the newest ones and those tied to files the session still changed. */
function shownDecisions(cp: ActiveCheckpoint): { shown: CheckpointDecision[]; folded: number } {
  const names = cp.files
    .filter((f) => !f.transient && f.change !== 'deleted')
    .flatMap((f) => [f.path, baseName(f.path)])
    .filter((name) => name.length >= 4);
  const newestIds = new Set(cp.decisions.slice(-SUMMARY_DECISIONS).map((d) => d.eventId));
  const tied = (d: CheckpointDecision) => {
    const text = `${d.text} ${d.why ?? ''}`;
    return names.some((name) => text.includes(name));
  };
  const shown = cp.decisions.filter((d) => newestIds.has(d.eventId) || tied(d));
  return { shown, folded: cp.decisions.length - shown.length };
}

export function decisionLines(cp: ActiveCheckpoint, max: number): string[] {
  const { shown, folded } = shownDecisions(cp);
  const lines = shown.map(
    (d) =>
      `- ${inline(d.text, max)}${d.why ? ` — why: ${inline(d.why, max)}` : ''} (#${d.eventId}${d.replaces.length > 0 ? `; replaces ${d.replaces.map((r) => `#${r}`).join(', ')}` : ''})`,
  );
  if (folded > 0)
    lines.push(
      `- … and ${folded} older decision${folded === 1 ? '' : 's'} in force, not about a file still changed ` +
        `(list them: listEvents(${cp.sessionId}, { kinds: ['decision'] }), or search the history for "decision").`,
    );
  return lines;
}

const todoBox = { done: '[x]', skipped: '[-]', started: '[~]', todo: '[ ]' } as const;

export function todoLines(cp: ActiveCheckpoint, max: number): string[] {
  if (cp.plan || !cp.agentPlan) return [];
  const next = cp.nextAction.planStepN;
  const current = cp.nextAction.kind === 'continue_todo' || cp.nextAction.kind === 'start_todo';
  return cp.agentPlan.items.map(
    (i) => `- ${todoBox[i.state]} ${i.n}. ${inline(i.text, max)}${current && i.n === next ? ' ← next' : ''}`,
  );
}
