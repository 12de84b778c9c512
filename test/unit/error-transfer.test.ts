/**
 * The worker boundary's error transfer (src/worker/error-transfer.ts) through real Comlink over a MessageChannel:
 * the two ports stand for the worker and the page.
 */
import * as Comlink from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { BrainError } from '../../src/core/errors';
import { installErrorTransfer } from '../../src/worker/error-transfer';

const shared = new TypeError('a shared failure');

// Named functions, so the stack that crosses names where each error was thrown.
const worker = {
  failUnexpectedly(): never {
    throw new TypeError('Cannot read properties of undefined');
  },
  failInternally(): never {
    throw new BrainError('Internal', 'A step insert returned no row.');
  },
  failAsExpected(): never {
    throw new BrainError('NotFound', 'No task 7.', { taskId: 7 });
  },
  failWithTheSharedError(): Promise<never> {
    return Promise.reject(shared);
  },
};

let channel: MessageChannel;
let page: Comlink.Remote<typeof worker>;
let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  installErrorTransfer();
  channel = new MessageChannel();
  Comlink.expose(worker, channel.port1);
  page = Comlink.wrap<typeof worker>(channel.port2);
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  page[Comlink.releaseProxy]();
  channel.port1.close();
  channel.port2.close();
  consoleError.mockRestore();
});

async function rejection(call: Promise<unknown>): Promise<BrainError> {
  const error: unknown = await call.then(
    () => expect.unreachable('the call resolved'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BrainError);
  return error as BrainError;
}

describe('error transfer', () => {
  it('rejects a foreign error as Internal, carrying the stack of where it was thrown', async () => {
    const error = await rejection(page.failUnexpectedly());
    expect(error).toMatchObject({ code: 'Internal', message: 'Cannot read properties of undefined' });
    expect(error.stack).toMatch(/Thrown across the worker boundary as TypeError: Cannot read properties/);
    expect(error.stack).toContain('failUnexpectedly');
  });

  it('carries the stack of a BrainError that is Internal too (a bug, like a foreign error)', async () => {
    const error = await rejection(page.failInternally());
    expect(error).toMatchObject({ code: 'Internal', message: 'A step insert returned no row.' });
    expect(error.stack).toContain('failInternally');
  });

  it('passes an expected error on with its code, message and details, no stack of the worker', async () => {
    const error = await rejection(page.failAsExpected());
    expect(error.toData()).toEqual({ code: 'NotFound', message: 'No task 7.', details: { taskId: 7 } });
    expect(error.stack).not.toContain('Thrown across the worker boundary');
    expect(error.stack).not.toContain('failAsExpected');
  });

  it('logs an unexpected error once where it was thrown, and an expected one not at all', async () => {
    await rejection(page.failAsExpected());
    expect(consoleError).not.toHaveBeenCalled();
    // The control case: the same spy sees an unexpected one, exactly once for one throw.
    await rejection(page.failUnexpectedly());
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(consoleError.mock.calls[0]?.[1]).toBeInstanceOf(TypeError);
  });

  it('logs an error rejected to several callers once', async () => {
    const [first, second] = await Promise.all([
      rejection(page.failWithTheSharedError()),
      rejection(page.failWithTheSharedError()),
    ]);
    expect(first.message).toBe('a shared failure');
    expect(second.message).toBe('a shared failure');
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(consoleError.mock.calls[0]?.[1]).toBe(shared);
  });
});
