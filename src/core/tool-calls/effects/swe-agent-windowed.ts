/**
 * SWE-agent's windowed editor (its first ACI, still in its tools/windowed*): commands that act on the file open in
 * the agent's window, so the command line does not name it — the output does, in the window it prints:
 * `[File: /repo/x.py (120 lines total)]`.
 *
 * - `create <path>`: a new empty file (refused with `Warning: File '…' already exists.`).
 * - `edit <start>:<end>` + lines + `end_of_edit`: lines start..end of the open file replaced by the text
 *   (windowed_edit_linting); reverted when the linter objects (`Your proposed edit has introduced new syntax
 *   error(s)` … `Your changes have NOT been applied`).
 * - `edit <search> <replace> [<replace-all>]` (windowed_edit_replace) and `insert <text> [<line>]`: a change inside
 *   the window, replayable only with the window's position, so a `modify` (the final patch shows it).
 *
 * The lines after `edit N:M` are the new text, never commands: the shell reader must not see them. A command whose
 * output shows no window, or shows the tool refused it, changed nothing.
 */
import type { FileEffect } from '../effect-types';

const windowHeader = /^\[File: (.+?) \(\d+ lines total\)\]$/m;
const lineRange = /^edit[ \t]+(\d+):(\d+)[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?end_of_edit[ \t]*$/;
const refused =
  /Your proposed edit has introduced new syntax error|Your changes have NOT been applied|Your edit was not applied|No file opened|No changes were made|^Usage: (?:edit|create|insert)|^Warning: File '.*' already exists/m;

/** True when `command` is one of the windowed editor's commands (so its text lines are no shell commands). */
export function isWindowedEdit(command: string): boolean {
  const first = command.trimStart().split('\n', 1)[0] ?? '';
  if (/^edit[ \t]+\d+:\d+[ \t]*$/.test(first)) return lineRange.test(command.trim());
  return false;
}

/**
 * The effect of a windowed-editor call, given its output: null when `command` is not one (read it as a shell
 * line), an empty list when it is one that changed nothing (refused, or no window shown to say which file).
 */
export function windowedEditEffects(command: string, output: string): FileEffect[] | null {
  const text = command.trim();
  const range = isWindowedEdit(text) ? lineRange.exec(text) : null;
  const create = range ? null : /^create[ \t]+(\S+)$/.exec(text);
  const other = range || create ? null : /^(edit|insert)[ \t]+\S/.exec(text);
  if (!range && !create && !other) return null;
  const path = windowHeader.exec(output)?.[1]?.trim();
  if (refused.test(output) || path === undefined) {
    // A bare `edit x y` / `insert x` without a window in its output is not the editor's: read it as a shell line.
    return other ? null : [];
  }
  if (create) return [{ kind: 'write', path, via: 'create', change: 'created', body: '' }];
  if (range) {
    const [, start, end, body] = range;
    return [
      {
        kind: 'edit',
        path,
        via: 'edit',
        change: 'modified',
        edits: [
          { type: 'lines', start: Number(start), end: Number(end), text: (body ?? '').replace(/\r$/, '') },
        ],
        replayable: true,
      },
    ];
  }
  return [
    { kind: 'modify', path, via: other?.[1] ?? 'edit', change: 'modified', how: `windowed ${other?.[1]}` },
  ];
}
