/**
 * Cline / Roo task files by name and first bytes: `api_conversation_history.json` (an Anthropic message array
 * whose first user message opens with `<task>` or `<user_message>`, or Roo's `{version: 2, messages}`),
 * `ui_messages.json` (`[{ts, type: "say", say: "task"…`), `task_metadata.json` (`files_in_context`).
 */
import type { Sniff } from '../types';

const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);
const compact = (head: string) => head.slice(0, 8192).replace(/\s+/g, '');

export const sniffClineTaskFile: Sniff = (name, head) => {
  const base = baseName(name);
  const text = compact(head);
  const api = text.startsWith('[{"role":') || /^\{"version":2,"messages":\[/.test(text);
  const apiTask = api && /"text":"(?:<task>|<user_message>)/.test(text);
  const ui = /^\[\{"ts":\d{10,},"type":"(?:say|ask)"/.test(text);
  const metadata = text.startsWith('{"files_in_context":');
  if (apiTask || ui || metadata) return 2;
  if (base === 'api_conversation_history.json' && api) return 2;
  if (base === 'ui_messages.json' && text.startsWith('[')) return 2;
  if (base === 'task_metadata.json' && text.startsWith('{')) return 2;
  if (
    base === 'api_conversation_history.json' ||
    base === 'ui_messages.json' ||
    base === 'task_metadata.json'
  )
    return 1;
  return 0;
};
