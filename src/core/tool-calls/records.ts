/**
 * What one classified tool call adds to the log besides its file changes: the stored step (params and a bounded
 * result), a validation per check whose result is known, the agent's todo list, and its stated intention.
 */
import { headAndTail } from '../events/step-text';
import type { AgentTodos } from '../events/agent-notes';
import type { Json } from '../model';
import type { PlanUpdate } from './effect-types';
import type { CheckRun, ToolCall, ToolCallMeaning } from './types';

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

/** The step row: the call's input as params; output, exit code and error as the result. */
export function stepOf(call: ToolCall, meaning: ToolCallMeaning) {
  const result: Record<string, Json> = {};
  if (typeof call.output === 'string') result['output'] = bounded(call.output);
  if (typeof call.exitCode === 'number') result['exitCode'] = call.exitCode;
  if (typeof call.error === 'string') result['error'] = bounded(call.error);
  return {
    tool: call.tool,
    params: jsonSafe(call.input),
    result: result as Json,
    status: meaning.failed || typeof call.error === 'string' ? ('error' as const) : ('ok' as const),
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
