/**
 * The scan that keeps hostile markdown from marked (src/lib/markdown-bounds.ts) and the parse step around it
 * (markdown-parse.ts), in Node: the files of issue 13 are caught with the right count, ordinary files of the same
 * size and shape are not, and parsing never throws.
 */
import { describe, expect, it } from 'vitest';
import { describeMarkdownOff, markdownLimits, scanMarkdown } from '../../src/lib/markdown-bounds';
import { splitFrontMatter } from '../../src/core/formats/front-matter';
import { cutFrontMatter, parseMarkdown } from '../../src/lib/markdown-parse';
import {
  emphasisDelimiters,
  htmlTags,
  nestedBlockquotes,
  nestedListsByIndent,
  oneLineNestedLists,
} from '../fixtures/hostile-markdown';

const lines = (count: number, line: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => line(i)).join('\n') + '\n';

describe('scanMarkdown catches the files of issue 13', () => {
  it.each([
    ['nested lists ×1,500', nestedListsByIndent(1_500), { kind: 'depth', depth: 1_500, limit: 100 }],
    [
      'one-line nested lists ×20,000',
      oneLineNestedLists(20_000),
      { kind: 'depth', depth: 20_000, limit: 100 },
    ],
    ['nested blockquotes ×20,000', nestedBlockquotes(20_000), { kind: 'depth', depth: 20_000, limit: 100 }],
    [
      '200,000 emphasis delimiters',
      emphasisDelimiters(200_000),
      { kind: 'emphasis', count: 200_000, limit: 5_000 },
    ],
    ['100,000 tags', htmlTags(100_000), { kind: 'tags', count: 100_000, limit: 10_000 }],
  ])('%s', (_, source, expected) => {
    expect(scanMarkdown(source)).toEqual(expected);
  });

  it('counts quotes and list markers mixed on one line, and lists nested in quotes', () => {
    expect(scanMarkdown('> - '.repeat(60) + 'x\n')).toMatchObject({ kind: 'depth', depth: 120 });
    expect(scanMarkdown(lines(120, (i) => `> ${'  '.repeat(i)}- q${i}`))).toMatchObject({ depth: 121 });
  });

  it('sees where the limits are: 100 levels pass, 101 do not; 5,000 delimiters pass; 10,000 tags pass', () => {
    expect(scanMarkdown(nestedListsByIndent(100))).toBeNull();
    expect(scanMarkdown(nestedListsByIndent(101))).toMatchObject({ kind: 'depth', depth: 101 });
    expect(scanMarkdown(nestedBlockquotes(100))).toBeNull();
    expect(scanMarkdown('_a'.repeat(5_000))).toBeNull();
    expect(scanMarkdown('_a'.repeat(5_001))).toMatchObject({ kind: 'emphasis', count: 5_001 });
    expect(scanMarkdown(htmlTags(10_000))).toBeNull();
    expect(scanMarkdown(htmlTags(10_002))).toMatchObject({ kind: 'tags', count: 10_002 });
  });

  it('counts emphasis across the lines of one paragraph, and after a fence its list item has closed', () => {
    expect(scanMarkdown(lines(100, () => '_a'.repeat(60)))).toMatchObject({
      kind: 'emphasis',
      count: 6_000,
    });
    // Lines that start with `|` are a paragraph, not a table, without a delimiter row.
    expect(scanMarkdown(lines(100, () => '| ' + '_a'.repeat(60)))).toMatchObject({ kind: 'emphasis' });
    // The fence ends with its list item at the unindented line; what follows is a paragraph again.
    expect(scanMarkdown('- ```\n  code\nx\n' + '_a'.repeat(6_000))).toMatchObject({ kind: 'emphasis' });
    expect(scanMarkdown('- ```\n  code\n  ' + '_a'.repeat(6_000))).toBeNull(); // control: still in the fence
    expect(scanMarkdown('> ```\n> code\n' + '<b>'.repeat(10_001))).toMatchObject({ kind: 'tags' });
  });
});

describe('scanMarkdown leaves ordinary files alone', () => {
  it('long tight lists, long tables, headings: each item, row and heading is its own paragraph', () => {
    expect(
      scanMarkdown(lines(3_000, (i) => `- **Decision ${i}**: keep *it* and _that_ ~~not this~~`)),
    ).toBeNull();
    expect(
      scanMarkdown('| a | b |\n|---|:-:|\n' + lines(3_000, (i) => `| snake_case_${i} | **x** |`)),
    ).toBeNull();
    expect(scanMarkdown(lines(3_000, (i) => `# __Heading__ ${i}`))).toBeNull();
  });

  it('code fences: underscores, tags and list-like lines inside them do not count', () => {
    const code = lines(
      4_000,
      (i) => `const some_long_name_${i} = other_name_${i} * 2; // <div> ${'  '.repeat(i % 200)}- x`,
    );
    expect(scanMarkdown('# Code\n\n```ts\n' + code + '```\n')).toBeNull();
    expect(scanMarkdown('- item\n\n  ~~~~\n' + code.replace(/^/gm, '  ') + '  ~~~~\n')).toBeNull();
    expect(scanMarkdown('> ```\n' + code.replace(/^/gm, '> ') + '> ```\n')).toBeNull();
  });

  it('nesting a person writes (10 levels, ordered and unordered, tabs), in a 1 MiB file', () => {
    const nested = lines(10, (i) => `${'\t'.repeat(i)}${i % 2 ? '1.' : '*'} level ${i}`);
    expect(nested.repeat(7_000).length).toBeGreaterThan(1_000_000);
    expect(scanMarkdown(nested.repeat(7_000))).toBeNull();
  });
});

describe('parseMarkdown never throws', () => {
  it('a RangeError in marked (here with the scan’s depth limit lifted) comes back as a reason', () => {
    const parsed = parseMarkdown(oneLineNestedLists(20_000), 'show', { ...markdownLimits, depth: Infinity });
    expect(parsed).toEqual({
      kind: 'off',
      off: { kind: 'failed', message: 'RangeError: Maximum call stack size exceeded' },
    });
    if (parsed.kind !== 'off') throw new Error('unreachable');
    expect(describeMarkdownOff(parsed.off)).toBe(
      'Preview off: the markdown renderer failed on this file (RangeError: Maximum call stack size exceeded); showing its text.',
    );
  });

  it('counts the tags marked makes, not only the ones the file has', () => {
    const source = lines(3_000, (i) => `- item **${i}**`);
    expect(scanMarkdown(source)).toBeNull();
    expect(parseMarkdown(source, 'show', markdownLimits)).toEqual({
      kind: 'off',
      off: { kind: 'tags', count: 12_002, limit: 10_000 },
    });
  });

  it('ordinary markdown: marked’s HTML and the front matter to show', () => {
    expect(parseMarkdown('\uFEFF---\na: 1\n---\n# T\n', 'show', markdownLimits)).toEqual({
      kind: 'html',
      html: '<h1>T</h1>\n',
      frontMatter: '---\na: 1\n---',
    });
    expect(parseMarkdown('---\na: 1\n---\n# T\n', 'hide', markdownLimits)).toMatchObject({
      frontMatter: null,
    });
  });
});

describe('cutFrontMatter', () => {
  it.each([
    '---\na: 1\n---\nbody\n',
    '---\r\na: 1\r\n...\r\nbody',
    '---\ra: 1\r---  \rbody',
    '---  \n---\n',
    '---\na: 1\n---',
    '---\na: 1\n',
    '---',
    '--- \nnot closed\n-- -\n',
    'text\n---\na: 1\n---\n',
    '',
    '----\na\n---\n',
  ])('cuts %j where splitFrontMatter does', (text) => {
    const split = splitFrontMatter(text);
    const cut = cutFrontMatter(text);
    expect(cut).toEqual(split.frontMatter ? { raw: split.frontMatter.raw, body: split.body } : null);
  });
});

describe('describeMarkdownOff', () => {
  it('says in one sentence what is off and that the text is shown', () => {
    expect(describeMarkdownOff({ kind: 'depth', depth: 20_000, limit: 100 })).toBe(
      'Preview off: this file nests 20,000 levels deep (limit 100); showing its text.',
    );
    expect(describeMarkdownOff({ kind: 'time', limit: 500 })).toBe(
      'Preview off: rendering this file took longer than 500 ms (the limit); showing its text.',
    );
    expect(describeMarkdownOff({ kind: 'unavailable', message: 'Error: x' })).toBe(
      'Preview off: the markdown renderer could not run (Error: x); showing its text.',
    );
  });
});
