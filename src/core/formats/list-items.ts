/**
 * List items (`-`, `*`, `+`, `1.`, `1)`) and task checkboxes (`- [ ]`, `- [x]`) found in a block of markdown,
 * with their offsets so an edit can change one character (a checkbox) or insert one line and leave the rest.
 */
import { createFenceTracker } from './markdown';
import { splitLines } from './lines';

export interface ListItem {
  /** Columns before the marker; nested items have more. */
  readonly indent: number;
  readonly marker: string;
  /** The character inside `[ ]` for a task item (`' '`, `'x'`, `'X'`, `'/'`, `'~'`, `'-'`), else null. */
  readonly checkbox: string | null;
  /** The item's text: first line after the marker and checkbox, continuation lines joined by `\n`, trimmed. */
  readonly text: string;
  /** 1-based line in the file. */
  readonly line: number;
  /** Offsets in the parsed block: the item's raw text, continuation lines and last line ending included. */
  readonly start: number;
  readonly end: number;
  /** Offset of the checkbox character, for a one-character edit. */
  readonly checkboxAt: number | null;
}

const itemLine = /^( *)([-*+]|\d{1,9}[.)])([ \t]+|$)(?:\[([ xX/~-])\](?=[ \t]|$)[ \t]*)?(.*)$/;

/** Items in `text`; `firstLine` is the file line `text` starts on. Items inside fenced code are skipped. */
export function parseListItems(text: string, firstLine = 1): ListItem[] {
  type Building = { -readonly [K in keyof ListItem]: ListItem[K] } & { parts: string[] };
  const items: Building[] = [];
  const fences = createFenceTracker();
  let open: Building | null = null;
  for (const line of splitLines(text)) {
    const lineEnd = line.offset + line.text.length + line.eol.length;
    if (fences.inside(line.text)) {
      open = null;
      continue;
    }
    const m = itemLine.exec(line.text);
    if (m && !/^ *([-*_])( *\1){2,} *$/.test(line.text)) {
      const indent = (m[1] as string).length;
      const checkbox = m[4] ?? null;
      const checkboxAt =
        checkbox === null
          ? null
          : line.offset + indent + (m[2] as string).length + (m[3] as string).length + 1;
      open = {
        indent,
        marker: m[2] as string,
        checkbox,
        text: '',
        parts: [(m[5] ?? '').trim()],
        line: line.number + firstLine - 1,
        start: line.offset,
        end: lineEnd,
        checkboxAt,
      };
      items.push(open);
    } else if (
      open &&
      line.text.trim() !== '' &&
      /^\s/.test(line.text) &&
      leadingColumns(line.text) > open.indent
    ) {
      open.parts.push(line.text.trim());
      open.end = lineEnd;
    } else {
      open = null;
    }
  }
  return items.map(({ parts, ...item }) => ({ ...item, text: parts.join('\n') }));
}

function leadingColumns(text: string): number {
  let n = 0;
  for (const c of text) {
    if (c === ' ') n++;
    else if (c === '\t') n += 4 - (n % 4);
    else break;
  }
  return n;
}
