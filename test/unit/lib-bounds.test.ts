/**
 * The page-side bounds (src/lib/bounds.ts) as pure functions; test/browser/input-bounds.test.ts runs them through
 * openBrain, the real worker and OPFS.
 */
import { describe, expect, it } from 'vitest';
import { checkCallArguments, guardEndpoint } from '../../src/lib/bounds';

function nested(levels: number, shape: 'array' | 'object' = 'array'): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = shape === 'array' ? [value] : { a: value };
  return value;
}

const rejectsWith = (code: string, message: RegExp) =>
  expect.objectContaining({ name: 'BrainError', code, message: expect.stringMatching(message) });

describe('checkCallArguments', () => {
  it('holds recordStep params/result to the engine’s JSON bounds, by name', () => {
    const step = (params: unknown, result?: unknown) => [
      { taskId: 1, tool: 't', status: 'ok', params, result },
    ];
    expect(() => checkCallArguments('recordStep', step(nested(64), nested(64, 'object')))).not.toThrow();
    expect(() => checkCallArguments('recordStep', step(nested(1_500, 'object')))).toThrow(
      rejectsWith(
        'InvalidArgument',
        /^params is nested 1,500 levels deep; the limit is 64 \(level 65 is at params\.a\.a/,
      ),
    );
    expect(() => checkCallArguments('recordStep', step(null, nested(100_000)))).toThrow(
      rejectsWith('InvalidArgument', /^result is nested 100,000 levels deep; the limit is 64 /),
    );
    expect(() => checkCallArguments('recordStep', step({ at: new Date(0) }))).toThrow(
      rejectsWith('InvalidArgument', /^params\.at is a Date object, which JSON cannot hold faithfully\.$/),
    );
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    expect(() => checkCallArguments('recordStep', step(cyclic))).toThrow(
      rejectsWith('InvalidArgument', /^params\[0\] refers back to itself/),
    );
    expect(() => checkCallArguments('recordStep', step('x'.repeat(8_000_000)))).toThrow(
      rejectsWith('TooLarge', /^params is 8,000,002 characters of JSON; the limit is 8,000,000\.$/),
    );
  });

  it('holds appendJsonl records to the same check, one by one', () => {
    expect(() => checkCallArguments('appendJsonl', ['.agent/x.jsonl', [nested(64), { a: 1 }]])).not.toThrow();
    expect(() => checkCallArguments('appendJsonl', ['.agent/x.jsonl', [{}, nested(65)]])).toThrow(
      rejectsWith('InvalidArgument', /^records\[1\] is nested 65 levels deep; the limit is 64 /),
    );
  });

  it('refuses any other argument nested past 64 levels, and leaves bytes, handles and callbacks alone', () => {
    const input = { sessionId: 1, kind: 'note', text: 'x', extra: nested(1_500, 'object') };
    expect(() => checkCallArguments('recordEvent', [input as never])).toThrow(
      rejectsWith(
        'InvalidArgument',
        /^recordEvent's argument 1 is nested more than 64 levels deep \(level 65 is at argument\.extra\.a\.a\.a….a\.a\.a\); the limit is 64\.$/,
      ),
    );
    const shallow = { sessionId: 1, kind: 'note', text: 'x', extra: nested(63, 'object') };
    expect(() => checkCallArguments('recordEvent', [shallow as never])).not.toThrow();
    const cyclic: Record<string, unknown> = { title: 'x' };
    cyclic['self'] = cyclic; // structured clone copes with a cycle outside JSON
    expect(() => checkCallArguments('startSession', [cyclic])).not.toThrow();
    const bytes = new Uint8Array(10);
    expect(() => checkCallArguments('importDatabase', [bytes])).not.toThrow();
    expect(() => checkCallArguments('cleanup', [{}, () => undefined])).not.toThrow();
  });
});

describe('guardEndpoint', () => {
  /** Stands in for a Worker: posting clones the message as a real one would. */
  const fakeWorker = (post: (message: unknown) => void = (m) => void structuredClone(m)) =>
    ({
      postMessage: post,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }) as unknown as Worker;

  it('turns a structured-clone failure into InvalidArgument naming the call', () => {
    const endpoint = guardEndpoint(fakeWorker());
    const message = { type: 'APPLY', path: ['startSession'], argumentList: [{ title: () => 1 }] };
    expect(() => endpoint.postMessage(message)).toThrow(
      rejectsWith(
        'InvalidArgument',
        /^startSession cannot send its arguments to the worker: .+ Pass plain data/,
      ),
    );
    // Control: the same message without the function goes through.
    expect(() => endpoint.postMessage({ ...message, argumentList: [{ title: 'x' }] })).not.toThrow();
  });

  it('passes other errors through as they are', () => {
    const failure = new TypeError('something else');
    const endpoint = guardEndpoint(
      fakeWorker(() => {
        throw failure;
      }),
    );
    expect(() => endpoint.postMessage({ path: ['info'] })).toThrow(failure);
  });
});
