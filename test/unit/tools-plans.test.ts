/** Plans from TodoWrite, update_plan, write_todos, TaskCreate/TaskUpdate and Cline's task_progress checklist. */
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/core/tool-calls';

describe('plans', () => {
  it('reads Claude Code TodoWrite', () => {
    const meaning = classifyToolCall({
      tool: 'TodoWrite',
      input: {
        todos: [
          { content: 'Reproduce the bug', status: 'completed', activeForm: 'Reproducing the bug' },
          { content: 'Fix the parser', status: 'in_progress', activeForm: 'Fixing the parser' },
          { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
        ],
      },
    });
    expect(meaning.kind).toBe('plan');
    expect(meaning.plan).toEqual({
      mode: 'replace',
      explanation: null,
      via: 'TodoWrite',
      items: [
        { text: 'Reproduce the bug', state: 'done', activeForm: 'Reproducing the bug', id: null },
        { text: 'Fix the parser', state: 'started', activeForm: 'Fixing the parser', id: null },
        { text: 'Run the tests', state: 'todo', activeForm: 'Running the tests', id: null },
      ],
    });
  });

  it('reads Codex update_plan, with its arguments as JSON text', () => {
    const input = JSON.stringify({
      explanation: 'Parser first, then docs',
      plan: [
        { step: 'Fix quoting in lexer', status: 'completed' },
        { step: 'Update README', status: 'in_progress' },
        { step: 'Release', status: 'pending' },
      ],
    });
    const plan = classifyToolCall({ tool: 'update_plan', input }).plan;
    expect(plan).toMatchObject({ mode: 'replace', explanation: 'Parser first, then docs' });
    expect(plan?.mode === 'replace' && plan.items.map((i) => [i.text, i.state])).toEqual([
      ['Fix quoting in lexer', 'done'],
      ['Update README', 'started'],
      ['Release', 'todo'],
    ]);
  });

  it('reads Gemini write_todos, with cancelled as skipped', () => {
    const plan = classifyToolCall({
      tool: 'write_todos',
      input: {
        todos: [
          { description: 'Try the old API', status: 'cancelled' },
          { description: 'Use the new API', status: 'in_progress' },
        ],
      },
    }).plan;
    expect(plan?.mode === 'replace' && plan.items.map((i) => i.state)).toEqual(['skipped', 'started']);
  });

  it('reads TaskCreate and TaskUpdate', () => {
    expect(
      classifyToolCall({
        tool: 'TaskCreate',
        input: { subject: 'Write tests', description: 'cover the lexer' },
      }).plan,
    ).toEqual({
      mode: 'add',
      via: 'TaskCreate',
      items: [{ text: 'Write tests', state: 'todo', activeForm: null, id: null }],
    });
    expect(classifyToolCall({ tool: 'TaskUpdate', input: { taskId: '3', status: 'deleted' } }).plan).toEqual({
      mode: 'update',
      id: '3',
      state: 'skipped',
      text: null,
      via: 'TaskUpdate',
    });
  });

  it('reads Cline’s task_progress checklist beside another tool', () => {
    const meaning = classifyToolCall({
      tool: 'execute_command',
      input: {
        command: 'npm test',
        requires_approval: false,
        task_progress: '- [x] Read the code\n- [ ] Fix it\n- [ ] Test it',
      },
      exitCode: 0,
    });
    expect(meaning.kind).toBe('check');
    expect(meaning.plan?.mode === 'replace' && meaning.plan.items.map((i) => [i.text, i.state])).toEqual([
      ['Read the code', 'done'],
      ['Fix it', 'todo'],
      ['Test it', 'todo'],
    ]);
  });

  it('keeps a plan input without items as a plan step with a note', () => {
    const meaning = classifyToolCall({ tool: 'TodoWrite', input: { todos: 'not a list' } });
    expect(meaning.plan).toMatchObject({ mode: 'replace', items: [] });
  });
});
