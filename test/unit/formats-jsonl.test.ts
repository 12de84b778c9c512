import { describe, expect, it } from 'vitest';
import {
  appendPrefix,
  appendText,
  createAgentLogRecord,
  jsonlValues,
  parseAgentLog,
  parseJsonl,
  recordToLine,
  serialiseJsonl,
} from '../../src/core/formats';

describe('JSON Lines', () => {
  it.each([
    ['empty', ''],
    ['one line', '{"a":1}\n'],
    ['CRLF', '{"a":1}\r\n{"b":2}\r\n'],
    ['blank lines and spaces', '{"a":1}\n\n   \n{"b":2}  \n'],
    ['malformed and torn', '{"a":1}\nnope\n{"b":'],
    ['BOM', '\uFEFF{"a":1}\n'],
  ])('%s round-trips exactly', (_name, text) => {
    expect(serialiseJsonl(parseJsonl(text))).toBe(text);
  });

  it('reports malformed lines by 1-based number, keeps them verbatim and loads every other line', () => {
    const doc = parseJsonl('{"a":1}\n{oops}\n\n[1,2]\n"str"\n{"z":true}\n');
    expect(doc.problems.map((p) => [p.code, p.line])).toEqual([['MalformedLine', 2]]);
    expect(doc.lines[1]).toMatchObject({ line: 2, raw: '{oops}' });
    expect(doc.lines[1]?.error).toBeTruthy();
    expect(jsonlValues(doc).map((v) => v.line)).toEqual([1, 4, 5, 6]);
    expect(doc.torn).toBe(false);
  });

  it('detects a torn last line: an error when cut mid-value, a warning when only the ending is missing', () => {
    const cut = parseJsonl('{"a":1}\n{"b":2,"c"');
    expect(cut.torn).toBe(true);
    expect(cut.problems).toMatchObject([{ code: 'TornLine', severity: 'error', line: 2 }]);
    expect(jsonlValues(cut)).toHaveLength(1);
    const whole = parseJsonl('{"a":1}\n{"b":2}');
    expect(whole.problems).toMatchObject([{ code: 'TornLine', severity: 'warning', line: 2 }]);
    expect(jsonlValues(whole)).toHaveLength(2);
    expect(parseJsonl('{"a":1}\n   ').torn).toBe(false);
  });

  it('numbers lines from firstLine when parsing a tail', () => {
    expect(parseJsonl('x\n', { firstLine: 1001 }).problems).toMatchObject([
      { code: 'MalformedLine', line: 1001 },
    ]);
  });

  it('appends on a fresh line after a torn tail, in the file’s line ending, never touching earlier bytes', () => {
    const torn = '{"a":1}\r\n{"b":';
    const added = appendText(torn, [{ c: 3 }, { d: 'x\ny' }], parseJsonl(torn).eol);
    expect(added).toBe('\r\n{"c":3}\r\n{"d":"x\\ny"}\r\n');
    const after = parseJsonl(torn + added);
    expect(after.torn).toBe(false);
    expect(after.problems).toMatchObject([{ code: 'MalformedLine', line: 2 }]);
    expect(jsonlValues(after).map((v) => v.value)).toEqual([{ a: 1 }, { c: 3 }, { d: 'x\ny' }]);
    expect(appendPrefix('', '\n')).toBe('');
    expect(appendPrefix('\uFEFF', '\n')).toBe('');
    expect(appendPrefix('}\n', '\n')).toBe('');
    expect(appendPrefix('}', '\n')).toBe('\n');
  });

  it('refuses records JSON cannot hold faithfully', () => {
    expect(recordToLine({ a: [1, 'two', null, { b: false }] })).toBe('{"a":[1,"two",null,{"b":false}]}');
    expect(recordToLine({ text: 'line\u2028sep' })).not.toMatch(/[\n\r]/);
    for (const bad of [
      { a: Number.NaN },
      { a: undefined },
      { a: () => 1 },
      new Date(0),
      { a: Infinity },
      1n,
    ]) {
      expect(() => recordToLine(bad)).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
    }
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => recordToLine(cyclic)).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
  });
});

describe('agent logs (HISTORY.jsonl, SESSION.jsonl)', () => {
  it('reads the envelope, flags records without one and newer versions, keeps all lines', () => {
    const text = [
      '{"v":1,"ts":1,"kind":"decision","text":"a"}',
      '{"ts":2,"kind":"note"}',
      '{"v":1,"kind":"no-ts"}',
      '{"v":1,"ts":"yesterday","kind":"bad-ts"}',
      '{"v":2,"ts":5,"kind":"future","new":{"x":1}}',
      '{"v":2,"ts":6,"kind":"future"}',
      '',
    ].join('\n');
    const log = parseAgentLog(text);
    expect(log.entries.map((e) => [e.line, e.record.kind])).toEqual([
      [1, 'decision'],
      [2, 'note'],
      [5, 'future'],
      [6, 'future'],
    ]);
    expect(log.problems.map((p) => [p.code, p.line])).toEqual([
      ['InvalidRecord', 3],
      ['InvalidRecord', 4],
      ['NewerVersion', 5],
    ]);
    expect(serialiseJsonl(log.document)).toBe(text);
  });

  it('creates records with the envelope first and cannot be tricked out of it', () => {
    const record = createAgentLogRecord('decision', 42, { text: 'x', kind: 'evil', v: 9 });
    expect(record).toEqual({ v: 1, ts: 42, kind: 'decision', text: 'x' });
    expect(recordToLine(record)).toBe('{"v":1,"ts":42,"kind":"decision","text":"x"}');
  });
});
