/**
 * Reading tool inputs of unknown shape without trusting them: own properties only (never the prototype's),
 * values of the wrong type read as absent. A string input that holds a JSON object (Codex's `arguments`) is
 * parsed once, up to `maxJsonChars`.
 */

export type Fields = Readonly<Record<string, unknown>>;

export const maxJsonChars = 32 * 1024 * 1024;

/** The input as an object: itself, or the object its JSON text holds; null for anything else. */
export function asFields(input: unknown): Fields | null {
  if (typeof input === 'string') {
    const text = input.trimStart();
    if (!text.startsWith('{') || text.length > maxJsonChars) return null;
    try {
      return asFields(JSON.parse(text) as unknown);
    } catch {
      return null; // Not JSON: the caller reads the string as text (a command line, a patch).
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  return input as Fields;
}

function field(fields: Fields | null, key: string): unknown {
  if (!fields || !Object.hasOwn(fields, key)) return undefined;
  return fields[key];
}

/** The first of `keys` that holds a string. */
export function str(fields: Fields | null, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = field(fields, key);
    if (typeof value === 'string') return value;
  }
  return null;
}

/** The first of `keys` that holds a finite number (or a string of digits, as some agents send). */
export function num(fields: Fields | null, ...keys: string[]): number | null {
  for (const key of keys) {
    const value = field(fields, key);
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  }
  return null;
}

export function bool(fields: Fields | null, ...keys: string[]): boolean | null {
  for (const key of keys) {
    const value = field(fields, key);
    if (typeof value === 'boolean') return value;
  }
  return null;
}

export function list(fields: Fields | null, ...keys: string[]): readonly unknown[] | null {
  for (const key of keys) {
    const value = field(fields, key);
    if (Array.isArray(value)) return value;
  }
  return null;
}

export function obj(fields: Fields | null, ...keys: string[]): Fields | null {
  for (const key of keys) {
    const value = asFields(field(fields, key));
    if (value) return value;
  }
  return null;
}

/** An array of strings, or null when it is not one (any non-string element). */
export function strings(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') return null;
    out.push(item);
  }
  return out;
}
