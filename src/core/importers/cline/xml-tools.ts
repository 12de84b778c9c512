/**
 * Tool calls written as tags inside the assistant's text, the way Cline and Roo prompted models before native
 * tool calls (cline/cline: src/core/assistant-message/parse-assistant-message.ts): `<execute_command>
 * <command>npm test</command> <requires_approval>false</requires_approval> </execute_command>`. One tool per
 * message; `content` and `diff` run to their last closing tag (a file body may hold the tag itself); a tag left
 * open (an interrupted stream) takes the rest of the text.
 */

export const tagTools = new Set([
  'execute_command',
  'read_file',
  'write_to_file',
  'replace_in_file',
  'apply_diff',
  'insert_content',
  'search_and_replace',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'ask_followup_question',
  'attempt_completion',
  'plan_mode_respond',
  'act_mode_respond',
  'new_task',
  'condense',
  'summarize_task',
  'report_bug',
  'new_rule',
  'web_fetch',
  'web_search',
  'load_mcp_documentation',
  'switch_mode',
  'update_todo_list',
  'codebase_search',
  'fetch_instructions',
]);

const lastClosing = new Set(['content', 'diff']);

export interface TagCall {
  readonly name: string;
  readonly params: Record<string, string>;
  readonly closed: boolean;
}

/** The tool tags in a text, and the text around them (the agent's own words). */
export function parseToolTags(text: string): { calls: TagCall[]; prose: string } {
  const calls: TagCall[] = [];
  const prose: string[] = [];
  const open = /<([a-z_]+)>/g;
  let from = 0;
  for (;;) {
    open.lastIndex = from;
    let m: RegExpExecArray | null;
    while ((m = open.exec(text)) !== null && !tagTools.has(m[1] as string));
    if (m === null) break;
    const name = m[1] as string;
    prose.push(text.slice(from, m.index));
    const bodyStart = m.index + m[0].length;
    const close = text.lastIndexOf(`</${name}>`);
    const closed = close >= bodyStart;
    const body = text.slice(bodyStart, closed ? close : text.length);
    calls.push({ name, params: parseParams(body), closed });
    from = closed ? close + name.length + 3 : text.length;
  }
  prose.push(text.slice(from));
  return { calls, prose: prose.join('').trim() };
}

function parseParams(body: string): Record<string, string> {
  const params: Record<string, string> = {};
  const open = /<([a-z_]+)>/g;
  let m: RegExpExecArray | null;
  while ((m = open.exec(body)) !== null) {
    const name = m[1] as string;
    const start = m.index + m[0].length;
    const closeTag = `</${name}>`;
    const close = lastClosing.has(name) ? body.lastIndexOf(closeTag) : body.indexOf(closeTag, start);
    const end = close >= start ? close : body.length;
    let value = body.slice(start, end);
    if (lastClosing.has(name)) value = value.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
    else value = value.trim();
    if (!Object.hasOwn(params, name)) params[name] = value;
    open.lastIndex = close >= start ? close + closeTag.length : body.length;
  }
  return params;
}
