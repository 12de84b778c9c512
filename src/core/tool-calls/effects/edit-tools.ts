/**
 * Structured edit tools → file effects, from each tool's own input shape:
 * - Claude Code `Edit {file_path, old_string, new_string, replace_all}`, `MultiEdit {file_path, edits[]}`,
 *   `Write {file_path, content}`, `NotebookEdit {notebook_path, …}`; its `toolUseResult` (`originalFile`,
 *   Write's `type: create|update`) gives the before-body and the change kind.
 * - Gemini CLI `replace {file_path, old_string, new_string, expected_replacements}`, `write_file`.
 * - Cline/Roo `replace_in_file`/`apply_diff {path, diff}`, `write_to_file {path, content}`, Roo
 *   `insert_content {path, line, content}`.
 * - `str_replace_editor` / `str_replace_based_edit_tool` / OpenHands `file_editor` `{command, path, …}`.
 * - Codex `apply_patch` (input string or `{input}`) — see apply-patch.ts.
 */
import type { FileEffect, FileRead, TextEdit } from '../effect-types';
import { asFields, bool, list, num, str, type Fields } from '../json-input';
import type { Handler } from '../tool-names';
import { applyEdit } from '../apply-edit';
import { edit } from './effect-build';
import { readEditor, readPatchText } from './editor-tool';
import { parseSearchReplace } from './search-replace';

export { readPatchText };

export interface EditReading {
  readonly effects: FileEffect[];
  readonly reads: FileRead[];
  readonly notes: string[];
}

const pathOf = (f: Fields | null) =>
  str(
    f,
    'file_path',
    'path',
    'absolute_path',
    'absolutePath',
    'target_file',
    'filePath',
    'notebook_path',
    'filename',
  );

function write(path: string, via: string, body: string, result: Fields | null): FileEffect {
  const type = str(result, 'type');
  const change = type === 'create' ? 'created' : type === 'update' ? 'modified' : null;
  const original = str(result, 'originalFile', 'originalFileContents');
  return {
    kind: 'write',
    path,
    via,
    change,
    body,
    after: body,
    ...(original !== null ? { before: original } : {}),
  };
}

/**
 * What a write tool's own result text says it did, when no structured result says it: Gemini CLI's write_file
 * (packages/core/src/tools/write-file.ts) answers `Successfully created and wrote to new file: …` or
 * `Successfully overwrote file: …`; Claude Code's Write `File created successfully at: …`.
 */
function writeTypeInOutput(output: string | undefined): 'create' | 'update' | null {
  const head = (output ?? '').trimStart().slice(0, 80);
  if (/^(?:Successfully created and wrote to new file: |File created successfully at: )/.test(head))
    return 'create';
  if (/^Successfully overwrote file: /.test(head)) return 'update';
  return null;
}

export function readEditTool(
  handler: Handler,
  tool: string,
  input: unknown,
  rawResult: unknown,
  output?: string,
): EditReading {
  const f = asFields(input);
  const said = writeTypeInOutput(output);
  const given = asFields(rawResult);
  const result = said !== null && str(given, 'type') === null ? { ...given, type: said } : given;
  const out: EditReading = { effects: [], reads: [], notes: [] };
  const path = pathOf(f);
  switch (handler) {
    case 'edit': {
      const oldText = str(f, 'old_string', 'old_str', 'oldString');
      const newText = str(f, 'new_string', 'new_str', 'newString');
      if (path === null) break;
      if (oldText === null || newText === null) {
        out.effects.push({
          kind: 'modify',
          path,
          via: tool,
          change: 'modified',
          how: `${tool} without old and new text`,
        });
        break;
      }
      if (oldText === '') {
        // An empty old text creates the file (Claude Code: "File created successfully"): its whole text is new.
        out.effects.push(write(path, tool, newText, { ...result, type: str(result, 'type') ?? 'create' }));
        break;
      }
      const expected = num(f, 'expected_replacements');
      const all =
        bool(f, 'replace_all', 'allow_multiple', 'replaceAll') === true ||
        (expected !== null && expected > 1);
      out.effects.push(edit(path, tool, [{ type: 'replace', old: oldText, new: newText, all }], result));
      break;
    }
    case 'multi-edit': {
      const edits: TextEdit[] = [];
      for (const item of list(f, 'edits') ?? []) {
        const e = asFields(item);
        const oldText = str(e, 'old_string', 'old_str');
        const newText = str(e, 'new_string', 'new_str');
        if (oldText === null || newText === null) continue;
        edits.push({ type: 'replace', old: oldText, new: newText, all: bool(e, 'replace_all') === true });
      }
      if (path === null || edits.length === 0) break;
      const first = edits[0];
      if (first?.type === 'replace' && first.old === '') {
        // A first edit with an empty old text creates the file: the rest apply to what it wrote.
        const created = applyEdit('', {
          kind: 'edit',
          path,
          via: tool,
          change: 'created',
          edits,
          replayable: true,
        });
        if (created.ok && typeof created.after === 'string') {
          out.effects.push(write(path, tool, created.after, { ...result, type: 'create' }));
          break;
        }
      }
      out.effects.push(edit(path, tool, edits, result));
      break;
    }
    case 'write': {
      const body = str(f, 'content', 'file_text', 'contents', 'text');
      if (path !== null)
        out.effects.push(
          body === null
            ? { kind: 'write', path, via: tool, change: null, body: null }
            : write(path, tool, body, result),
        );
      break;
    }
    case 'search-replace': {
      const diff = str(f, 'diff');
      if (path === null || diff === null) break;
      const parsed = parseSearchReplace(diff);
      out.notes.push(...parsed.problems);
      if (parsed.blocks.length > 0)
        out.effects.push(edit(path, tool, [{ type: 'search-replace', blocks: parsed.blocks }], result));
      else
        out.effects.push({
          kind: 'modify',
          path,
          via: tool,
          change: 'modified',
          how: 'a diff without SEARCH/REPLACE blocks',
        });
      break;
    }
    case 'insert-content': {
      const line = num(f, 'line');
      const content = str(f, 'content');
      if (path === null || content === null) break;
      if (line === 0)
        out.effects.push({ kind: 'append', path, via: tool, change: 'modified', text: content });
      else
        out.effects.push(
          edit(
            path,
            tool,
            [{ type: 'insert', afterLine: Math.max(0, (line ?? 1) - 1), text: content.replace(/\n$/, '') }],
            result,
          ),
        );
      break;
    }
    case 'notebook':
      if (path !== null)
        out.effects.push({
          kind: 'modify',
          path,
          via: tool,
          change: 'modified',
          how: `notebook cell ${str(f, 'edit_mode') ?? 'replace'}`,
        });
      break;
    case 'editor':
      readEditor(f, tool, result, out);
      break;
    case 'apply-patch': {
      const text = typeof input === 'string' ? input : str(f, 'input', 'patch');
      if (text !== null) readPatchText(text, tool, out);
      break;
    }
    default:
      break;
  }
  return out;
}
