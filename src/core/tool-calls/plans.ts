/**
 * Plans as agents write them: Claude Code `TodoWrite {todos: [{content, status, activeForm}]}` and its newer
 * `TaskCreate {subject, description, activeForm}` / `TaskUpdate {taskId, status, subject}`; Codex `update_plan
 * {explanation?, plan: [{step, status}]}`; Gemini `write_todos {todos: [{description, status}]}`; and the
 * markdown checklist Cline sends as `task_progress` beside any tool (`- [x] done`, `- [ ] to do`).
 * States map onto the plan's: pending → todo, in_progress → started, completed → done, cancelled/deleted →
 * skipped.
 */
import type { PlanItem, PlanItemState, PlanUpdate } from './effect-types';
import { asFields, list, str } from './json-input';
import type { Handler } from './tool-names';

export const maxPlanItems = 500;

export function planState(status: string | null): PlanItemState {
  switch ((status ?? '').toLowerCase().replace(/[\s-]/g, '_')) {
    case 'in_progress':
    case 'inprogress':
    case 'active':
    case 'started':
    case 'doing':
      return 'started';
    case 'completed':
    case 'complete':
    case 'done':
      return 'done';
    case 'cancelled':
    case 'canceled':
    case 'deleted':
    case 'skipped':
      return 'skipped';
    default:
      return 'todo';
  }
}

function items(raw: readonly unknown[] | null, textKeys: string[]): PlanItem[] {
  const out: PlanItem[] = [];
  for (const entry of raw ?? []) {
    if (out.length >= maxPlanItems) break;
    const f = asFields(entry);
    const text = typeof entry === 'string' ? entry : str(f, ...textKeys);
    if (text === null || text.trim() === '') continue;
    out.push({
      text,
      state: planState(str(f, 'status', 'state')),
      activeForm: str(f, 'activeForm', 'active_form'),
      id: str(f, 'id'),
    });
  }
  return out;
}

export function readPlan(handler: Handler, tool: string, input: unknown): PlanUpdate | null {
  const f = asFields(input);
  switch (handler) {
    case 'todos':
      return {
        mode: 'replace',
        items: items(list(f, 'todos', 'items'), ['content', 'description', 'text', 'title']),
        explanation: null,
        via: tool,
      };
    case 'update-plan':
      return {
        mode: 'replace',
        items: items(list(f, 'plan', 'steps'), ['step', 'content', 'text']),
        explanation: str(f, 'explanation'),
        via: tool,
      };
    case 'task-create': {
      const text = str(f, 'subject', 'title', 'description');
      if (text === null) return null;
      return {
        mode: 'add',
        items: [
          {
            text,
            state: planState(str(f, 'status')),
            activeForm: str(f, 'activeForm'),
            id: str(f, 'taskId', 'id'),
          },
        ],
        via: tool,
      };
    }
    case 'task-update': {
      const id = str(f, 'taskId', 'id', 'task_id');
      if (id === null) return null;
      const status = str(f, 'status');
      return {
        mode: 'update',
        id,
        state: status === null ? null : planState(status),
        text: str(f, 'subject', 'title'),
        via: tool,
      };
    }
    default:
      return null;
  }
}

/** Cline's `task_progress` checklist, when a call carries one. */
export function checklistPlan(input: unknown, tool: string): PlanUpdate | null {
  const text = str(asFields(input), 'task_progress');
  if (text === null) return null;
  const found: PlanItem[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*[-*] \[([ xX~-])\] (.+)$/.exec(line);
    if (!m || found.length >= maxPlanItems) continue;
    const mark = m[1] as string;
    const state: PlanItemState =
      mark === 'x' || mark === 'X' ? 'done' : mark === '~' ? 'started' : mark === '-' ? 'skipped' : 'todo';
    found.push({ text: (m[2] as string).trim(), state, activeForm: null, id: null });
  }
  return found.length > 0
    ? { mode: 'replace', items: found, explanation: null, via: `${tool} task_progress` }
    : null;
}
