/**
 * jsonText and checkJson take a light recursive pass over plain JSON and leave everything else to the checking
 * walk. Pinned here: on awkward values, each gives exactly what the walk alone gives (the same text, or the same
 * typed refusal with the same message and details), at limits just under, at and over the text's length.
 */
import { describe, expect, it } from 'vitest';
import { checkJson, jsonText, tooLargeJson } from '../../src/core/json-bounds';

/** The walk alone: `checkJson` counting (which never takes the light pass), then the text's own length. */
function walkedJsonText(value: unknown, where: string, maxChars: number): string {
  checkJson(value, where, { maxChars, lowerBound: true });
  const text = JSON.stringify(value);
  if (text.length > maxChars) throw tooLargeJson(where, text.length, maxChars);
  return text;
}

type Outcome = { text: string } | { code: unknown; message: unknown; details: unknown } | { other: string };

function outcome(run: () => string | void): Outcome {
  try {
    return { text: String(run()) };
  } catch (error) {
    if (error instanceof Error && 'code' in error)
      return { code: error.code, message: error.message, details: (error as { details?: unknown }).details };
    return { other: String(error) };
  }
}

function nested(levels: number, shape: 'array' | 'object', leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = shape === 'array' ? [value] : { a: value };
  return value;
}

function awkward(): [string, unknown][] {
  const sparse: unknown[] = [];
  sparse[2] = 'x';
  const arrayWithProps = Object.assign([1, 2], { extra: 'ignored by JSON' });
  const nullProto = Object.create(null) as Record<string, unknown>;
  nullProto['k'] = [null, false];
  const withSymbolKey = { a: 1, [Symbol('s')]: 2 };
  const withGetter = Object.defineProperty({ b: 1 }, 'g', { enumerable: true, get: () => 'got' });
  const hidden = Object.defineProperty({ b: 1 }, 'h', { enumerable: false, value: () => 1 });
  const cyclic: Record<string, unknown> = { list: [] };
  (cyclic['list'] as unknown[]).push({ back: cyclic });
  const deepCycle = nested(70, 'object') as Record<string, unknown>;
  deepCycle['self'] = deepCycle;
  const shared = { s: [1] };
  class Point {
    x = 1;
  }
  class List extends Array<number> {}
  return [
    ['null', null],
    ['false', false],
    ['true', true],
    ['-0', -0],
    ['long numbers', [1e21, -1.2345678901234567e-200, 0.1, 2 ** 53, -1]],
    ['falses', [false, false, false, false]],
    ['empty string', ''],
    ['escapes', 'quote " back \\ nl \n tab \t ctl \u0001 sep \u2028 lone \ud800 emoji 😀'],
    ['escaped keys', { 'k"ey': 1, '\n': [], '': {}, é: 'ü' }],
    ['index-like keys', { b: 1, 2: 'two', 1: 'one', a: 0 }],
    ['empty containers', [[], {}, [[]], [{}]]],
    ['sparse array', sparse],
    ['array with extra properties', arrayWithProps],
    ['null-prototype object', nullProto],
    ['symbol key', withSymbolKey],
    ['enumerable getter', withGetter],
    ['non-enumerable function', hidden],
    ['shared, no cycle', { a: shared, b: [shared, { c: shared }] }],
    ['cycle', cyclic],
    ['cycle under 70 levels', deepCycle],
    ['64 arrays', nested(64, 'array')],
    ['64 objects', nested(64, 'object', 'leaf')],
    ['65 arrays', nested(65, 'array')],
    ['65 objects around an empty one', nested(64, 'object', {})],
    ['64 levels then a function', nested(63, 'array', { f: () => 1 })],
    ['2,000 levels', nested(2_000, 'object')],
    ['undefined member', { a: undefined }],
    ['undefined element', [1, undefined]],
    ['NaN', { n: Number.NaN }],
    ['-Infinity', [-Infinity]],
    ['bigint', { b: 1n }],
    ['symbol value', [Symbol('v')]],
    ['function', () => 1],
    ['Date', { when: new Date(0) }],
    ['class instance', [new Point()]],
    ['Array subclass', List.from([1, 2])],
    ['Map', new Map([[1, 2]])],
    ['Uint8Array', new Uint8Array([1, 2])],
    ['boxed string', { s: new String('x') }],
    ['toJSON method', { toJSON: () => 'x' }],
    ['refused after a long string', ['y'.repeat(500), undefined]],
  ];
}

describe('jsonText and checkJson: the light pass gives what the walk gives', () => {
  it('jsonText: the same text or the same refusal, at limits around the text length', () => {
    for (const [name, value] of awkward()) {
      const length = outcome(() => JSON.stringify(value));
      const n = 'text' in length ? length.text.length : 100;
      for (const maxChars of [0, 1, n - 2, n - 1, n, n + 1, 10 * n, 8_000_000]) {
        if (maxChars < 0) continue;
        expect(
          outcome(() => jsonText(value, 'params', maxChars)),
          `${name} within ${maxChars}`,
        ).toEqual(outcome(() => walkedJsonText(value, 'params', maxChars)));
      }
    }
  });

  it('checkJson with no size: the same refusal or none, at several depths', () => {
    let refused = 0;
    for (const [name, value] of awkward()) {
      for (const maxDepth of [undefined, 0, 1, 2, 63, 64]) {
        const bounds = maxDepth === undefined ? {} : { maxDepth };
        const fast = outcome(() => checkJson(value, 'record', bounds));
        // A size no value here reaches: the walk, counting, with nothing else changed.
        const walked = outcome(() => checkJson(value, 'record', { ...bounds, maxChars: 1e15 }));
        expect(fast, `${name} at depth ${maxDepth}`).toEqual(walked);
        if (!('text' in fast)) refused++;
      }
    }
    // Control: the table does reach the refusals (not everything passes).
    expect(refused).toBeGreaterThan(60);
  });

  it('a value too large by the lower bound is refused with the exact figure', () => {
    const big = { text: 'x'.repeat(100_000), flags: [false, false] };
    const exact = JSON.stringify(big).length;
    expect(outcome(() => jsonText(big, 'result', 50_000))).toEqual({
      code: 'TooLarge',
      message: `result is ${exact.toLocaleString('en-US')} characters of JSON; the limit is 50,000.`,
      details: { chars: exact, limit: 50_000 },
    });
  });
});
