/**
 * What one classified tool call adds to the log besides its file changes: the stored step (params and a bounded
 * result), a validation per check whose result is known, the agent's todo list, and its stated intention.
 */
import { headAndTail } from '../events/step-text';
import type { AgentTodos } from '../events/agent-notes';
import type { LastAction } from '../compression/model';
import type { Json, Step } from '../model';
import { classifyToolCall } from './classify';
import { outputLines } from './output';
import type { PlanUpdate } from './effect-types';
import type { PlannedFileChange } from './file-changes';
import { handlerOf, type Handler } from './tool-names';
import type { CheckRun, ToolCall, ToolCallMeaning, ToolFamily } from './types';

/** A tool's output kept in the step: whole up to here, else its head and tail (the summary is at the end). */
export const STEP_OUTPUT_HEAD = 768 * 1024;
export const STEP_OUTPUT_TAIL = 256 * 1024;

const jsonSafe = (value: unknown): Json => {
  if (value === undefined) return null;
  if (typeof value === 'string')
    return value.length > STEP_OUTPUT_HEAD + STEP_OUTPUT_TAIL ? bounded(value) : value;
  return value as Json;
};

const bounded = (text: string) => headAndTail(text, STEP_OUTPUT_HEAD, STEP_OUTPUT_TAIL);

/**
 * The step row: the call's input as params; output, exit code and error as the result. Its status follows the
 * call's outcome as the classifier told it: `error` for a tool error (given, or an `isError` result) and for a
 * command that exited non-zero, else `ok`.
 */
export function stepOf(call: ToolCall, meaning: Pick<ToolCallMeaning, 'exitCode' | 'error' | 'failed'>) {
  const result: Record<string, Json> = {};
  if (typeof call.output === 'string') result['output'] = bounded(call.output);
  if (meaning.exitCode !== null) result['exitCode'] = meaning.exitCode;
  if (typeof call.error === 'string') result['error'] = bounded(call.error);
  else if (call.isError === true && meaning.error !== null) result['isError'] = true;
  const failed =
    meaning.failed || meaning.error !== null || (meaning.exitCode !== null && meaning.exitCode !== 0);
  return {
    tool: call.tool,
    params: jsonSafe(call.input),
    result: result as Json,
    status: failed ? ('error' as const) : ('ok' as const),
  };
}

const resultOf = (status: CheckRun['result']['status']) =>
  status === 'passed' || status === 'failed' || status === 'error' ? status : null;

/** The validation text: the summary line (or counts), then the first failures. */
export function checkText(run: CheckRun): string {
  const { summary, counts, failures, note, exitCode } = run.result;
  const parts: string[] = [];
  if (summary) parts.push(summary.length > 300 ? `${summary.slice(0, 299)}…` : summary);
  else if (counts)
    parts.push(
      Object.entries(counts)
        .map(([k, n]) => `${n} ${k}`)
        .join(', '),
    );
  else if (exitCode !== null) parts.push(`exit code ${exitCode}`);
  if (failures.length > 0) parts.push(`failing: ${failures.slice(0, 5).join(', ')}`);
  if (parts.length === 0 && note) parts.push(note);
  return parts.join(' — ').slice(0, 1_000);
}

/** The validations to record: checks whose result is known (an unknown one is said in the notes). */
export function validationsOf(meaning: ToolCallMeaning) {
  const out: { run: CheckRun; result: 'passed' | 'failed' | 'error'; text: string }[] = [];
  const notes: string[] = [];
  for (const run of meaning.checks) {
    const result = resultOf(run.result.status);
    if (result === null)
      notes.push(
        `${run.id}: its result could not be told (${run.result.note ?? 'no exit code, no summary line'}).`,
      );
    else out.push({ run, result, text: checkText(run) });
  }
  return { validations: out, notes };
}

/** The todo note for a plan tool call. */
export function todosOf(plan: PlanUpdate): { todos: AgentTodos; text: string } {
  if (plan.mode === 'update') {
    return {
      todos: { mode: 'update', id: plan.id, state: plan.state, text: plan.text },
      text: `Todo ${plan.id}${plan.state ? ` → ${plan.state}` : ''}${plan.text ? `: ${plan.text}` : ''} (${plan.via})`,
    };
  }
  const items = plan.items.map((i) => ({ text: i.text, state: i.state, id: i.id }));
  const done = items.filter((i) => i.state === 'done').length;
  const current = plan.items.find((i) => i.state === 'started');
  const text =
    `${plan.mode === 'add' ? 'Added to the todo list' : 'Todo list'}: ${items.length} item${items.length === 1 ? '' : 's'}, ${done} done` +
    `${current ? `; in progress: ${current.activeForm ?? current.text}` : ''} (${plan.via})`;
  return { todos: { mode: plan.mode, items }, text };
}

/** An event's own fields (kind, text, …), before the session, task and step it belongs to are added. */
export type EventFields = { readonly kind: string } & Record<string, unknown>;

/** What one classified call adds to the log, each record beside what it stands for (no parallel index arrays). */
export interface ToolCallRecords {
  /** The agent's stated intention, said before the call. */
  readonly thought: EventFields | null;
  readonly files: readonly { readonly change: PlannedFileChange; readonly event: EventFields }[];
  /** Every check the call ran; `event` is its validation, null when its result could not be told. */
  readonly checks: readonly { readonly run: CheckRun; readonly event: EventFields | null }[];
  readonly todo: EventFields | null;
  /** Checks whose result could not be told, in words. */
  readonly notes: readonly string[];
}

const changeVerb = (change: PlannedFileChange['change']) =>
  change === 'created' ? 'Created' : change === 'deleted' ? 'Deleted' : 'Changed';

/**
 * The events of one call, pure: its intention, a file change per planned change (linked to its checkpoint entry
 * when both bodies were stored), a validation per check with a known result, and its todo list.
 */
export function toolCallRecords(
  meaning: ToolCallMeaning,
  changes: readonly PlannedFileChange[],
  entryOf: ReadonlyMap<string, number>,
  thought: string | null,
): ToolCallRecords {
  const { validations, notes } = validationsOf(meaning);
  const todo = meaning.plan && !meaning.failed ? todosOf(meaning.plan) : null;
  return {
    thought: thought === null ? null : { kind: 'note', said: true, text: thought },
    files: changes.map((c) => ({
      change: c,
      event: {
        kind: 'file_change',
        path: c.path,
        change: c.change,
        outside: c.outside,
        ...(c.shown ? { shown: true } : {}),
        checkpointEntryId: entryOf.get(c.path) ?? null,
        // A change the call's output showed was made at an earlier step: the text says where it was seen.
        text: c.shown ? `${changeVerb(c.change)}, as ${c.via} showed` : `${changeVerb(c.change)} by ${c.via}`,
      },
    })),
    checks: meaning.checks.map((run) => {
      const v = validations.find((x) => x.run === run);
      return {
        run,
        event: v
          ? {
              kind: 'validation',
              name: run.id,
              command: commandOf(run),
              result: v.result,
              text: v.text,
              ...(run.baseline ? { baseline: true } : {}),
            }
          : null,
      };
    }),
    todo: todo === null ? null : { kind: 'note', text: todo.text, todos: todo.todos },
    notes,
  };
}

/**
 * The check's command as the agent typed it, with the `cd` into the folder it ran in (its name says `web: npm
 * test`; the agent typed `cd web && npm test`).
 */
const commandOf = (run: CheckRun) => (run.scope === null ? run.command : `cd ${run.scope} && ${run.command}`);

/** The records in the order they are written (intention, file changes, validations, todo). */
export function recordsInOrder(r: ToolCallRecords): EventFields[] {
  const out: EventFields[] = [];
  if (r.thought) out.push(r.thought);
  for (const f of r.files) out.push(f.event);
  for (const c of r.checks) if (c.event) out.push(c.event);
  if (r.todo) out.push(r.todo);
  return out;
}

/** Which sides of a change's bodies are known. */
export const bodiesOf = (c: PlannedFileChange): 'both' | 'no-before' | 'no-after' | 'none' =>
  c.before !== undefined && c.after !== undefined
    ? 'both'
    : c.before !== undefined
      ? 'no-after'
      : c.after !== undefined
        ? 'no-before'
        : 'none';

/** The output's last non-empty line, cleaned and bounded: where runners print their summary. */
/**
 * What a call's output says it did. A command prints its result last; a tool that reads a file prints the file
 * (its last line is a line of that file: `printed N lines` instead), and an edit tool says what it did first,
 * then shows the edited text (Claude Code's `cat -n` snippet, OpenHands' diff).
 */
function summaryOf(family: ToolFamily, handler: Handler | null, output: string): string | null {
  if (family === 'read' && (handler === 'read' || handler === 'read-many')) {
    const n = outputLines(output).filter((l) => l.trim() !== '').length;
    return n === 0 ? null : `printed ${n} line${n === 1 ? '' : 's'}`;
  }
  if (family === 'read' || family === 'edit') {
    const lines = outputLines(output.length > 8192 ? output.slice(0, 8192) : output);
    const last = lines.findLastIndex((l) => l.trim() !== '');
    if (last >= 0 && endsInDiff(lines, last)) return diffSummary(output);
    const first = lines.find((l) => l.trim() !== '');
    return first === undefined ? null : first.trim().slice(0, 300);
  }
  return lastLine(output);
}

/**
 * The output's closing line — or, when the output ends inside a diff it printed (SWE-agent's `submit`, a `git
 * diff`), which files that diff shows: its last line is a line of code, not a result.
 */
function lastLine(output: string): string | null {
  const tail = output.length > 8192 ? output.slice(-8192) : output;
  const lines = outputLines(tail);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] as string).trim();
    if (line === '' || /^<\/?(?:output|returncode)>/.test(line)) continue;
    return endsInDiff(lines, i) ? diffSummary(output) : line.slice(0, 300);
  }
  return null;
}

/** Whether line `last` is a hunk line (context, added, removed) of a diff whose header came before it. */
function endsInDiff(lines: readonly string[], last: number): boolean {
  if (!/^[ +\-\\]/.test(lines[last] as string)) return false;
  for (let i = last; i >= 0; i--) {
    const line = lines[i] as string;
    if (/^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/.test(line)) return true;
    if (!/^(?:[ +\-\\]|$)/.test(line)) return false;
  }
  return false;
}

function diffSummary(output: string): string {
  const files = new Set<string>();
  for (const m of output.matchAll(/^diff --git a\/(\S+) b\/(\S+)|^\+\+\+ (?:b\/)?(\S+)/gm)) {
    const path = m[2] ?? m[3];
    if (path && path !== '/dev/null') files.add(path);
    if (files.size > 5) break;
  }
  const names = [...files];
  if (names.length === 0) return 'printed a diff';
  const shown = names.slice(0, 5).join(', ');
  return `printed a diff of ${shown}${names.length > 5 ? ', …' : ''}`.slice(0, 300);
}

/**
 * What a stored step says ran: its command (the classifier's reading of the stored input), exit code and the
 * output's summary line — for a handoff that must not ask to run it again.
 */
export function lastActionOf(step: Step): LastAction {
  const meaning = classifyToolCall({ tool: step.tool, input: step.params });
  const result = (
    typeof step.result === 'object' && step.result !== null && !Array.isArray(step.result) ? step.result : {}
  ) as Record<string, Json>;
  const output = typeof result['output'] === 'string' ? result['output'] : '';
  const error = typeof result['error'] === 'string' ? result['error'] : '';
  const exitCode = typeof result['exitCode'] === 'number' ? result['exitCode'] : null;
  const command = (meaning.command ?? step.tool).replace(/\s+/g, ' ').trim().slice(0, 400);
  return {
    stepId: step.id,
    tool: step.tool,
    command: command === '' ? step.tool : command,
    exitCode,
    status: step.status,
    summary: summaryOf(meaning.family, handlerOf(step.tool), output) ?? lastLine(error),
    at: step.createdAt,
  };
}
