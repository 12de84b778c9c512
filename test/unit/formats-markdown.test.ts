import { describe, expect, it } from 'vitest';
import {
  addMemoryEntry,
  appendSection,
  findSection,
  formatScalar,
  getField,
  insertSection,
  parseMarkdown,
  parseMemory,
  parseScalar,
  sectionExtent,
  serialiseMarkdown,
  setFrontMatterField,
  setPreamble,
  setSectionBody,
  splitFrontMatter,
} from '../../src/core/formats';

const roundTrip = (text: string) => serialiseMarkdown(parseMarkdown(text));

describe('markdown documents', () => {
  it.each([
    ['empty', ''],
    ['no final newline', '# A\ntext'],
    ['only a heading without newline', '## Only'],
    ['CRLF and trailing spaces', '# A  \r\n\r\nbody  \r\n## B\r\n'],
    ['mixed endings', '# A\r\nx\ny\r\rz'],
    ['BOM', '\uFEFF# A\n'],
    ['front matter only', '---\nname: x\n---'],
    ['a lone ---', '---'],
    ['unclosed front matter', '---\nname: x\n# heading\n'],
    ['setext heading is body', 'Title\n=====\n'],
    ['headings in fences', '# A\n```\n# not\n```\n~~~~\n## not\n~~~\n## B\n'],
    ['closing hashes', '## Title ##\n'],
    ['emoji and CJK', '# 标题 🚀\n内容\n'],
  ])('%s round-trips exactly', (_name, text) => {
    expect(roundTrip(text)).toBe(text);
  });

  it('splits into front matter, preamble and flat sections with file line numbers', () => {
    const doc = parseMarkdown('---\nversion: 1\n---\nintro\n# One\n```\n# fenced\n```\n## Two ##\ntwo\n');
    expect(doc.frontMatter?.fields.map((f) => [f.key, f.value])).toEqual([['version', 1]]);
    expect(doc.preamble).toBe('intro\n');
    expect(doc.preambleLine).toBe(4);
    expect(doc.sections.map((s) => [s.level, s.title, s.line])).toEqual([
      [1, 'One', 5],
      [2, 'Two', 9],
    ]);
    expect(sectionExtent(doc, 0)).toEqual({ start: 0, end: 2 });
    expect(findSection(doc, '  two ')).toBe(1);
    expect(findSection(doc, 'two', 3)).toBe(-1);
  });

  it('editing one section leaves every other byte where it was', () => {
    const text =
      '\uFEFF---\r\n# keep\r\nversion: 1\r\n---\r\nPre  \r\n# A\r\nold a\r\n\r\n## B\r\nold b  \r\n## C\r\nc';
    const doc = parseMarkdown(text);
    const edited = serialiseMarkdown(setSectionBody(doc, 1, 'new b\nsecond line\n'));
    expect(edited).toBe(text.replace('old b  \r\n', 'new b\r\nsecond line\r\n'));
    // The last section, without a final newline, stays without one.
    const last = serialiseMarkdown(setSectionBody(doc, 2, 'c2'));
    expect(last).toBe(text.slice(0, -1) + 'c2');
  });

  it('a body set without a final newline still leaves the next heading a heading', () => {
    const doc = parseMarkdown('# A\na\n# B\nb\n');
    const edited = setSectionBody(doc, 0, 'no newline');
    expect(serialiseMarkdown(edited)).toBe('# A\nno newline\n# B\nb\n');
    expect(edited.sections.map((s) => s.title)).toEqual(['A', 'B']);
  });

  it('a heading that ended the file gains a line ending when a body is added', () => {
    const doc = parseMarkdown('# A\ntext\n## B');
    expect(serialiseMarkdown(setSectionBody(doc, 1, 'body\n'))).toBe('# A\ntext\n## B\nbody\n');
  });

  it('inserts and appends sections with the file’s line endings and a blank line before', () => {
    const doc = parseMarkdown('# A\r\ntext\r\n');
    expect(serialiseMarkdown(appendSection(doc, 2, 'New', 'x\n'))).toBe('# A\r\ntext\r\n\r\n## New\r\nx\r\n');
    expect(serialiseMarkdown(insertSection(doc, 0, 1, 'First', 'y\n'))).toBe(
      '# First\r\ny\r\n# A\r\ntext\r\n',
    );
    expect(serialiseMarkdown(setPreamble(doc, 'intro\n'))).toBe('intro\r\n# A\r\ntext\r\n');
  });

  it('sets one front matter field and keeps comments, order and the rest of the block', () => {
    const text = '---\n# who wrote this\nname: a\ntags:\n  - x\n  - y\nkeep: me\n---\nbody\n';
    const doc = parseMarkdown(text);
    expect(getField(doc.frontMatter, 'tags')).toEqual(['x', 'y']);
    const renamed = serialiseMarkdown(setFrontMatterField(doc, 'name', 'b: with colon'));
    expect(renamed).toBe(text.replace('name: a\n', 'name: "b: with colon"\n'));
    const retagged = serialiseMarkdown(setFrontMatterField(doc, 'tags', ['z']));
    expect(retagged).toBe('---\n# who wrote this\nname: a\ntags: [z]\nkeep: me\n---\nbody\n');
    const added = serialiseMarkdown(setFrontMatterField(doc, 'version', 2));
    expect(added).toBe(text.replace('keep: me\n', 'keep: me\nversion: 2\n'));
    const removed = serialiseMarkdown(setFrontMatterField(doc, 'keep', undefined));
    expect(removed).toBe(text.replace('keep: me\n', ''));
    const created = serialiseMarkdown(setFrontMatterField(parseMarkdown('# T\r\n'), 'version', 1));
    expect(created).toBe('---\r\nversion: 1\r\n---\r\n# T\r\n');
  });

  it('reads the YAML subset: quotes, flow lists, block scalars, nested maps', () => {
    const fm = splitFrontMatter(
      [
        '---',
        'a: "quoted: \\"x\\""',
        "b: 'it''s'",
        'c: [1, "two, three", four]',
        'd: |',
        '  line one',
        '  line two',
        'e: >',
        '  folded',
        '  text',
        'f:',
        '  k: v',
        '  n: 3',
        'g: ~',
        'h: true # comment',
        'not a field',
        '---',
        '',
      ].join('\n'),
    );
    const value = (key: string) => getField(fm.frontMatter, key);
    expect(value('a')).toBe('quoted: "x"');
    expect(value('b')).toBe("it's");
    expect(value('c')).toEqual([1, 'two, three', 'four']);
    // `|` and `>` clip: YAML keeps the final line break (see formats-front-matter.test.ts for keep and strip).
    expect(value('d')).toBe('line one\nline two\n');
    expect(value('e')).toBe('folded text\n');
    expect(value('f')).toEqual({ k: 'v', n: 3 });
    expect(value('g')).toBeNull();
    expect(value('h')).toBe(true);
    expect(fm.problems.map((p) => [p.code, p.line])).toEqual([['FrontMatter', 16]]);
  });

  it('writes scalars that read back as the same value', () => {
    for (const value of [
      'plain',
      'has: colon',
      '#hash',
      '123',
      'true',
      'null',
      ' padded ',
      '- dash',
      'x # y',
      "it's",
      'ok-name',
      42,
      false,
      null,
    ]) {
      expect(parseScalar(formatScalar(value)), String(value)).toEqual(value);
    }
  });
});

describe('memory files', () => {
  it('adds an entry at the end of its section’s list, touching nothing else', () => {
    const text = '# Memory\r\n\r\n## Preferences\r\n- one\r\n- two\r\n  continued\r\n\r\n## Other\r\ntext';
    const added = addMemoryEntry(text, 'preferences', 'three\nlines');
    expect(added).toBe(text.replace('  continued\r\n', '  continued\r\n- three\r\n  lines\r\n'));
    expect(parseMemory(added).sections[1]?.entries.map((e) => e.text)).toEqual([
      'one',
      'two\ncontinued',
      'three\nlines',
    ]);
  });

  it('creates the section when missing, and starts a list after prose', () => {
    expect(addMemoryEntry('# Memory\n', 'Lessons', 'Read the error first.')).toBe(
      '# Memory\n\n## Lessons\n\n- Read the error first.\n',
    );
    expect(addMemoryEntry('## Lessons\nSome prose.\n', 'Lessons', 'x')).toBe(
      '## Lessons\nSome prose.\n\n- x\n',
    );
    expect(addMemoryEntry('', 'Lessons', 'x')).toBe('## Lessons\n\n- x\n');
  });
});
