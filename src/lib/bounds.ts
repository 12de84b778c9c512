/**
 * Bounds on what a call sends, checked on the page before `postMessage`, so a value the worker cannot take is a
 * typed refusal and never a hang or an untyped error. Measured in Chromium: a step's params nested 1,500 levels
 * deep never got an answer (the worker could not read the message, and Comlink never hears of it); 2,000 levels
 * were stored and then could not be sent back; 5,000 made `postMessage` throw a RangeError.
 * - Arguments typed `Json` in src/core/api get the engine's own check (`checkJson`: plain JSON, at most
 *   `maxJsonDepth` levels, the engine's size limit), so the page and the engine refuse alike.
 * - Every other argument may nest at most `maxJsonDepth` levels too (plain objects and arrays; bytes, files,
 *   handles and callbacks count as one value).
 * - What structured clone still refuses (a function, a DOM node) becomes `InvalidArgument` (`guardEndpoint`).
 */
import type { Endpoint } from 'comlink';
import { BrainError } from '../core/errors';
import { checkJson, formatJsonPath, maxJsonDepth } from '../core/json-bounds';
import { defaultMaxStepJsonChars } from '../core/model';
import type { BrainApi } from '../worker/protocol';

interface JsonArgument {
  readonly value: unknown;
  readonly where: string;
  readonly maxChars?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The arguments typed `Json` in src/core/api, found in a call's argument list, with the engine's bounds. */
const jsonArguments: { readonly [K in keyof BrainApi]?: (args: readonly unknown[]) => JsonArgument[] } = {
  recordStep: ([input]) =>
    isRecord(input)
      ? (['params', 'result'] as const)
          .filter((part) => input[part] !== undefined)
          .map((part) => ({ value: input[part], where: part, maxChars: defaultMaxStepJsonChars }))
      : [],
  appendJsonl: ([, records]) =>
    Array.isArray(records) ? records.map((value, i) => ({ value, where: `records[${i}]` })) : [],
};

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || proto === Object.prototype || proto === null;
};

interface Frame {
  readonly value: object;
  readonly depth: number;
  readonly parent: Frame | null;
  readonly key: string | number;
}

function pathOf(frame: Frame): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let f: Frame | null = frame; f !== null; f = f.parent) keys.push(f.key);
  return keys.reverse();
}

/** Refuses an argument list nested deeper than `maxJsonDepth`, without recursion; `done` are already checked. */
function checkNesting(method: string, args: readonly unknown[], done: ReadonlySet<unknown>): void {
  const seen = new Set<object>();
  const stack: Frame[] = [];
  const push = (value: unknown, parent: Frame | null, key: string | number) => {
    if (typeof value !== 'object' || value === null || done.has(value) || seen.has(value) || !isPlain(value))
      return;
    seen.add(value);
    stack.push({ value, depth: (parent?.depth ?? 0) + 1, parent, key });
  };
  args.forEach((arg, i) => push(arg, null, i));
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.depth > maxJsonDepth) {
      const [argument = 0, ...keys] = pathOf(frame);
      throw new BrainError(
        'InvalidArgument',
        `${method}'s argument ${Number(argument) + 1} is nested more than ${maxJsonDepth} levels deep (level ${maxJsonDepth + 1} is at ${formatJsonPath('argument', keys)}); the limit is ${maxJsonDepth}.`,
        { limit: maxJsonDepth },
      );
    }
    if (Array.isArray(frame.value)) frame.value.forEach((item, i) => push(item, frame, i));
    else for (const [key, item] of Object.entries(frame.value)) push(item, frame, key);
  }
}

/**
 * Throws the typed refusal the engine would give (or, for nesting no JSON argument has, the worker could not take)
 * before anything is posted. Cheap next to the structured clone that follows: one walk over the arguments.
 */
export function checkCallArguments(method: keyof BrainApi, args: readonly unknown[]): void {
  const json = jsonArguments[method]?.(args) ?? [];
  for (const { value, where, maxChars } of json)
    checkJson(value, where, maxChars === undefined ? {} : { maxChars });
  checkNesting(method, args, new Set(json.map((j) => j.value)));
}

function cloneFailure(message: unknown, error: unknown): unknown {
  const isCloneError =
    (typeof DOMException !== 'undefined' &&
      error instanceof DOMException &&
      error.name === 'DataCloneError') ||
    error instanceof RangeError;
  if (!isCloneError) return error;
  const path = isRecord(message) && Array.isArray(message['path']) ? message['path'].join('.') : '';
  return new BrainError(
    'InvalidArgument',
    `${path === '' ? 'This call' : path} cannot send its arguments to the worker: ${error.message} Pass plain data (no functions, DOM nodes or class instances; callbacks only where the API takes a listener).`,
  );
}

/** The worker as Comlink's endpoint, with a structured-clone failure of what is posted turned into `InvalidArgument`. */
export function guardEndpoint(worker: Worker): Endpoint {
  return {
    postMessage(message: unknown, transfer: Transferable[] = []) {
      try {
        worker.postMessage(message, transfer);
      } catch (error) {
        throw cloneFailure(message, error);
      }
    },
    addEventListener: worker.addEventListener.bind(worker),
    removeEventListener: worker.removeEventListener.bind(worker),
  };
}
