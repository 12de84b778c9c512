/**
 * outputLines: the lines the summary parsers read. Pinned on awkward texts against the line-by-line reading it
 * replaced (a line per `\n`, none after a final one, each cut to maxLineChars and then cleaned), and on a few
 * spelt-out results.
 */
import { describe, expect, it } from 'vitest';
import { cleanLine, maxLineChars, maxScanChars, outputLines } from '../../src/core/tool-calls/output';

/** The reading outputLines replaced, kept as the reference. */
function lineByLine(output: string): string[] {
  const text = output.length > maxScanChars ? output.slice(output.length - maxScanChars) : output;
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lines.push(cleanLine(text.slice(start, Math.min(end, start + maxLineChars))));
    start = end + 1;
  }
  return lines;
}

const long = 'x'.repeat(maxLineChars - 1);
const texts: string[] = [
  '',
  '\n',
  '\n\n',
  'a',
  'a\n',
  'a\n\n',
  '\na',
  'one\ntwo\nthree',
  'one\r\ntwo\r\n',
  'progress 10%\rprogress 50%\rdone\n',
  '\r',
  '\r\n\r\n',
  'trailing cr\r',
  '\x1b[31mFAILED\x1b[0m tests/a.py::t - boom\n\x1b[32m1 passed\x1b[0m in 0.1s\n',
  '\x1b]0;title\x07visible\n',
  'lone escape \x1b\n',
  `${long}y\n`,
  `${long}yz\nnext`,
  `${long}\r${long}\n`,
  `${'y'.repeat(maxLineChars + 5)}\x1b[31m red\n`,
  `\x1b[31m${'z'.repeat(maxLineChars)}\x1b[0m\n`,
  `${'w'.repeat(3 * maxLineChars)}`,
  'no newline at the end, but a \r in the middle',
  'é😀\u2028\n\t tab\n',
];

describe('outputLines', () => {
  it('reads every awkward text as the line-by-line reading does', () => {
    for (const text of texts)
      expect(outputLines(text), JSON.stringify(text.slice(0, 60))).toEqual(lineByLine(text));
  });

  it('keeps only the last maxScanChars of a longer text, as before', () => {
    const text = `first line\n${'dots '.repeat(maxScanChars / 5)}\nlast \x1b[1mline\x1b[0m\n`;
    const lines = outputLines(text);
    expect(lines).toEqual(lineByLine(text));
    expect(lines.at(-1)).toBe('last line');
    expect(lines[0]).not.toBe('first line');
  });

  it('gives these lines', () => {
    expect(outputLines('')).toEqual([]);
    expect(outputLines('a\n\nb\n')).toEqual(['a', '', 'b']);
    expect(outputLines('load 1%\rload 99%\r\n\x1b[32mok\x1b[0m')).toEqual(['load 99%', 'ok']);
    expect(outputLines(`${'q'.repeat(maxLineChars + 1)}\n`)).toEqual(['q'.repeat(maxLineChars)]);
  });
});
