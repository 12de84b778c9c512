/**
 * "Promote to skill": from a finished task whose validation passed, a SKILL.md draft (the agent-skill convention,
 * written by core/formats/skill) with the steps that worked, the files they touched, the checks that proved them,
 * the decisions that held and the pitfalls met. A draft: the person edits it, then saves it (saveSkill).
 */
import { BrainError } from '../errors';
import type { FileChangeEvent, SessionEvent, ValidationEvent } from '../events/model';
import { createSkillText, maxSkillDescriptionChars, maxSkillNameChars } from '../formats/skill';
import type { TaskId } from '../ids';
import type { TaskState } from '../model';
import type { Plan, PlanStep } from './model';

export interface SkillDraftInput {
  readonly task: { readonly id: TaskId; readonly title: string; readonly state: TaskState };
  readonly plan: Plan | null;
  /** Events of the task and of its child tasks. */
  readonly events: readonly SessionEvent[];
  readonly now: number;
  /** The skill's name; default: from the task title. */
  readonly name?: string;
}

export interface SkillDraft {
  readonly name: string;
  readonly description: string;
  readonly text: string;
  readonly steps: readonly string[];
  readonly validations: readonly {
    readonly name: string;
    readonly runs: number;
    readonly failedRuns: number;
  }[];
}

/** A skill name from free text: lowercase words joined by single hyphens, at most 64 characters. */
export function skillNameFrom(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = slug.slice(0, maxSkillNameChars).replace(/-+$/g, '');
  return cut === '' ? 'task-skill' : cut;
}

const inline = (text: string) => text.replace(/\s+/g, ' ').trim();

interface CheckStats {
  runs: number;
  failed: number;
  last: ValidationEvent;
}

function checksOf(events: readonly SessionEvent[]): Map<string, CheckStats> {
  const checks = new Map<string, CheckStats>();
  for (const e of events) {
    if (e.kind !== 'validation') continue;
    const s = checks.get(e.name) ?? { runs: 0, failed: 0, last: e };
    checks.set(e.name, { runs: s.runs + 1, failed: s.failed + (e.result === 'passed' ? 0 : 1), last: e });
  }
  return checks;
}

/** Refuses a task that is not finished or whose checks did not (all) pass at the end. */
function requirePromotable(input: SkillDraftInput, checks: Map<string, CheckStats>): void {
  const { task, plan } = input;
  const planDone =
    plan !== null &&
    plan.steps.length > 0 &&
    plan.steps.every((s) => s.state === 'done' || s.state === 'skipped');
  if (task.state !== 'done' && !planDone) {
    throw new BrainError(
      'Conflict',
      `Task ${task.id} is not finished (${task.state}); a skill is drafted from a task that is done.`,
      {
        taskId: task.id,
      },
    );
  }
  if (checks.size === 0) {
    throw new BrainError(
      'Conflict',
      `Task ${task.id} recorded no validation; a skill is drafted only from work a check proved.`,
      {
        taskId: task.id,
      },
    );
  }
  const failing = [...checks.values()].filter((c) => c.last.result !== 'passed').map((c) => c.last.name);
  if (failing.length > 0) {
    throw new BrainError(
      'Conflict',
      `Task ${task.id}'s last run of ${failing.join(', ')} did not pass; fix it before promoting the task to a skill.`,
      {
        taskId: task.id,
        failing,
      },
    );
  }
}

/**
 * The events of a step: those linked to it, and those of child tasks (which have no step of this plan) recorded
 * while it was being worked on (between its last start and its end).
 */
function eventsOfStep(step: PlanStep, events: readonly SessionEvent[], rootTaskId: TaskId): SessionEvent[] {
  const started =
    events.filter((e) => e.kind === 'plan_step_started' && e.planStepId === step.id).at(-1)?.id ?? Infinity;
  const done =
    events.find((e) => e.kind === 'plan_step_done' && e.planStepId === step.id && e.id > started)?.id ??
    Infinity;
  return events.filter(
    (e) =>
      e.planStepId === step.id ||
      (e.taskId !== rootTaskId && e.planStepId === null && e.id > started && e.id < done),
  );
}

function stepLines(
  step: PlanStep,
  events: readonly SessionEvent[],
  rootTaskId: TaskId,
  index: number,
): string[] {
  const mine = eventsOfStep(step, events, rootTaskId);
  const files = [
    ...new Set(mine.filter((e): e is FileChangeEvent => e.kind === 'file_change').map((e) => e.path)),
  ];
  const passed = [
    ...new Set(
      mine
        .filter((e): e is ValidationEvent => e.kind === 'validation' && e.result === 'passed')
        .map((e) => e.name),
    ),
  ];
  const lines = [`${index}. ${inline(step.what)}${step.why ? ` — ${inline(step.why)}` : ''}`];
  if (files.length > 0) lines.push(`   - Files: ${files.map((f) => `\`${f}\``).join(', ')}`);
  if (passed.length > 0) lines.push(`   - Checked with: ${passed.map((n) => `\`${n}\``).join(', ')}`);
  return lines;
}

/** Without a plan: the progress notes in order, else the files changed. */
function stepsWithoutPlan(events: readonly SessionEvent[]): string[] {
  const progress = events.filter((e) => e.kind === 'progress').map((e) => inline(e.text));
  if (progress.length > 0) return progress;
  const files = [
    ...new Set(events.filter((e): e is FileChangeEvent => e.kind === 'file_change').map((e) => e.path)),
  ];
  return files.map((f) => `Change \`${f}\``);
}

function pitfalls(events: readonly SessionEvent[], checks: Map<string, CheckStats>): string[] {
  const out: string[] = [];
  const byId = new Map(events.map((e) => [e.id, e]));
  for (const e of events) {
    if (e.kind === 'blocker_resolved') {
      const blocker = byId.get(e.resolves);
      out.push(
        `- Blocked by: ${inline(blocker?.text ?? `blocker #${e.resolves}`)}${e.text ? ` → resolved: ${inline(e.text)}` : ''}`,
      );
    }
    if (e.kind === 'decision' && e.supersedes !== null) {
      const old = byId.get(e.supersedes);
      if (old) out.push(`- Tried: ${inline(old.text)} → replaced by: ${inline(e.text)}`);
    }
  }
  for (const [name, c] of checks) {
    if (c.failed > 0) {
      const firstFail = events.find(
        (e): e is ValidationEvent => e.kind === 'validation' && e.name === name && e.result !== 'passed',
      );
      out.push(
        `- \`${name}\` failed ${c.failed}× before passing${firstFail?.text ? ` (first: ${inline(firstFail.text)})` : ''}`,
      );
    }
  }
  return out;
}

export function draftSkill(input: SkillDraftInput): SkillDraft {
  const events = [...input.events].sort((a, b) => a.id - b.id);
  const checks = checksOf(events);
  requirePromotable(input, checks);
  const { task, plan } = input;
  const name = input.name ?? skillNameFrom(task.title);
  const doneSteps = plan ? [...plan.steps].sort((a, b) => a.n - b.n).filter((s) => s.state === 'done') : [];
  const steps = plan ? doneSteps.map((s) => inline(s.what)) : stepsWithoutPlan(events);
  const stepBlock = plan
    ? doneSteps.flatMap((s, i) => stepLines(s, events, task.id, i + 1))
    : steps.map((s, i) => `${i + 1}. ${s}`);
  const goal = inline(plan?.goal || task.title);
  const checkNames = [...checks.keys()];
  const description =
    `${goal}. Use it to do this kind of task again: ${steps.length} steps that worked, checked with ${checkNames.join(', ')}.`.slice(
      0,
      maxSkillDescriptionChars,
    );
  const decisions = events.filter(
    (e) => e.kind === 'decision' && !events.some((d) => d.kind === 'decision' && d.supersedes === e.id),
  );
  const body = [
    `# ${inline(task.title)}`,
    '',
    `_Drafted on ${new Date(input.now).toISOString().slice(0, 10)} from task #${task.id}, whose validation passed. Edit it before saving: keep what generalises, drop what was particular to that task._`,
    '',
    '## When to use',
    '',
    goal,
    '',
    '## Steps that worked',
    '',
    ...stepBlock,
    '',
    ...(decisions.length > 0
      ? [
          '## Decisions to keep',
          '',
          ...decisions.map(
            (d) => `- ${inline(d.text)}${d.kind === 'decision' && d.why ? ` — why: ${inline(d.why)}` : ''}`,
          ),
          '',
        ]
      : []),
    '## How to check it worked',
    '',
    ...[...checks.values()].map(
      (c) => `- Run \`${c.last.name}\`: it must pass${c.runs > 1 ? ` (passed after ${c.runs} runs)` : ''}.`,
    ),
    '',
    ...((p) => (p.length > 0 ? ['## Pitfalls met', '', ...p, ''] : []))(pitfalls(events, checks)),
  ].join('\n');
  const text = createSkillText({ name, description, body });
  return {
    name,
    description,
    text,
    steps,
    validations: [...checks.values()].map((c) => ({ name: c.last.name, runs: c.runs, failedRuns: c.failed })),
  };
}
