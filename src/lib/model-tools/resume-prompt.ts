/**
 * `resumePrompt(brain, sessionId)`: the markdown handoff a model reads after a restart or a compaction, built from
 * `brain.resumePoint(sessionId)` alone: goal, where it stopped, the next action, checks done and still to run,
 * files changed, decisions, open blockers and questions, and what the context no longer holds (with how to find
 * it). Lists are bounded; what is left out says how many and how to look it up.
 */
import type { ResumePoint, SessionId } from '../../worker/protocol';
import { runsDeletedScript } from '../../core/compression/next-action';

export interface ResumePromptOptions {
  /** Items per list (decisions, files, checks …) before "… and N more". Default 20. */
  readonly maxItems?: number;
}

type Section = readonly string[] | null;

const quote = (text: string) => text.replace(/\s+/g, ' ').trim();

function bounded<T>(items: readonly T[], max: number, line: (item: T) => string, more: string): string[] {
  const shown = items.slice(0, max).map((item) => `- ${line(item)}`);
  if (items.length > max) shown.push(`- … and ${items.length - max} more (${more})`);
  return shown;
}

const section = (title: string, lines: readonly string[]): Section =>
  lines.length === 0 ? null : [`## ${title}`, ...lines];

export async function resumePrompt(
  brain: { resumePoint(sessionId: SessionId): Promise<ResumePoint> },
  sessionId: SessionId,
  options: ResumePromptOptions = {},
): Promise<string> {
  return resumePromptFrom(await brain.resumePoint(sessionId), options);
}

/** The same markdown from a resume point already read. */
export function resumePromptFrom(point: ResumePoint, options: ResumePromptOptions = {}): string {
  const max = options.maxItems ?? 20;
  const cp = point.checkpoint;
  const task = point.task ? `, task ${point.task.id} "${quote(point.task.title)}" (${point.task.state})` : '';
  const head = [
    `# Resuming session ${point.sessionId}${task}`,
    '',
    `**Goal:** ${quote(point.goal || cp.goal) || '(not stated)'}`,
  ];
  const stopped: string[] = [];
  if (cp.lastProgress) {
    stopped.push(`Last progress: ${quote(cp.lastProgress.text)}`);
    if (cp.lastProgress.next) stopped.push(`It said it would next: ${quote(cp.lastProgress.next)}`);
  }
  if (cp.lastAction) {
    const a = cp.lastAction;
    const exit = a.exitCode === null ? '' : ` (exit ${a.exitCode})`;
    stopped.push(`What ran last: \`${quote(a.command)}\`${exit}${a.summary ? ` — ${quote(a.summary)}` : ''}`);
  }
  if (cp.intention?.text)
    stopped.push(
      cp.intentionRan
        ? `Its last words, said before an action that already ran (history, not a step to take): ${quote(cp.intention.text)}`
        : `Its last stated intention: ${quote(cp.intention.text)}`,
    );
  if (cp.latestInstruction)
    stopped.push(`Latest instruction from the person: ${quote(cp.latestInstruction.text)}`);
  if (stopped.length === 0) stopped.push('Nothing recorded yet about where it stopped.');

  const action = point.firstUnfinishedAction;
  const next = [quote(action.text) || '(none)'];
  if (action.planStepId !== null)
    next.push(`(plan step ${action.planStepN ?? '?'}, planStepId ${action.planStepId})`);
  if (action.failing)
    next.push(
      `The check "${action.failing.name}" last ${action.failing.result}: ${quote(action.failing.text)}`,
    );

  const plan = planLines(point, max);
  return [
    head,
    section('Where it stopped', stopped),
    section('Next action', next),
    section('Plan', plan),
    section('Checks', checkLines(point, max)),
    section(
      'Files changed',
      bounded(
        point.filesChanged.filter((file) => !file.transient),
        max,
        (file) => {
          const entries =
            file.checkpointEntryIds.length === 0
              ? ''
              : `; checkpoint entries ${file.checkpointEntryIds.join(', ')}`;
          return `${file.path} (${file.change}, ${file.edits} edit${file.edits === 1 ? '' : 's'}${entries}${file.outside ? '; outside the project' : ''})`;
        },
        'search_history with the path',
      ),
    ),
    section(
      'Decisions (keep to them)',
      bounded(
        cp.decisions,
        max,
        (d) => `${quote(d.text)}${d.why ? ` — because ${quote(d.why)}` : ''} (event ${d.eventId})`,
        'search_history kinds ["decision"]',
      ),
    ),
    section(
      'Open blockers',
      bounded(
        cp.openBlockers,
        max,
        (b) => `${quote(b.text)} (blockerId ${b.eventId})`,
        'search_history kinds ["blocker"]',
      ),
    ),
    section(
      'Open questions',
      bounded(
        cp.openQuestions,
        max,
        (q) => `${quote(q.text)} (questionId ${q.eventId})`,
        'search_history kinds ["question"]',
      ),
    ),
    section('Not in this handoff', droppedLines(point)),
  ]
    .filter((part): part is readonly string[] => part !== null)
    .map((part) => part.join('\n'))
    .join('\n\n')
    .concat('\n');
}

function planLines(point: ResumePoint, max: number): string[] {
  if (point.plan) {
    const steps = [...point.plan.steps].sort((a, b) => a.n - b.n);
    return bounded(
      steps,
      max,
      (s) => `${s.n}. [${s.state}] ${quote(s.what)} (planStepId ${s.id})`,
      'read the plan',
    );
  }
  const items = point.checkpoint.agentPlan?.items ?? [];
  if (items.length === 0)
    return ['No plan yet: for more than a couple of steps, write one with create_plan.'];
  return [
    "(The agent's own todo list; no plan was created.)",
    ...bounded(items, max, (i) => `${i.n}. [${i.state}] ${quote(i.text)}`, 'the todo list'),
  ];
}

const scriptGone = (name: string, point: ResumePoint) => runsDeletedScript(name, point.checkpoint.files);

function checkLines(point: ResumePoint, max: number): string[] {
  const doneIds = new Set(point.validationsDone.map((v) => v.eventId));
  const holding = point.validationsDone.filter((v) => v.changedSince.length === 0);
  const staled = point.validationsDone.filter((v) => v.changedSince.length > 0 && !scriptGone(v.name, point));
  const open = point.checkpoint.validations.filter(
    (v) => !doneIds.has(v.eventId) && v.result !== 'passed' && !scriptGone(v.name, point),
  );
  const before = open.filter((v) => v.failingBefore);
  const notPassing = open.filter((v) => !v.failingBefore);
  const lines = [
    ...bounded(
      holding,
      max,
      (v) => `passed, nothing changed since — do not run again: ${quote(v.name)}`,
      'search_history kinds ["validation"]',
    ),
    ...bounded(
      staled,
      max,
      (v) =>
        `passed, but ${v.changedSince.slice(0, 5).join(', ')}${v.changedSince.length > 5 ? ' …' : ''} changed since — run again: ${quote(v.name)}`,
      'search_history kinds ["validation"]',
    ),
    ...bounded(
      notPassing,
      max,
      (v) =>
        `${v.result} (${v.failedRuns} of ${v.runs} runs did not pass) — still to fix and run: ${quote(v.name)}`,
      'search_history kinds ["validation"]',
    ),
    ...bounded(
      before,
      max,
      (v) =>
        `${v.result}, failing before the change too (a run with the changes set aside failed the same way) — not the goal: ${quote(v.name)}${v.text ? ` (${quote(v.text)})` : ''}`,
      'search_history kinds ["validation"]',
    ),
  ];
  return lines.length === 0 ? ['No checks recorded yet.'] : lines;
}

function droppedLines(point: ResumePoint): string[] {
  const cp = point.checkpoint;
  const lines = [
    `The session has ${cp.eventCount} events; this handoff carries their substance (the checkpoint) and ` +
      `${point.load.tail.length} recent ones. Superseded decisions, resolved blockers, repeated checks, free notes ` +
      'and tool output are left out: find them with search_history (a file name, an error message, a word).',
  ];
  if (point.load.files.length > 0) lines.push(`More in the project's files: ${point.load.files.join(', ')}.`);
  const folder = point.folder;
  if (folder && folder.missingFromFile > 0) {
    lines.push(
      `${folder.missingFromFile} recent events are in agent.db but not yet in SESSION.jsonl (the next compaction writes them).`,
    );
  }
  return lines;
}
