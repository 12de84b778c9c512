/**
 * SESSION_SUMMARY.md: the active checkpoint written for a person first (and an agent second), in the layout
 * core/formats/session-summary reads (front matter, the eight standard sections by title, "None." when empty).
 * Extra sections (plan, answers, progress, notes) follow and read as `otherSections`. Every item names its
 * event (#id) so a reader can look the detail up.
 */
import { createFrontMatter, type FrontMatterValue } from '../formats/front-matter';
import { sessionSummaryFormatVersion, sessionSummarySections } from '../formats/session-summary';
import { boundedInline } from './bounded-text';
import { decisionLines, todoLines } from './render-items';
import type { ActiveCheckpoint, CheckpointValidation, NextAction } from './model';

export interface RenderOptions {
  /** The task's title, shown under the heading. */
  readonly taskTitle?: string | null;
  /** When the summary was made (epoch ms); shown as UTC. */
  readonly compressedAt?: number | null;
  /** Prose a model wrote on top of the structured part. */
  readonly prose?: string | null;
  /** The prose was written before the latest events. */
  readonly proseStale?: boolean;
  /** Longest text shown for one item; the whole text stays in the history (default 300). */
  readonly maxItemChars?: number;
  /**
   * Most open questions shown (the newest); the rest are counted, and stay in the active checkpoint and the history
   * (default 50). Changed files and checks are always all shown; decisions fold as render-items.ts says.
   */
  readonly maxListItems?: number;
}

/** The newest `max` lines, and a line that says how many older ones were left out. */
function newest(lines: readonly string[], max: number, what: string): string[] {
  if (lines.length <= max) return [...lines];
  return [
    ...lines.slice(lines.length - max),
    `- … and ${lines.length - max} older ${what} (in the checkpoint and the history).`,
  ];
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function inline(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

const resultMark = (run: CheckpointValidation) =>
  run.result === 'passed' ? '✅' : run.result === 'failed' ? '❌' : '⚠️';

function nextLine(next: NextAction): string[] {
  const emphasis = next.kind === 'resolve_blocker' ? '⛔ ' : '';
  return [`${emphasis}**${next.text}**`, ...(next.intention ? ['', `You last said: ${next.intention}`] : [])];
}

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function sinceText(run: CheckpointValidation): string {
  if (run.changedSince.length === 0) return '';
  const shown = run.changedSince.slice(-5).map(baseName);
  const more = run.changedSince.length - shown.length;
  return ` — changed since: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** An extra section: written only when it has something to say. */
function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [`## ${title}`, '', ...lines, ''];
}

type StandardKey = keyof typeof sessionSummarySections;

/** A standard section: always written, "None." when empty, under the title the parser reads first. */
function standard(key: StandardKey, lines: readonly string[]): string[] {
  return [
    `## ${sessionSummarySections[key][0] as string}`,
    '',
    ...(lines.length === 0 ? ['None.'] : lines),
    '',
  ];
}

function planLines(cp: ActiveCheckpoint, max: number): string[] {
  if (!cp.plan) return [];
  const current = cp.nextAction.planStepId;
  return cp.plan.steps.map((step) => {
    const box =
      step.state === 'done'
        ? '[x]'
        : step.state === 'skipped'
          ? '[-]'
          : step.state === 'started'
            ? '[~]'
            : '[ ]';
    const marker = step.id === current ? ' ← next' : '';
    const why =
      step.why && step.state !== 'done' && step.state !== 'skipped' ? ` — _${inline(step.why, max)}_` : '';
    return `- ${box} ${step.n}. ${inline(step.what, max)}${why}${marker}`;
  });
}

function validationLines(cp: ActiveCheckpoint, max: number): string[] {
  const stepN = new Map(cp.plan?.steps.map((s) => [s.id, s.n]) ?? []);
  return cp.validations.map((run) => {
    const where =
      run.planStepId !== null && stepN.has(run.planStepId) ? `, step ${stepN.get(run.planStepId)}` : '';
    const history = run.runs > 1 ? ` — ${run.runs} runs, ${run.failedRuns} not passed` : '';
    const detail = run.text ? `: ${inline(run.text, Math.min(max, 200))}` : '';
    return `- ${resultMark(run)} \`${inline(run.command, 120)}\` ${run.result}${detail} (#${run.eventId}${where}${history}${sinceText(run)})`;
  });
}

function fileLines(cp: ActiveCheckpoint, max: number): string[] {
  const scratch = cp.files.filter((f) => f.transient);
  const lines = cp.files
    .filter((f) => !f.transient)
    .map((f) => {
      const entries =
        f.checkpointEntryIds.length === 0
          ? ''
          : `; checkpoint${f.checkpointEntryIds.length > 1 ? 's' : ''} ${f.checkpointEntryIds.map((id) => `#${id}`).join(', ')}`;
      const note = f.lastText ? ` — ${inline(f.lastText, Math.min(max, 120))}` : '';
      const outside = f.outside ? ', outside the project' : '';
      return `- \`${f.path}\` ${f.change}${outside}, ${f.edits} edit${f.edits === 1 ? '' : 's'} (#${f.lastEventId}${entries})${note}`;
    });
  if (scratch.length > 0) {
    const names = scratch.slice(-5).map((f) => `\`${f.path}\``);
    lines.push(
      `- ${scratch.length} scratch file${scratch.length === 1 ? '' : 's'} created and deleted again: ${names.join(', ')}${scratch.length > 5 ? ' …' : ''}`,
    );
  }
  return lines;
}

function frontMatter(cp: ActiveCheckpoint, options: RenderOptions): string {
  const fields: Record<string, FrontMatterValue> = {
    version: sessionSummaryFormatVersion,
    session: cp.sessionId,
  };
  if (cp.taskId !== null) fields['task'] = cp.taskId;
  if (options.compressedAt != null) fields['updated'] = new Date(options.compressedAt).toISOString();
  if (cp.lastEventId !== null) fields['last_event'] = cp.lastEventId;
  return createFrontMatter(fields).raw;
}

export function renderSessionSummary(cp: ActiveCheckpoint, options: RenderOptions = {}): string {
  const max = options.maxItemChars ?? 300;
  const maxList = options.maxListItems ?? 50;
  const facts = [`session ${cp.sessionId}`];
  if (cp.taskId !== null) facts.push(`task #${cp.taskId}`);
  if (options.compressedAt != null) facts.push(`compressed ${utc(options.compressedAt)}`);
  if (cp.lastEventId !== null) facts.push(`up to event #${cp.lastEventId}`);
  const done = cp.plan ? cp.plan.steps.filter((s) => s.state === 'done').length : 0;
  const title = options.taskTitle
    ? `# Session summary: ${inline(options.taskTitle, 200)}`
    : '# Session summary';
  const latest = cp.latestInstruction;
  const lines = [
    title,
    '',
    `_${facts.join(' · ')}_`,
    '',
    ...standard('goal', [inline(cp.goal, max)]),
    ...standard('nextAction', nextLine(cp.nextAction)),
    ...standard(
      'blocker',
      cp.openBlockers.map((b) => `⛔ ${inline(b.text, max)} (#${b.eventId}, since ${utc(b.at)})`).reverse(),
    ),
    ...standard(
      'latestInstruction',
      latest ? [`> ${boundedInline(latest.text, latest.eventId, max)} (#${latest.eventId})`] : [],
    ),
    ...section(
      'Earlier instructions',
      cp.earlierInstructions.map((i) => `- ${boundedInline(i.text, i.eventId, 150)} (#${i.eventId})`),
    ),
    ...standard('decisions', decisionLines(cp, max)),
    ...standard(
      'openQuestions',
      newest(
        cp.openQuestions.map((q) => `- ${inline(q.text, max)} (#${q.eventId})`),
        maxList,
        'open questions',
      ),
    ),
    ...section(
      'Answered',
      cp.answers.map((a) => `- ${inline(a.question, max)} → ${inline(a.text, max)} (#${a.eventId})`),
    ),
    ...section(cp.plan ? `Plan — ${done} of ${cp.plan.steps.length} done` : 'Plan', planLines(cp, max)),
    ...section(
      `The agent's todo list — ${cp.agentPlan?.items.filter((i) => i.state === 'done').length ?? 0} of ${cp.agentPlan?.items.length ?? 0} done`,
      todoLines(cp, max),
    ),
    ...standard('changedFiles', fileLines(cp, max)),
    ...standard('validation', validationLines(cp, max)),
    ...section(
      'Last progress',
      cp.lastProgress
        ? [
            `${inline(cp.lastProgress.text, max)}${cp.lastProgress.next ? ` Next: ${inline(cp.lastProgress.next, max)}` : ''} (#${cp.lastProgress.eventId})`,
          ]
        : [],
    ),
    ...section(
      options.proseStale ? 'Notes (written before the latest events)' : 'Notes',
      options.prose ? [options.prose.trim()] : [],
    ),
    '---',
    '',
    `_Built from ${cp.eventCount} events. Details left out here (superseded decisions, resolved blockers, older test runs, ` +
      'free notes) are in `.agent/HISTORY.jsonl` and found by searchHistory; #numbers are event ids._',
    '',
  ];
  return `${frontMatter(cp, options)}\n${lines.join('\n')}`;
}
