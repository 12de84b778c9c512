/**
 * Why each event of a window stays in the context or leaves it, from the folded state and the window alone. The
 * window is a suffix of the folded log (the active events are: a compression moves all but the newest ones). What
 * decides an event's verdict is either in the state (is it the latest instruction, an answer still kept, the
 * latest progress, a check shown) or newer than the event (a supersede, a resolution, an answer, a later edit or
 * run) — and so in the window too, since links point back.
 */
import { BrainError } from '../errors';
import type { SessionEvent, ValidationEvent } from '../events/model';
import type { EventId } from '../ids';
import type { Plan } from '../plan/model';
import { normaliseInstruction, type CompressionFold } from './fold';
import { chosenChecks } from './fold-finish';

export interface Verdict {
  readonly keep: boolean;
  readonly reason: string;
}

/** What came after each event, within the window: the first referrer of a link, the latest of a path or name. */
function newerInWindow(window: readonly SessionEvent[]) {
  const firstReferrer = new Map<string, EventId>();
  const refer = (kind: string, target: EventId, by: EventId) => {
    const key = `${kind}:${target}`;
    if (!firstReferrer.has(key)) firstReferrer.set(key, by);
  };
  const lastInstruction = new Map<string, EventId>();
  const lastChange = new Map<string, EventId>();
  const lastRun = new Map<string, ValidationEvent>();
  for (const e of window) {
    if (e.kind === 'decision' && e.supersedes !== null) refer('decision', e.supersedes, e.id);
    else if (e.kind === 'blocker_resolved') refer('blocker', e.resolves, e.id);
    else if (e.kind === 'answer') refer('question', e.answers, e.id);
    else if (e.kind === 'instruction') lastInstruction.set(normaliseInstruction(e.text), e.id);
    else if (e.kind === 'file_change') lastChange.set(e.path, e.id);
    else if (e.kind === 'validation') lastRun.set(e.name, e);
  }
  const referrer = (kind: 'decision' | 'blocker' | 'question', id: EventId) =>
    firstReferrer.get(`${kind}:${id}`);
  return { referrer, lastInstruction, lastChange, lastRun };
}

export function foldVerdicts(
  state: CompressionFold,
  window: readonly SessionEvent[],
  plan: Plan | null,
): Map<EventId, Verdict> {
  const events = [...window].sort((a, b) => a.id - b.id);
  const newer = newerInWindow(events);
  const instructions = [...state.instructions.values()];
  const latestInstruction = instructions.at(-1)?.eventId;
  const earlierInstructions = new Set(instructions.slice(0, -1).map((i) => i.eventId));
  const shownRuns = new Set(chosenChecks(state, plan).map((c) => c.latest.eventId));
  const keptAnswers = new Set(state.answers.map((a) => a.eventId));
  const { maxEarlierInstructions, maxAnswers } = state.limits;
  const verdicts = new Map<EventId, Verdict>();
  const keep = (e: SessionEvent, reason: string) => verdicts.set(e.id, { keep: true, reason });
  const drop = (e: SessionEvent, reason: string) => verdicts.set(e.id, { keep: false, reason });
  for (const e of events) {
    switch (e.kind) {
      case 'instruction': {
        const twin = newer.lastInstruction.get(normaliseInstruction(e.text));
        if (e.id === latestInstruction) keep(e, 'latest instruction');
        else if (earlierInstructions.has(e.id)) keep(e, 'earlier instruction');
        else if (twin !== undefined && twin !== e.id) drop(e, `repeats instruction #${twin}`);
        else drop(e, `older than the ${maxEarlierInstructions} most recent instructions`);
        break;
      }
      case 'decision': {
        const by = newer.referrer('decision', e.id);
        if (by === undefined) keep(e, 'decision in force');
        else drop(e, `superseded by decision #${by}`);
        break;
      }
      case 'file_change':
        if (newer.lastChange.get(e.path) === e.id) keep(e, `latest change to ${e.path}`);
        else drop(e, `earlier edit of ${e.path} (counted; its checkpoint stays linked)`);
        break;
      case 'validation': {
        const latest = newer.lastRun.get(e.name) as ValidationEvent;
        if (shownRuns.has(e.id)) keep(e, `latest run of ${e.name}`);
        else drop(e, `older run of ${e.name} (latest: #${latest.id}, ${latest.result})`);
        break;
      }
      case 'blocker': {
        const by = newer.referrer('blocker', e.id);
        if (by === undefined) keep(e, 'open blocker');
        else drop(e, `resolved by #${by}`);
        break;
      }
      case 'blocker_resolved':
        drop(e, `resolution of blocker #${e.resolves}`);
        break;
      case 'question': {
        const by = newer.referrer('question', e.id);
        if (by === undefined) keep(e, 'open question');
        else drop(e, `answered by #${by}`);
        break;
      }
      case 'answer':
        if (keptAnswers.has(e.id)) keep(e, 'answer to a question');
        else drop(e, `older than the ${maxAnswers} most recent answers`);
        break;
      case 'progress':
        if (state.lastProgress?.eventId === e.id) keep(e, 'latest progress');
        else drop(e, 'older progress (kept in PROGRESS.md)');
        break;
      case 'plan_step_started':
      case 'plan_step_done':
        drop(e, 'plan step state (held by the plan)');
        break;
      case 'note':
        if (state.agentPlan?.eventId === e.id) keep(e, "the agent's todo list");
        else if (state.lastIntention?.eventId === e.id) keep(e, "the agent's stated intention");
        else drop(e, e.todos ? 'older todo list (the latest is in the checkpoint)' : 'free text');
        break;
      default: {
        const unknown: never = e;
        throw new BrainError('Internal', `Unknown event kind: ${JSON.stringify(unknown)}`);
      }
    }
  }
  return verdicts;
}
