import { describe, expect, it } from 'vitest';
import {
  createFrontMatter,
  getField,
  getText,
  parseScalar,
  parseSkill,
  setField,
  splitFrontMatter,
  validateSkillText,
  type FrontMatterValue,
} from '../../src/core/formats';

const block = (...lines: string[]) => ['---', ...lines, '---', 'body', ''].join('\n');
const read = (...lines: string[]) => splitFrontMatter(block(...lines));

/**
 * Ordinary front matter and what YAML 1.2 (core schema) says it holds. Each expected value is written from the
 * spec (its section number in the comment above each group), not from a parser's output.
 */
const ordinary: [name: string, lines: string[], expected: FrontMatterValue][] = [
  // 6.6 comments: a `#` after white space ends a double-quoted scalar's line.
  ['double-quoted, then a comment', ['name: "a" # comment'], 'a'],
  // 7.3.2: `''` is one quote inside single quotes; the comment is not part of the value.
  ['single-quoted with an escape, then a comment', ["name: 'it''s' # c"], "it's"],
  // 5.7 escaped characters: \x41 is "A", \t a tab, \u00e9 "é".
  ['double-quoted \\x escape', ['name: "\\x41"'], 'A'],
  ['double-quoted \\t', ['name: "a\\tb"'], 'a\tb'],
  ['double-quoted \\u', ['name: "caf\\u00e9"'], 'café'],
  ['single-quoted: backslash is literal', ["name: 'a\\nb'"], 'a\\nb'],
  // 10.3.2 core schema floats: .5 is 0.5; ints in base 16 and 8; exponents.
  ['leading-dot float', ['n: .5'], 0.5],
  ['exponent', ['n: 1e3'], 1000],
  ['hexadecimal', ['n: 0x1F'], 31],
  ['octal', ['n: 0o17'], 15],
  ['signed float', ['n: -2.5'], -2.5],
  ['infinity', ['n: .inf'], Infinity],
  // 10.3.2 booleans are true/True/TRUE/false/…; `yes` is a plain string in 1.2.
  ['boolean', ['b: true'], true],
  ['capitalised boolean', ['b: False'], false],
  ['yes is text in YAML 1.2', ['b: yes'], 'yes'],
  // 10.3.2 null: ~, null, or nothing at all (an empty node).
  ['tilde null', ['v: ~'], null],
  ['empty value', ['v:'], null],
  // 7.3.3 plain scalars: spaces inside are kept, a `#` not after a space is text, continuation lines fold.
  ['plain with spaces', ['v: hello world'], 'hello world'],
  ['plain, then a comment', ['v: value # note'], 'value'],
  ['hash without a space is text', ['v: a#b'], 'a#b'],
  ['plain over two lines', ['v: first', '  second'], 'first second'],
  [
    'ISO time stays text (no timestamps in 1.2 core)',
    ['v: 2026-11-30T14:12:00.000Z'],
    '2026-11-30T14:12:00.000Z',
  ],
  // 8.1.1.2 chomping: clip keeps one final break, strip (-) none, keep (+) all trailing breaks.
  ['literal block, clip', ['v: |', '  line one', '  line two', 'next: 1'], 'line one\nline two\n'],
  ['literal block, strip', ['v: |-', '  line one', '    indented', 'next: 1'], 'line one\n  indented'],
  ['literal block, keep', ['v: |+', '  kept', '', 'next: 1'], 'kept\n\n'],
  // 8.1.3 folded: single breaks become spaces, an empty line is a paragraph break.
  ['folded block, clip', ['v: >', '  folded', '  text', 'next: 1'], 'folded text\n'],
  [
    'folded block, strip, two paragraphs',
    ['v: >-', '  one', '  two', '', '  three', 'next: 1'],
    'one two\nthree',
  ],
  // 7.4.1 flow sequences: quoted entries may hold commas; entries are typed like any scalar.
  ['flow list', ['tags: [a, b]'], ['a', 'b']],
  ['flow list of mixed scalars', ['tags: [1, "two, three", four]'], [1, 'two, three', 'four']],
  ['flow list over lines', ['tags: [a,', '  b]'], ['a', 'b']],
  // 8.2.1 block sequences, indented or at the key's own column.
  ['block list', ['items:', '  - x', '  - y'], ['x', 'y']],
  ['block list at column 0', ['items:', '- x', '- y'], ['x', 'y']],
  // 8.2.2 block mappings, nested; 7.4.2 flow mappings.
  [
    'nested map',
    ['metadata:', '  author: me', '  version: "1.0"', '  deeper:', '    list: [1]'],
    { author: 'me', version: '1.0', deeper: { list: [1] } },
  ],
  ['flow map', ['m: {a: 1, b: [x]}'], { a: 1, b: ['x'] }],
];

describe('front matter reads as YAML 1.2 says', () => {
  it.each(ordinary)('%s', (_name, lines, expected) => {
    const split = read(...lines, '# a comment line at the end');
    expect(split.problems).toEqual([]);
    const [field] = split.frontMatter?.fields ?? [];
    expect(field?.value).toEqual(expected);
    expect(field?.start).toBe(1);
  });

  it('keeps every field and its lines, comments and blank lines between them', () => {
    const split = read('# who', 'name: "x" # c', '', 'tags:', '- a', '# between', '- b', 'last: 1');
    expect(split.frontMatter?.fields.map((f) => [f.key, f.value, f.start, f.end])).toEqual([
      ['name', 'x', 2, 3],
      ['tags', ['a', 'b'], 4, 8],
      ['last', 1, 8, 9],
    ]);
    expect(split.bodyLineOffset).toBe(10);
  });

  it('reads an alias to another field, as one YAML document does', () => {
    expect(read('a: &x [1, 2]', 'b: *x').frontMatter?.fields.map((f) => f.value)).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });

  it('reads a quoted key as the same key, and a number key as text', () => {
    const fm = read('"my key": v', '1: one').frontMatter;
    expect(fm?.fields.map((f) => f.key)).toEqual(['my key', '1']);
  });
});

describe('front matter YAML refuses: a problem on its line, the rest still read', () => {
  const problemsOf = (split: ReturnType<typeof splitFrontMatter>) =>
    split.problems.map((p) => [p.code, p.severity, p.line]);
  const valuesOf = (split: ReturnType<typeof splitFrontMatter>) =>
    Object.fromEntries(split.frontMatter?.fields.map((f) => [f.key, f.value]) ?? []);

  it.each([
    ['an unterminated quote', ['name: ok', 'description: "never closed', 'license: MIT'], 3],
    ['an unterminated flow list', ['tags: [a, b', 'name: ok', 'license: MIT'], 2],
    [
      'a map item out of line (bad indentation)',
      ['metadata:', '  a: 1', ' b: 2', 'name: ok', 'license: MIT'],
      4,
    ],
    ['a nested map after a scalar', ['name: ok', 'metadata: 1', '  b: 2', 'license: MIT'], 3],
    ['a tab as indentation', ['name: ok', 'tools:', '\t- x', 'license: MIT'], 4],
    ['a line that is not key: value', ['name: ok', 'not a field', 'license: MIT'], 3],
    ['a duplicate key inside a nested map', ['name: ok', 'm:', '  a: 1', '  a: 2', 'license: MIT'], 5],
    ['an undefined alias', ['name: ok', 'x: *nowhere', 'license: MIT'], 3],
  ])('%s', (_name, lines, line) => {
    const split = read(...lines);
    expect(problemsOf(split)).toEqual([['FrontMatter', 'error', line]]);
    expect(valuesOf(split)).toMatchObject({ name: 'ok', license: 'MIT' });
    expect(split.frontMatter?.raw).toBe(block(...lines).slice(0, -'body\n'.length));
    expect(split.body).toBe('body\n');
  });

  it('a duplicate key: a problem on the second, the first is read', () => {
    const split = read('name: a', 'description: d', 'name: b');
    expect(problemsOf(split)).toEqual([['FrontMatter', 'error', 4]]);
    expect(split.problems[0]?.message).toContain('first on line 2');
    expect(valuesOf(split)).toEqual({ name: 'a', description: 'd' });
  });

  it('a document that is a list or a lone scalar is not fields', () => {
    expect(problemsOf(read('- a', '- b'))).toEqual([['FrontMatter', 'error', 2]]);
    expect(problemsOf(read('just text'))).toEqual([['FrontMatter', 'error', 2]]);
    expect(read('{a: 1, b: 2}').frontMatter?.fields).toEqual([]);
  });

  it('an unknown tag is read as its plain value, with a warning', () => {
    const split = read('a: !custom x', 'b: !!binary aGk=');
    expect(valuesOf(split)).toEqual({ a: 'x', b: 'aGk=' });
    expect(problemsOf(split)).toEqual([
      ['FrontMatter', 'warning', 2],
      ['FrontMatter', 'warning', 3],
    ]);
  });

  it('an alias bomb is refused, not expanded', () => {
    // Each level lists the one before ten times: 10^9 strings if it were expanded.
    const level = (i: number) =>
      `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`;
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...[1, 2, 3, 4, 5, 6, 7, 8].map(level)];
    const split = read(...levels, 'name: ok');
    expect(split.problems.length).toBeGreaterThan(0);
    expect(split.problems.every((p) => p.code === 'FrontMatter')).toBe(true);
    expect(valuesOf(split)).toMatchObject({ name: 'ok' });
  });
});

describe('text fields', () => {
  it.each([
    ['name: plain', 'plain'],
    ['version: 1.0', '1.0'],
    ['name: 0x1F', '0x1F'],
    ['description: true # c', 'true'],
    ['name: ~', undefined],
    ['name: [a, b]', undefined],
    ['name:', undefined],
  ])('%s', (line, expected) => {
    expect(getText(read(line).frontMatter, line.split(':')[0] as string)).toBe(expected);
  });
});

describe('writing front matter', () => {
  const text = [
    '---',
    '# kept: a comment',
    'name:   spaced   # and a comment',
    "quoted: 'single'",
    '',
    'tags:',
    '- a',
    '- b',
    'description: >-',
    '  folded',
    '  text',
    'last: 1',
    '---',
    '',
  ].join('\r\n');

  it('rewrites only the changed field; every other line keeps its bytes', () => {
    const fm = splitFrontMatter(text).frontMatter;
    if (!fm) throw new Error('no front matter');
    const edited = setField(fm, 'tags', ['c']).raw;
    expect(edited).toBe(text.replace('tags:\r\n- a\r\n- b\r\n', 'tags: [c]\r\n'));
    const retitled = setField(fm, 'description', 'one: two').raw;
    expect(retitled).toBe(
      text.replace('description: >-\r\n  folded\r\n  text\r\n', 'description: "one: two"\r\n'),
    );
    expect(setField(fm, 'name', undefined).raw).toBe(
      text.replace('name:   spaced   # and a comment\r\n', ''),
    );
    expect(setField(fm, 'added', { k: 'v' }).raw).toBe(
      text.replace('last: 1\r\n', 'last: 1\r\nadded:\r\n  k: v\r\n'),
    );
  });

  const values: FrontMatterValue[] = [
    'plain',
    '',
    ' padded ',
    'has: colon',
    'x # not a comment',
    '#hash',
    '- dash',
    '[not, a, list]',
    '{not: a map}',
    '*star',
    '&amp',
    '!bang',
    '%percent',
    '@at',
    '`tick',
    '---',
    '...',
    '? key',
    "it's",
    '"quoted"',
    'two\nlines',
    'tab\tinside',
    'trailing backslash \\',
    'café 🚀 标题',
    '\u0085next line \u2028 separator',
    'del \u007f, bom \ufeff, lone surrogate \ud800',
    'true',
    'null',
    '~',
    '123',
    '0x1F',
    '.5',
    '1e3',
    '2026-11-30',
    0,
    -0,
    0.5,
    -12,
    1e21,
    Infinity,
    -Infinity,
    NaN,
    true,
    false,
    null,
    [],
    ['a, b', 'c]', '{d}', 'e: f', '', null, 1, [2, 'x']],
    {},
    { author: 'me', version: '1.0', 'odd key: yes': 'v', '': 'empty key', nested: { list: ['x'] } },
  ];

  it.each(
    values.map((v) => [typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : JSON.stringify(v), v]),
  )('%s: write, then read, gives it back', (_name, value) => {
    const created = createFrontMatter({ key: value, after: 'x' }, '\n');
    const back = splitFrontMatter(created.raw + 'body');
    expect(back.problems).toEqual([]);
    expect(getField(back.frontMatter, 'key')).toEqual(value);
    expect(Object.is(getField(back.frontMatter, 'key'), -0)).toBe(Object.is(value, -0));
    expect(getField(back.frontMatter, 'after')).toBe('x');
    const fm = splitFrontMatter(text).frontMatter;
    if (!fm) throw new Error('no front matter');
    const set = setField(fm, 'name', value);
    expect(getField(splitFrontMatter(set.raw).frontMatter, 'name')).toEqual(value);
    expect(set.raw.replace(/name:[^\r\n]*\r\n( {2}[^\r\n]*\r\n)*/, '')).toBe(
      text.replace('name:   spaced   # and a comment\r\n', ''),
    );
  });

  it('refuses a value YAML cannot hold as given instead of writing something else', () => {
    expect(() => createFrontMatter({ ['k'.repeat(1100)]: 1 })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
  });

  it('parseScalar reads one YAML value and refuses what YAML refuses', () => {
    expect(parseScalar('"a" # c')).toBe('a');
    expect(parseScalar('[1, .5, x]')).toEqual([1, 0.5, 'x']);
    expect(() => parseScalar('"open')).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
  });
});

describe('skills read their text fields deliberately', () => {
  const skill = (...lines: string[]) => parseSkill(block(...lines), 'x');
  const problemsOf = (s: ReturnType<typeof parseSkill>) => s.problems.map((p) => [p.code, p.severity]);

  it('a number or boolean in a text field reads as written', () => {
    const s = skill('name: x', 'description: 1.0', 'license: true', 'compatibility: 0x1F');
    expect([s.description, s.license, s.compatibility]).toEqual(['1.0', 'true', '0x1F']);
    expect(s.problems).toEqual([]);
  });

  it('a list or map where text is wanted is reported, not turned into text', () => {
    const s = skill('name: x', 'description: [a, b]', 'allowed-tools:', '  - Read', '  - Grep');
    expect([s.description, s.allowedTools]).toEqual(['', null]);
    expect(problemsOf(s)).toEqual([
      ['InvalidField', 'error'],
      ['InvalidField', 'warning'],
    ]);
  });

  it('metadata keeps text values; a list in it is reported and left out', () => {
    const s = skill('name: x', 'description: d', 'metadata:', '  version: "1.0"', '  n: 2', '  tags: [a]');
    expect(s.metadata).toEqual({ version: '1.0', n: '2' });
    expect(problemsOf(s)).toEqual([['InvalidField', 'warning']]);
  });

  it('front matter YAML refuses makes a skill unsavable, with the line', () => {
    const text = block('name: x', 'description: "open');
    expect(parseSkill(text).problems).toMatchObject([
      { code: 'FrontMatter', severity: 'error', line: 3 },
      { code: 'MissingField', severity: 'error' },
    ]);
    expect(() => validateSkillText(text, 'x')).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
  });
});
