/**
 * The `str_replace_editor` family (SWE-agent, OpenHands `file_editor`, Anthropic's
 * `str_replace_based_edit_tool`) and Codex patch text → file effects and reads.
 */
import type { TextEdit } from '../effect-types';
import { list, num, str, type Fields } from '../json-input';
import { parseApplyPatch } from './apply-patch';
import type { EditReading } from './edit-tools';
import { edit } from './effect-build';

/** The `str_replace_editor` family: `create`, `str_replace`, `insert`, `undo_edit`; `view` is a read. */
export function readEditor(f: Fields | null, tool: string, result: Fields | null, out: EditReading) {
  const path = str(f, 'path', 'file_path');
  if (path === null) return;
  const via = `${tool} ${str(f, 'command') ?? ''}`.trim();
  switch (str(f, 'command')) {
    case 'view': {
      const range = list(f, 'view_range');
      const start = typeof range?.[0] === 'number' ? range[0] : null;
      const end = typeof range?.[1] === 'number' && range[1] >= 0 ? range[1] : null;
      out.reads.push({
        path,
        kind: 'file',
        pattern: null,
        lines: start !== null ? { start, end } : null,
        via,
      });
      return;
    }
    case 'create': {
      const body = str(f, 'file_text', 'content');
      out.effects.push({ kind: 'write', path, via, change: 'created', body, after: body });
      return;
    }
    case 'str_replace': {
      const oldText = str(f, 'old_str', 'old_string');
      if (oldText === null) return;
      out.effects.push(
        edit(
          path,
          via,
          [{ type: 'replace', old: oldText, new: str(f, 'new_str', 'new_string') ?? '', all: false }],
          result,
        ),
      );
      return;
    }
    case 'insert': {
      const line = num(f, 'insert_line');
      const text = str(f, 'new_str', 'insert_text', 'text');
      if (line === null || text === null) return;
      out.effects.push(edit(path, via, [{ type: 'insert', afterLine: line, text }], result));
      return;
    }
    case 'undo_edit':
      out.effects.push({
        kind: 'modify',
        path,
        via,
        change: 'modified',
        how: 'undo_edit: the body before the last edit comes back',
      });
      return;
    default:
      return;
  }
}

/** A Codex patch → one effect per file operation. */
export function readPatchText(
  text: string,
  via: string,
  out: EditReading,
  at: (path: string) => string = (p) => p,
) {
  const parsed = parseApplyPatch(text);
  out.notes.push(...parsed.problems);
  for (const parsedOp of parsed.operations) {
    const op =
      parsedOp.op === 'update'
        ? { ...parsedOp, path: at(parsedOp.path), moveTo: parsedOp.moveTo && at(parsedOp.moveTo) }
        : { ...parsedOp, path: at(parsedOp.path) };
    if (op.op === 'add')
      out.effects.push({
        kind: 'write',
        path: op.path,
        via,
        change: 'created',
        body: op.contents,
        after: op.contents,
      });
    else if (op.op === 'delete')
      out.effects.push({ kind: 'delete', path: op.path, via, change: 'deleted', recursive: false });
    else {
      const edits: TextEdit[] = op.chunks.length > 0 ? [{ type: 'hunks', chunks: op.chunks }] : [];
      const moved = op.moveTo !== null && op.moveTo !== op.path;
      out.effects.push({
        kind: 'edit',
        path: moved ? (op.moveTo as string) : op.path,
        via,
        change: moved ? 'created' : 'modified',
        edits,
        replayable: true,
        ...(moved ? { from: op.path } : {}),
      });
    }
  }
}
