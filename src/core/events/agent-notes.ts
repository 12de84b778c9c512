/**
 * What an agent says about its own work, kept on `note` events so the active checkpoint can use it: its stated
 * intention (`said`: the agent's own text, e.g. "Now I'll fix the off-by-one in paginate and re-run the tests")
 * and its todo list (`todos`: Claude Code TodoWrite, Codex update_plan, Gemini write_todos, a markdown checklist),
 * which counts as the plan while the task has none of its own.
 */
import { BrainError } from '../errors';
import { requireText } from '../model';
import { planStepStates, type PlanStepState } from '../plan/model';

export interface AgentTodoItem {
  readonly text: string;
  readonly state: PlanStepState;
  /** The agent's own id of the item (task tools), null when it gives none. */
  readonly id: string | null;
}

/** `replace`: the whole list (TodoWrite, update_plan); `add`: items added; `update`: one item by id. */
export type AgentTodos =
  | { readonly mode: 'replace' | 'add'; readonly items: readonly AgentTodoItem[] }
  | {
      readonly mode: 'update';
      readonly id: string;
      readonly state: PlanStepState | null;
      readonly text: string | null;
    };

/** Items one todo list keeps (a list past it keeps its first ones). */
export const MAX_TODO_ITEMS = 100;
const MAX_TODO_CHARS = 2_000;

const state = (value: unknown, what: string): PlanStepState => {
  if (typeof value === 'string' && (planStepStates as readonly string[]).includes(value))
    return value as PlanStepState;
  throw new BrainError('InvalidArgument', `${what} must be one of ${planStepStates.join(', ')}.`);
};

const optionalText = (value: unknown, what: string) =>
  value === undefined || value === null ? null : requireText(value, what, MAX_TODO_CHARS).trim() || null;

function item(value: unknown, index: number): AgentTodoItem {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const text = requireText(raw['text'], `Todo ${index} text`, MAX_TODO_CHARS).trim();
  if (text === '') throw new BrainError('InvalidArgument', `Todo ${index} text must not be empty.`);
  return { text, state: state(raw['state'], `Todo ${index} state`), id: optionalText(raw['id'], 'Todo id') };
}

/** Validates a note's `todos` (it crossed the worker boundary). */
export function parseAgentTodos(value: unknown): AgentTodos {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const mode = raw['mode'];
  if (mode === 'replace' || mode === 'add') {
    if (!Array.isArray(raw['items']))
      throw new BrainError('InvalidArgument', 'A todo list needs `items`: an array.');
    return { mode, items: raw['items'].slice(0, MAX_TODO_ITEMS).map(item) };
  }
  if (mode === 'update') {
    const id = optionalText(raw['id'], 'Todo id');
    if (id === null) throw new BrainError('InvalidArgument', 'A todo update needs the item `id`.');
    return {
      mode,
      id,
      state: raw['state'] === undefined || raw['state'] === null ? null : state(raw['state'], 'Todo state'),
      text: optionalText(raw['text'], 'Todo text'),
    };
  }
  throw new BrainError('InvalidArgument', 'Todos `mode` must be replace, add or update.');
}

/** The list after `update` (the fold applies each note's todos in order). */
export function applyAgentTodos(items: readonly AgentTodoItem[], update: AgentTodos): AgentTodoItem[] {
  switch (update.mode) {
    case 'replace':
      return [...update.items];
    case 'add':
      return [...items, ...update.items].slice(0, MAX_TODO_ITEMS);
    case 'update':
      return items.map((i) =>
        i.id === update.id ? { ...i, state: update.state ?? i.state, text: update.text ?? i.text } : i,
      );
  }
}
