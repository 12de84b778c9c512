import { describe, expect, it } from 'vitest';
import {
  decodeJsonEscapes,
  headAndTail,
  jsonSearchText,
  STEP_TEXT_HEAD,
  STEP_TEXT_TAIL,
  stepSearchText,
  storedStepSearchText,
} from '../../src/core/events/step-text';
import { toFtsQuery } from '../../src/core/events/search';

describe('the search text of a step', () => {
  it('is the decoded text of its JSON: string leaves as they read, under their keys, one leaf a line', () => {
    expect(
      stepSearchText(
        { command: 'grep -rn "on_conflict" django/' },
        {
          output: 'a.py:1: x\ndjango/db/q.py:2:\t"y"',
          exitCode: 1,
          truncated: false,
          note: null,
          lines: [1, 2],
        },
      ),
    ).toBe(
      'command: grep -rn "on_conflict" django/\n\n' +
        'output: a.py:1: x\ndjango/db/q.py:2:\t"y"\nexitCode: 1\ntruncated: false\nlines:\n1\n2',
    );
    // Keys that are data (paths) are text too; nesting needs no brackets.
    expect(jsonSearchText({ files: { 'src/a.ts': { added: 3 } }, tags: ['x', ['y']] })).toBe(
      'files:\nsrc/a.ts:\nadded: 3\ntags:\nx\ny',
    );
    expect(stepSearchText(null, {})).toBe('');
  });

  it('keeps the head and the tail of a long text, cut between words, and says how much it cut', () => {
    const short = 'x'.repeat(STEP_TEXT_HEAD + STEP_TEXT_TAIL);
    expect(headAndTail(short)).toBe(short);
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ');
    const kept = headAndTail(words);
    const [head, tail] = kept.split(/\n\[… \d+ characters not indexed …\]\n/);
    expect(head?.length).toBeLessThanOrEqual(STEP_TEXT_HEAD);
    expect(head?.length).toBeGreaterThan(STEP_TEXT_HEAD - 300);
    expect(tail?.length).toBeLessThanOrEqual(STEP_TEXT_TAIL);
    expect(words.startsWith(head as string) && words.endsWith(tail as string)).toBe(true);
    // Whole words on both sides of the cut.
    expect(words.split(' ')).toEqual(expect.arrayContaining([head?.split(' ').at(-1), tail?.split(' ')[0]]));
    const omitted = Number(/(\d+) characters/.exec(kept)?.[1]);
    expect((head?.length ?? 0) + omitted + (tail?.length ?? 0)).toBe(words.length);
    // No whitespace near the cut: it falls at the bound, never inside a surrogate pair.
    const emoji = '😀'.repeat(40_000);
    expect(headAndTail(emoji)).not.toMatch(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
    );
  });

  it('reads stored columns: JSON decoded, anything else with its escapes undone', () => {
    expect(storedStepSearchText('{"command":"ls"}', '{"output":"a\\nb"}')).toBe(
      'command: ls\n\noutput: a\nb',
    );
    expect(storedStepSearchText('nope', '{"output":"cut\\nlater \\"q\\" \\u00e9 \\\\n')).toBe(
      'nope\n\n{"output":"cut\nlater "q" é \\n',
    );
    expect(decodeJsonEscapes('x\\ty\\/z\\q')).toBe('x\ty/z\\q');
    // A row stored before values were bounded: 100,000 levels deep, its text read without exhausting the stack.
    const deep = '['.repeat(100_000) + '"deepword"' + ']'.repeat(100_000);
    expect(() => storedStepSearchText('{}', deep)).not.toThrow();
    expect(jsonSearchText({ a: [[[['shallow']]]] })).toBe('a:\nshallow');
  });
});

describe('toFtsQuery', () => {
  it('leaves out parts with no letter or digit, which as phrases would match nothing', () => {
    expect(toFtsQuery('FAILED tests/a.py::test_b - Error ...')?.terms).toEqual([
      '"FAILED"',
      '"tests/a.py"',
      '"test_b"',
      '"Error"',
    ]);
    expect(toFtsQuery('-- ...')).toBeNull();
  });
});
