import { describe, expect, it } from 'vitest';
import { recordToLine } from '../../src/core/formats/jsonl';
import { checkJson, jsonText, maxJsonDepth } from '../../src/core/json-bounds';
import { jsonToText } from '../../src/core/model';

/** `levels` arrays (or objects keyed `a`) inside one another, built without recursion. */
function nested(levels: number, shape: 'array' | 'object' = 'array', leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = shape === 'array' ? [value] : { a: value };
  return value;
}

const refusal = (code: string, message: RegExp | string) =>
  expect.objectContaining({
    name: 'BrainError',
    code,
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  });

/** `[ , 1]`: a hole JSON would write as null. */
function holey(): unknown[] {
  const array: unknown[] = [];
  array[1] = 1;
  return array;
}

describe('jsonToText: plain JSON, bounded in depth and size, checked without recursion', () => {
  it('takes 64 levels, giving back exactly what it was given, and refuses 65, saying how deep and where', () => {
    expect(maxJsonDepth).toBe(64);
    expect(jsonToText(nested(64), 'params', 1_000)).toBe(JSON.stringify(nested(64)));
    for (const shape of ['array', 'object'] as const) {
      // 63 levels around an object: 64 in all.
      const value = nested(63, shape, { s: 'é\u2028"\\\n\u0001\ud800', n: -1.5e-7, t: true, z: null });
      const text = jsonToText(value, 'params', 1_000_000);
      expect(JSON.parse(text)).toEqual(value);
    }
    expect(() => jsonToText(nested(65), 'params', 1_000_000)).toThrow(
      refusal(
        'InvalidArgument',
        /^params is nested 65 levels deep; the limit is 64 \(level 65 is at params\[0\]\[0\]\[0\]\[0\]…\[0\]\[0\]\[0\]\)\.$/,
      ),
    );
    expect(() => jsonToText({ list: [nested(64, 'object')] }, 'result', 1_000_000)).toThrow(
      refusal(
        'InvalidArgument',
        /^result is nested 66 levels deep; the limit is 64 \(level 65 is at result\.list\[0\]\.a\.a…\.a\.a\.a\)\.$/,
      ),
    );
    expect(() => jsonToText(nested(1_500, 'object'), 'params', 1_000_000)).toThrow(
      refusal('InvalidArgument', /^params is nested 1,500 levels deep; the limit is 64 /),
    );
  });

  it('refuses 100,000 levels without overflowing the stack', () => {
    for (const shape of ['array', 'object'] as const) {
      const deep = nested(100_000, shape);
      // Control: the recursive walk JSON.stringify does overflows on this value.
      expect(() => JSON.stringify(deep)).toThrow(RangeError);
      expect(() => jsonToText(deep, 'params', Number.MAX_SAFE_INTEGER)).toThrow(
        refusal('InvalidArgument', /^params is nested 100,000 levels deep; the limit is 64 /),
      );
    }
  });

  it('refuses a cycle, and takes a value shared without one', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic['a'] as unknown[]).push(cyclic);
    expect(() => jsonToText(cyclic, 'params', 1_000)).toThrow(
      refusal('InvalidArgument', 'params.a[1] refers back to itself (a cycle), which JSON cannot hold.'),
    );
    const shared = { x: 1 };
    expect(jsonToText({ a: shared, b: [shared, shared] }, 'params', 1_000)).toBe(
      '{"a":{"x":1},"b":[{"x":1},{"x":1}]}',
    );
  });

  it('refuses what JSON would drop or change, naming where it is', () => {
    const cases: [unknown, string][] = [
      [{ a: undefined }, 'params.a is undefined, which JSON cannot hold.'],
      [[1, () => 1], 'params[1] is a function, which JSON cannot hold.'],
      [{ n: Number.NaN }, 'params.n is NaN, which JSON cannot hold.'],
      [{ 'odd key': Infinity }, 'params["odd key"] is Infinity, which JSON cannot hold.'],
      [{ when: new Date(0) }, 'params.when is a Date object, which JSON cannot hold faithfully.'],
      [{ big: 1n }, 'params.big is a bigint, which JSON cannot hold.'],
      [holey(), 'params[0] is undefined, which JSON cannot hold.'],
    ];
    for (const [value, message] of cases)
      expect(() => jsonToText(value, 'params', 1_000)).toThrow(refusal('InvalidArgument', message));
    // undefined at the top is "no params": stored as null, as before.
    expect(jsonToText(undefined, 'params', 10)).toBe('null');
  });

  it('counts the JSON text exactly as JSON.stringify writes it, and refuses past the limit', () => {
    const values: unknown[] = [
      null,
      0,
      -0,
      1e21,
      -1.25e-7,
      'plain',
      'quote " backslash \\ newline \n tab \t bell \u0007 sep \u2028 emoji 😀 lone \udc00',
      [],
      {},
      [1, [2, [3, {}]], 'x'],
      { 'k"ey': { '': [true, false, null] }, é: 'ü' },
    ];
    for (const value of values) {
      const length = JSON.stringify(value).length;
      // jsonText counts a lower bound first, then the text it wrote: the same limit, the same exact figure.
      expect(jsonText(value, 'v', length)).toBe(JSON.stringify(value));
      expect(() => jsonText(value, 'v', length - 1)).toThrow(
        refusal(
          'TooLarge',
          `v is ${length.toLocaleString('en-US')} characters of JSON; the limit is ${(length - 1).toLocaleString('en-US')}.`,
        ),
      );
      expect(() => checkJson(value, 'v', { maxChars: length })).not.toThrow();
      expect(() => checkJson(value, 'v', { maxChars: length - 1 })).toThrow(
        refusal(
          'TooLarge',
          `v is ${length.toLocaleString('en-US')} characters of JSON; the limit is ${(length - 1).toLocaleString('en-US')}.`,
        ),
      );
    }
    expect(() => jsonToText({ text: 'x'.repeat(8_000_000) }, 'params', 8_000_000)).toThrow(
      refusal('TooLarge', 'params is 8,000,011 characters of JSON; the limit is 8,000,000.'),
    );
  });
});

describe('recordToLine (appendJsonl, the .agent logs) uses the same check', () => {
  it('takes 64 levels and refuses 65 and 100,000, typed', () => {
    expect(JSON.parse(recordToLine(nested(64)))).toEqual(nested(64));
    expect(() => recordToLine(nested(65, 'object'))).toThrow(
      refusal('InvalidArgument', /^record is nested 65 levels deep; the limit is 64 /),
    );
    expect(() => recordToLine(nested(100_000))).toThrow(
      refusal('InvalidArgument', /^record is nested 100,000 levels deep; the limit is 64 /),
    );
  });
});
