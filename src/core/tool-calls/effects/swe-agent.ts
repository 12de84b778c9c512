/**
 * SWE-agent writes its editor calls as command lines: `str_replace_editor str_replace /testbed/x.py --old_str
 * '…' --new_str '…'` (also `create … --file_text`, `insert … --insert_line N --new_str`, `view … --view_range A
 * B`, `undo_edit …`). Read into the same input shape as the structured tool.
 */
import type { Fields } from '../json-input';
import type { EditReading } from './edit-tools';
import { readEditor } from './editor-tool';

export function sweAgentEditor(args: readonly string[], out: EditReading, at: (p: string) => string): void {
  const [command, path, ...rest] = args;
  if (command === undefined || path === undefined) return;
  const fields: Record<string, unknown> = { command, path: at(path) };
  for (let k = 0; k < rest.length; k++) {
    const flag = rest[k] as string;
    if (!flag.startsWith('--')) continue;
    const name = flag.slice(2);
    if (name === 'view_range') {
      fields['view_range'] = [Number(rest[k + 1]), Number(rest[k + 2])];
      k += 2;
    } else if (name === 'insert_line') fields['insert_line'] = Number(rest[++k]);
    else fields[name] = rest[++k] ?? '';
  }
  readEditor(fields as Fields, 'str_replace_editor', null, out);
}
