/**
 * `resumePrompt(brain, sessionId, { for })`: the markdown handoff built from `brain.resumePoint(sessionId)` alone:
 * goal, where it stopped (what ran last), the next action, checks done and still to run, files changed, decisions,
 * open blockers and questions, and what the handoff leaves out. Two forms:
 * - `any-agent` (the default): for pasting into any agent — plain instructions, no tool names, no ids of this
 *   brain, no bookkeeping of its files; long texts bounded with where the rest is, no line over 400 characters;
 * - `brain-tools`: for a model that has `brainTools` — names the tools to look things up and the ids they take.
 * Lists are bounded; what is left out says how many and how to look it up.
 */
import type { ResumePoint, SessionId } from '../../worker/protocol';
import { runsDeletedScript } from '../../core/compression/next-action';
import { boundedList, boundedParagraphs, boundedQuote, quote, wrapLines } from './resume-text';

export type ResumePromptAudience = 'any-agent' | 'brain-tools';

export interface ResumePromptOptions {
  /** Items per list (decisions, files, checks …) before "… and N more". Default 20. */
  readonly maxItems?: number;
  /** Who reads it: `any-agent` (default) or a model with `brainTools` (`brain-tools`). */
  readonly for?: ResumePromptAudience;
}

/** No line of the `any-agent` form is longer. */
export const maxPlainLineChars = 400;
const maxGoalChars = 1_500;
const maxTextChars = 300;
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

type Section = readonly string[] | null;

const section = (title: string, lines: readonly string[]): Section =>
  lines.length === 0 ? null : [`## ${title}`, ...lines];

/** What differs between the two forms: where the rest is found, and whether this brain's ids are shown. */
interface Voice {
  readonly tools: boolean;
  /** Where to find more of a kind ("search_history kinds [\"decision\"]", or the original transcript). */
  more(kind: string): string;
  id(label: string, id: number | null): string;
  /** A command as code: in backticks for any agent, bare in the tools' form (as it always was). */
  code(command: string): string;
}

const brainVoice: Voice = {
  tools: true,
  more: (kind) => (kind === '' ? 'search_history' : `search_history kinds ["${kind}"]`),
  id: (label, id) => (id === null ? '' : ` (${label} ${id})`),
  code: (command) => command,
};

const plainVoice: Voice = {
  tools: false,
  more: () => "in the original agent's transcript",
  id: () => '',
  code: (command) => `\`${command}\``,
};

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
  const voice = options.for === 'brain-tools' ? brainVoice : plainVoice;
  const text = [
    headLines(point, voice),
    section('Where it stopped', stoppedLines(point, voice)),
    section(
      point.firstUnfinishedAction.kind === 'done' ? 'The run finished' : 'Next action',
      nextLines(point, voice),
    ),
    section('Plan', planLines(point, max, voice)),
    section('Checks', checkLines(point, max, voice)),
    section('Files changed', fileLines(point, max, voice)),
    section('Decisions (keep to them)', decisionLines(point, max, voice)),
    section(
      'Open blockers',
      boundedList(
        point.checkpoint.openBlockers,
        max,
        (b) => `${quote(b.text)}${voice.id('blockerId', b.eventId)}`,
        voice.more('blocker'),
      ),
    ),
    section(
      'Open questions',
      boundedList(
        point.checkpoint.openQuestions,
        max,
        (q) => `${quote(q.text)}${voice.id('questionId', q.eventId)}`,
        voice.more('question'),
      ),
    ),
    section('Not in this handoff', droppedLines(point, voice)),
  ]
    .filter((part): part is readonly string[] => part !== null)
    .map((part) => part.join('\n'))
    .join('\n\n')
    .concat('\n');
  return voice.tools ? text : wrapLines(text, maxPlainLineChars);
}

function headLines(point: ResumePoint, voice: Voice): string[] {
  const cp = point.checkpoint;
  const goal = point.goal || cp.goal;
  if (voice.tools) {
    const task = point.task
      ? `, task ${point.task.id} "${quote(point.task.title)}" (${point.task.state})`
      : '';
    return [`# Resuming session ${point.sessionId}${task}`, '', `**Goal:** ${quote(goal) || '(not stated)'}`];
  }
  const title = point.task ? `: ${boundedQuote(point.task.title, 120, 'in the title')}` : '';
  const full = goalInstruction(point)?.text ?? goal;
  return [
    `# Picking up where an agent stopped${title}`,
    '',
    'You are continuing work another agent started. Below: its task, where it stopped, what to do next and ' +
      'what it already checked. Look at the files before acting — they may have changed since.',
    '',
    '**Goal:**',
    '',
    ...(full.trim() === ''
      ? ['(not stated)']
      : boundedParagraphs(
          full,
          maxGoalChars,
          "in the original agent's transcript (its first message)",
        ).flatMap((p, i) => (i === 0 ? [p] : ['', p]))),
  ];
}

/**
 * The instruction the goal was taken from (the goal is its first line: "Consider the following PR
 * description:"), so the plain form can give the whole task once instead of its first line.
 */
function goalInstruction(point: ResumePoint) {
  const cp = point.checkpoint;
  const goal = quote(point.goal || cp.goal);
  if (goal === '') return null;
  const all = [...(cp.latestInstruction ? [cp.latestInstruction] : []), ...cp.earlierInstructions];
  return all.find((i) => quote(i.text).startsWith(goal)) ?? null;
}

const untagged = (text: string) => text.replace(/<\/?[a-z_][\w-]*>/gi, '');

function stoppedLines(point: ResumePoint, voice: Voice): string[] {
  const cp = point.checkpoint;
  const t = (s: string) => (voice.tools ? quote(s) : boundedQuote(s, maxTextChars, voice.more('')));
  const out: string[] = [];
  const last = cp.lastAction;
  if (last) {
    const how =
      last.exitCode !== null
        ? `exit code ${last.exitCode}`
        : last.status === 'running'
          ? 'no result recorded'
          : last.status;
    out.push(
      `What ran last: ${voice.code(t(last.command))} (${how})${last.summary ? ` — ${t(last.summary)}` : ''}`,
    );
  }
  if (cp.lastProgress) {
    out.push(`Last progress: ${t(cp.lastProgress.text)}`);
    if (cp.lastProgress.next) out.push(`It said it would next: ${t(cp.lastProgress.next)}`);
  }
  if (cp.intention?.text)
    out.push(
      cp.intentionRan
        ? `Its last words, said before an action that already ran (history, not a step to take): ${t(cp.intention.text)}`
        : `Its last stated intention: ${t(cp.intention.text)}`,
    );
  const latest = cp.latestInstruction;
  if (latest && (voice.tools || goalInstruction(point)?.eventId !== latest.eventId))
    out.push(`Latest instruction from the person: ${t(voice.tools ? latest.text : untagged(latest.text))}`);
  // The plain form hands over a run that stopped: what was not recorded then will not be ("yet" is for a live one).
  if (out.length === 0)
    out.push(
      voice.tools
        ? 'Nothing recorded yet about where it stopped.'
        : 'Nothing was recorded about where it stopped.',
    );
  return out;
}

const noResult = (last: NonNullable<ResumePoint['checkpoint']['lastAction']>) =>
  last.exitCode === null && last.summary === null && last.status !== 'error';

function nextLines(point: ResumePoint, voice: Voice): string[] {
  const action = point.firstUnfinishedAction;
  const t = (s: string) => (voice.tools ? quote(s) : boundedQuote(s, maxTextChars, voice.more('')));
  const out = [t(action.text) || '(none)'];
  if (action.kind === 'done')
    out.push('Nothing is left to do unless the person asks for more: check the result if in doubt.');
  // Only when no result was recorded: a command whose exit code or output is written above did finish.
  const last = point.checkpoint.lastAction;
  if (action.kind === 'verify_last_action' && last && noResult(last))
    out.push(
      'The last command may not have finished or its result was not recorded: check its effect first.',
    );
  if (action.planStepId !== null)
    out.push(
      voice.tools
        ? `(plan step ${action.planStepN ?? '?'}, planStepId ${action.planStepId})`
        : `(plan step ${action.planStepN ?? '?'})`,
    );
  if (action.failing)
    out.push(
      `The check ${typed(action.failing.command, voice)} last ${action.failing.result}: ${t(action.failing.text)}`,
    );
  return out;
}

function planLines(point: ResumePoint, max: number, voice: Voice): string[] {
  const t = (s: string) => (voice.tools ? quote(s) : boundedQuote(s, maxTextChars, voice.more('')));
  if (point.plan) {
    const steps = [...point.plan.steps].sort((a, b) => a.n - b.n);
    return boundedList(
      steps,
      max,
      (s) => `${s.n}. [${s.state}] ${t(s.what)}${voice.id('planStepId', s.id)}`,
      voice.tools ? 'read the plan' : 'in the plan',
    );
  }
  const items = point.checkpoint.agentPlan?.items ?? [];
  if (items.length === 0)
    return voice.tools ? ['No plan yet: for more than a couple of steps, write one with create_plan.'] : [];
  return [
    "(The agent's own todo list.)",
    ...boundedList(items, max, (i) => `${i.n}. [${i.state}] ${t(i.text)}`, 'the todo list'),
  ];
}

const scriptGone = (name: string, point: ResumePoint) => runsDeletedScript(name, point.checkpoint.files);

/**
 * A check's command as the agent typed it (`python3 -m pytest …`, not its identity `pytest …`): exactly, when it
 * is one line of a sensible length; else on one line, bounded.
 */
const typed = (command: string, voice: Voice) =>
  voice.code(
    /\n/.test(command) || command.length > maxTextChars
      ? boundedQuote(command, maxTextChars, voice.more(''))
      : command.trim(),
  );

function checkLines(point: ResumePoint, max: number, voice: Voice): string[] {
  const finished = point.firstUnfinishedAction.kind === 'done';
  const t = (s: string) => (voice.tools ? quote(s) : boundedQuote(s, maxTextChars, voice.more('')));
  const more = voice.more('validation');
  const doneIds = new Set(point.validationsDone.map((v) => v.eventId));
  const holding = point.validationsDone.filter((v) => v.changedSince.length === 0);
  const staled = point.validationsDone.filter((v) => v.changedSince.length > 0 && !scriptGone(v.name, point));
  const open = point.checkpoint.validations.filter(
    (v) => !doneIds.has(v.eventId) && v.result !== 'passed' && !scriptGone(v.name, point),
  );
  const before = open.filter((v) => v.failingBefore);
  const notPassing = open.filter((v) => !v.failingBefore);
  const lines = [
    ...boundedList(
      holding,
      max,
      (v) => `passed, nothing changed since — do not run again: ${typed(v.command, voice)}`,
      more,
    ),
    ...boundedList(
      staled,
      max,
      (v) =>
        `passed, but ${v.changedSince.slice(0, 5).join(', ')}${v.changedSince.length > 5 ? ' …' : ''} changed since — run again: ${typed(v.command, voice)}`,
      more,
    ),
    ...boundedList(
      notPassing,
      max,
      (v) =>
        `${v.result} (${v.failedRuns} of ${count(v.runs, 'run')} did not pass) — ${finished ? 'not passing when the run ended' : 'still to fix and run'}: ${typed(v.command, voice)}`,
      more,
    ),
    ...boundedList(
      before,
      max,
      (v) =>
        `${v.result}, failing before the change too (a run with the changes set aside failed the same way) — not the goal: ${typed(v.command, voice)}${v.text ? ` (${t(v.text)})` : ''}`,
      more,
    ),
  ];
  if (lines.length > 0) return lines;
  const gone = [
    ...new Set(point.checkpoint.validations.filter((v) => scriptGone(v.name, point)).map((v) => v.command)),
  ];
  if (gone.length > 0)
    return [
      `No check left to run: the scripts it checked with were deleted afterwards (${gone
        .slice(0, 3)
        .map((c) => typed(c, voice))
        .join(', ')}${gone.length > 3 ? ' …' : ''}).`,
    ];
  return [voice.tools && !finished ? 'No checks recorded yet.' : 'No checks were recorded.'];
}

function fileLines(point: ResumePoint, max: number, voice: Voice): string[] {
  return boundedList(
    point.filesChanged.filter((file) => !file.transient),
    max,
    (file) => {
      const entries =
        !voice.tools || file.checkpointEntryIds.length === 0
          ? ''
          : `; checkpoint entries ${file.checkpointEntryIds.join(', ')}`;
      return `${file.path} (${file.change}, ${count(file.edits, 'edit')}${entries}${file.outside ? '; outside the project' : ''})`;
    },
    voice.tools ? 'search_history with the path' : 'git status shows every changed file',
  );
}

function decisionLines(point: ResumePoint, max: number, voice: Voice): string[] {
  const t = (s: string) => (voice.tools ? quote(s) : boundedQuote(s, maxTextChars, voice.more('')));
  return boundedList(
    point.checkpoint.decisions,
    max,
    (d) => `${t(d.text)}${d.why ? ` — because ${t(d.why)}` : ''}${voice.id('event', d.eventId)}`,
    voice.more('decision'),
  );
}

function droppedLines(point: ResumePoint, voice: Voice): string[] {
  const cp = point.checkpoint;
  if (!voice.tools)
    return [
      `The run had ${count(cp.eventCount, 'recorded event')}; this handoff keeps what is still in force. Superseded ` +
        "decisions, repeated checks and tool output are left out: they are in the original agent's transcript.",
    ];
  const lines = [
    `The session has ${count(cp.eventCount, 'event')}; this handoff carries their substance (the checkpoint) and ` +
      `${count(point.load.tail.length, 'recent one')}. Superseded decisions, resolved blockers, repeated checks, free notes ` +
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
