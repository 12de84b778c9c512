/**
 * The body before an edit, told back from the body after it (core/tool-calls/apply-edit.ts `unapplyEdits`): only
 * where every replacement stands in exactly one place and the edits replayed give the body after exactly — never a
 * guess.
 */
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/core/tool-calls';
import { applyTextEdit, unapplyEdits } from '../../src/core/tool-calls/apply-edit';
import type { TextEdit } from '../../src/core/tool-calls/effect-types';

const before =
  'import a from "a";\n\nexport function total(xs) {\n  return xs.reduce((s, x) => s + x, 0);\n}\n\nexport const name = "cart";\n';
const blocks: TextEdit = {
  type: 'search-replace',
  blocks: [
    {
      search: '  return xs.reduce((s, x) => s + x, 0);\n',
      replace: '  if (xs.length === 0) return 0;\n  return xs.reduce((s, x) => s + x, 0);\n',
    },
    { search: 'export const name = "cart";\n', replace: 'export const name = "basket";\n' },
  ],
};

describe('unapplyEdits', () => {
  it('tells the body before SEARCH/REPLACE blocks and an exact replace from the body after them', () => {
    const replace: TextEdit = {
      type: 'replace',
      old: 'import a from "a";',
      new: 'import a from "./a";',
      all: false,
    };
    let after = before;
    for (const edit of [blocks, replace]) {
      const r = applyTextEdit(after, edit);
      if (!r.ok || r.after === null) throw new Error('fixture');
      after = r.after;
    }
    expect(unapplyEdits(after, [blocks, replace])).toBe(before);
  });

  it('tells nothing where a replacement stands in two places, is empty, or the edits cannot be taken back', () => {
    // The replacement text is also elsewhere in the body: which one the tool wrote is not known.
    const twice = before + 'export const name = "basket";\n';
    expect(unapplyEdits(twice, [blocks])).toBeNull();
    // A block that deleted its text leaves nothing to find.
    expect(
      unapplyEdits('a\nc\n', [{ type: 'search-replace', blocks: [{ search: 'b\n', replace: '' }] }]),
    ).toBeNull();
    // A replace of every occurrence, a line edit: not taken back.
    expect(unapplyEdits('x', [{ type: 'replace', old: 'y', new: 'x', all: true }])).toBeNull();
    expect(unapplyEdits('x', [{ type: 'lines', start: 1, end: 1, text: 'x' }])).toBeNull();
    // The body after is not what the blocks would write (the person changed it before it was saved).
    expect(
      unapplyEdits('export const name = "basket"; // theirs\n', [
        {
          type: 'search-replace',
          blocks: [{ search: 'export const name = "cart";\n', replace: 'export const name = "basket";\n' }],
        },
      ]),
    ).toBeNull();
  });

  it('takes back LF blocks on a CRLF file (Windows), the body before keeping its CRLF line ends', () => {
    const crlf = (text: string) => text.replaceAll('\n', '\r\n');
    const after = crlf(before.replace('export const name = "cart";', 'export const name = "basket";'));
    const edit: TextEdit = {
      type: 'search-replace',
      blocks: [{ search: 'export const name = "cart";\n', replace: 'export const name = "basket";\n' }],
    };
    expect(unapplyEdits(after, [edit])).toBe(crlf(before));
  });

  it('reads the file a Cline 3.x native tool call names as `absolutePath` (its edits were read as no change)', () => {
    const meaning = classifyToolCall({
      tool: 'replace_in_file',
      input: {
        absolutePath: 'c:\\Apps\\shop\\src\\cart.ts',
        diff: '------- SEARCH\nexport const name = "cart";\n=======\nexport const name = "basket";\n+++++++ REPLACE',
      },
    });
    expect(meaning.fileEffects.map((e) => [e.kind, e.path])).toEqual([
      ['edit', 'c:\\Apps\\shop\\src\\cart.ts'],
    ]);
  });
});
