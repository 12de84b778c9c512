/**
 * Plain JSON, checked without recursion: what step params and results, JSONL records and anything else typed
 * `Json` may hold. The page checks a call's JSON before `postMessage` and the engine checks it again, with this
 * one function, so every caller gets the same refusal. A value that passes comes back from its JSON text exactly
 * (`-0` aside, which JSON writes as `0`); one that does not is refused with a typed error saying where.
 */
import { BrainError } from './errors';

/**
 * How deep JSON may nest (objects and arrays, the outermost one is level 1). Deeper values do not cross a worker
 * reliably: Chromium's structured clone gives up on some thousand levels (the page throws a RangeError, or the
 * worker drops the message and the call never settles), and a deep row read back could no longer be sent out.
 */
export const maxJsonDepth = 64;

export interface JsonBounds {
  /** Default `maxJsonDepth`. */
  readonly maxDepth?: number;
  /** When given, JSON text longer than this (as `JSON.stringify` writes it) is refused with `TooLarge`. */
  readonly maxChars?: number;
  /**
   * Count strings and keys by their length, not as JSON writes them (escapes make that longer): a lower bound,
   * with no string written out. The caller then checks the exact length of the text it writes (`jsonText`).
   */
  readonly lowerBound?: boolean;
}

/** The refusal of JSON text longer than the limit. */
export function tooLargeJson(where: string, chars: number, limit: number): BrainError {
  return new BrainError(
    'TooLarge',
    `${where} is ${grouped(chars)} characters of JSON; the limit is ${grouped(limit)}.`,
    { chars, limit },
  );
}

type Key = string | number;

/** One container on the path being walked, and how far through its members the walk is. */
interface Cursor {
  readonly container: object;
  /** The object's own keys; null for an array. */
  readonly keys: readonly string[] | null;
  readonly length: number;
  index: number;
  readonly depth: number;
  readonly parent: Cursor | null;
  readonly keyInParent: Key | null;
}

const grouped = (n: number) => n.toLocaleString('en-US');

function keysOf(cursor: Cursor | null): Key[] {
  const keys: Key[] = [];
  for (let c = cursor; c !== null && c.keyInParent !== null; c = c.parent) keys.push(c.keyInParent);
  return keys.reverse();
}

/** `where.a[3]["b c"]`, its middle elided when long (a path 1,500 levels deep stays one line). */
export function formatJsonPath(where: string, keys: readonly Key[]): string {
  const part = (key: Key) =>
    typeof key === 'number'
      ? `[${key}]`
      : /^[A-Za-z_$][\w$]{0,39}$/.test(key)
        ? `.${key}`
        : `[${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)}]`;
  const shown =
    keys.length <= 8 ? keys.map(part) : [...keys.slice(0, 4).map(part), '…', ...keys.slice(-3).map(part)];
  return where + shown.join('');
}

function describeType(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && value !== null) {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor
      ?.name;
    return `a ${typeof name === 'string' && name !== '' ? name : 'non-plain'} object`;
  }
  return `a ${typeof value}`;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Throws unless `value` is plain JSON within `bounds`: `InvalidArgument` for what JSON cannot hold (undefined, a
 * function, NaN, a Date or other class instance, a cycle) or for nesting past `maxDepth`; `TooLarge` past
 * `maxChars`. `where` names the value in messages (`params`, `record`). Walks with an explicit stack, so a value
 * 100,000 levels deep is refused rather than overflowing the call stack.
 */
export function checkJson(value: unknown, where: string, bounds: JsonBounds = {}): void {
  const maxDepth = bounds.maxDepth ?? maxJsonDepth;
  const counting = bounds.maxChars !== undefined;
  // Plain JSON within the depth, with no size to count: nothing to say, found without the walk's bookkeeping.
  if (!counting && maxDepth <= maxJsonDepth && plainJsonChars(value, maxDepth) >= 0) return;
  const exact = bounds.lowerBound !== true;
  let chars = 0;
  let deepest = 0;
  let tooDeepAt: string | null = null;
  /** The containers on the current path: meeting one again is a cycle (a shared, acyclic value is fine). */
  const open = new Set<object>();
  let top = null as Cursor | null;

  const refuse = (parent: Cursor | null, key: Key | null, what: string) =>
    new BrainError(
      'InvalidArgument',
      `${formatJsonPath(where, key === null ? keysOf(parent) : [...keysOf(parent), key])} ${what}.`,
    );

  /** Counts a scalar or opens a container (pushing its cursor); refuses what is not JSON. */
  const visit = (item: unknown, parent: Cursor | null, key: Key | null): void => {
    if (item === null) {
      chars += 4;
      return;
    }
    switch (typeof item) {
      case 'boolean':
        chars += item ? 4 : 5;
        return;
      case 'number':
        if (!Number.isFinite(item)) throw refuse(parent, key, `is ${item}, which JSON cannot hold`);
        if (counting) chars += String(item).length;
        return;
      case 'string':
        if (counting) chars += exact ? JSON.stringify(item).length : item.length + 2;
        return;
      case 'object':
        break;
      default:
        throw refuse(parent, key, `is ${describeType(item)}, which JSON cannot hold`);
    }
    if (open.has(item)) throw refuse(parent, key, 'refers back to itself (a cycle), which JSON cannot hold');
    const isArray = Array.isArray(item);
    if (!isArray && !isPlainObject(item))
      throw refuse(parent, key, `is ${describeType(item)}, which JSON cannot hold faithfully`);
    const keys = isArray ? null : Object.keys(item);
    const length = isArray ? (item as unknown[]).length : (keys as string[]).length;
    const depth = (parent?.depth ?? 0) + 1;
    const cursor: Cursor = { container: item, keys, length, index: 0, depth, parent, keyInParent: key };
    if (depth > deepest) deepest = depth;
    if (depth > maxDepth && tooDeepAt === null) tooDeepAt = formatJsonPath(where, keysOf(cursor));
    if (counting) {
      chars += 2 + Math.max(0, length - 1);
      if (keys) for (const k of keys) chars += (exact ? JSON.stringify(k).length : k.length + 2) + 1;
    }
    open.add(item);
    top = cursor;
  };

  visit(value, null, null);
  while (top !== null) {
    const cursor: Cursor = top;
    if (cursor.index === cursor.length) {
      open.delete(cursor.container);
      top = cursor.parent;
      continue;
    }
    const i = cursor.index++;
    if (cursor.keys === null) visit((cursor.container as unknown[])[i], cursor, i);
    else {
      const k = cursor.keys[i] as string;
      visit((cursor.container as Record<string, unknown>)[k], cursor, k);
    }
  }

  if (tooDeepAt !== null) {
    throw new BrainError(
      'InvalidArgument',
      `${where} is nested ${grouped(deepest)} levels deep; the limit is ${grouped(maxDepth)} (level ${grouped(maxDepth + 1)} is at ${tooDeepAt}).`,
      { depth: deepest, limit: maxDepth },
    );
  }
  if (bounds.maxChars !== undefined && chars > bounds.maxChars) {
    // Over the limit already by the lower bound: walk again, counting exactly, for the refusal's figure.
    if (!exact) checkJson(value, where, { maxDepth, maxChars: bounds.maxChars });
    throw tooLargeJson(where, chars, bounds.maxChars);
  }
}

/**
 * The lower bound `checkJson` counts, of a value that is plain JSON nested at most `maxDepth` levels; -1 for any
 * other (not JSON, a cycle — endless depth —, too deep): then `checkJson` walks it again and says why. Recursive,
 * but never past `maxDepth + 1` frames. A number counts one character: the bound only spares writing out a value
 * already too long by it; the length of the text written decides.
 */
function plainJsonChars(value: unknown, depthLeft: number): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isFinite(value) ? 1 : -1;
    case 'boolean':
      return 4;
    case 'object':
      break;
    default:
      return -1;
  }
  if (depthLeft <= 0) return -1;
  let chars = 2;
  if (Array.isArray(value)) {
    const length = value.length;
    for (let i = 0; i < length; i++) {
      const n = plainJsonChars(value[i], depthLeft - 1);
      if (n < 0) return -1;
      chars += n + 1;
    }
    return length === 0 ? chars : chars - 1;
  }
  if (!isPlainObject(value)) return -1;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const n = plainJsonChars(record[key], depthLeft - 1);
    if (n < 0) return -1;
    chars += key.length + n + 4;
  }
  return chars === 2 ? chars : chars - 1;
}

/**
 * `value` as JSON text, checked as `checkJson` does with `maxChars`, but with its strings written once: a lower
 * bound is counted first (nothing written for a value over the limit by it), the text's own length decides. Plain
 * JSON within the depth (nearly every value) is counted by one light recursive pass; anything else takes the
 * checking walk, whose refusal says where.
 */
export function jsonText(value: unknown, where: string, maxChars: number): string {
  const lower = plainJsonChars(value, maxJsonDepth);
  if (lower < 0 || lower > maxChars) checkJson(value, where, { maxChars, lowerBound: true });
  const text = JSON.stringify(value);
  if (text.length > maxChars) throw tooLargeJson(where, text.length, maxChars);
  return text;
}
