/**
 * Tool names → what the classifier does with the call. Names are matched without case and without an MCP or
 * namespace prefix (`mcp__fs__edit_file` → `edit_file`, `functions.shell` → `shell`), so the same table serves
 * Claude Code (`Bash`, `Edit`, `MultiEdit`, `Write`, `Read`, `TodoWrite`), Codex (`shell`, `exec_command`,
 * `apply_patch`, `update_plan`), Gemini CLI (`run_shell_command`, `replace`, `write_file`, `read_file`), Cline
 * and Roo (`execute_command`, `replace_in_file`, `apply_diff`, `write_to_file`), SWE-agent and OpenHands
 * (`str_replace_editor`, `execute_bash`), and Anthropic's `str_replace_based_edit_tool`.
 */
import type { ToolFamily } from './types';

/**
 * Tools whose call ends the agent's run by delivering its work: Cline/Roo `attempt_completion`, OpenHands `finish`,
 * SWE-agent's `submit`. The importers mark the task done after one (src/engine/importers/session-writer.ts).
 */
export const completionTools: ReadonlySet<string> = new Set(['attempt_completion', 'finish', 'submit']);

export type Handler =
  | 'shell'
  | 'edit'
  | 'multi-edit'
  | 'write'
  | 'editor'
  | 'search-replace'
  | 'insert-content'
  | 'apply-patch'
  | 'notebook'
  | 'read'
  | 'read-many'
  | 'search'
  | 'glob'
  | 'list'
  | 'todos'
  | 'update-plan'
  | 'task-create'
  | 'task-update';

const handlers: Record<string, Handler> = {
  bash: 'shell',
  shell: 'shell',
  shell_command: 'shell',
  exec_command: 'shell',
  local_shell: 'shell',
  local_shell_call: 'shell',
  'container.exec': 'shell',
  run_shell_command: 'shell',
  execute_command: 'shell',
  execute_bash: 'shell',
  terminal: 'shell',
  run_command: 'shell',
  run_terminal_cmd: 'shell',
  run_in_terminal: 'shell',
  powershell: 'shell',
  // SWE-agent's tools are commands of its shell; `submit` prints the final patch (effects/shown.ts).
  submit: 'shell',
  edit: 'edit',
  replace: 'edit',
  edit_file: 'edit',
  str_replace: 'edit',
  multiedit: 'multi-edit',
  multi_edit: 'multi-edit',
  write: 'write',
  write_file: 'write',
  write_to_file: 'write',
  create_file: 'write',
  str_replace_editor: 'editor',
  str_replace_based_edit_tool: 'editor',
  file_editor: 'editor',
  text_editor: 'editor',
  replace_in_file: 'search-replace',
  apply_diff: 'search-replace',
  insert_content: 'insert-content',
  apply_patch: 'apply-patch',
  applypatch: 'apply-patch',
  notebookedit: 'notebook',
  notebook_edit: 'notebook',
  read: 'read',
  read_file: 'read',
  view_file: 'read',
  read_many_files: 'read-many',
  grep: 'search',
  grep_search: 'search',
  search_file_content: 'search',
  search_files: 'search',
  glob: 'glob',
  find_files: 'glob',
  file_search: 'glob',
  ls: 'list',
  list_directory: 'list',
  list_files: 'list',
  list_dir: 'list',
  list_code_definition_names: 'list',
  todowrite: 'todos',
  todo_write: 'todos',
  write_todos: 'todos',
  update_plan: 'update-plan',
  taskcreate: 'task-create',
  task_create: 'task-create',
  taskupdate: 'task-update',
  task_update: 'task-update',
};

/** The bare name: lower case, without `mcp__server__`, `functions.`, `default_api:` and the like. */
export function bareToolName(tool: string): string {
  let name = tool.trim().toLowerCase();
  const mcp = name.lastIndexOf('__');
  if (name.startsWith('mcp__') && mcp > 4) name = name.slice(mcp + 2);
  for (const prefix of ['functions.', 'default_api:', 'default_api.', 'tools.']) {
    if (name.startsWith(prefix)) name = name.slice(prefix.length);
  }
  return name;
}

export function handlerOf(tool: string): Handler | null {
  const name = bareToolName(tool);
  return Object.hasOwn(handlers, name) ? (handlers[name] as Handler) : null;
}

export function familyOf(handler: Handler | null): ToolFamily {
  switch (handler) {
    case null:
      return 'unknown';
    case 'shell':
      return 'shell';
    case 'read':
    case 'read-many':
    case 'search':
    case 'glob':
    case 'list':
      return 'read';
    case 'todos':
    case 'update-plan':
    case 'task-create':
    case 'task-update':
      return 'plan';
    default:
      return 'edit';
  }
}
