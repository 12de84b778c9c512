/**
 * Safe reads of parsed JSON records (plain objects of unknown shape), shared by the line parsers' modules.
 */
export type Fields = Readonly<Record<string, unknown>>;

export function asFields(value: unknown): Fields | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : null;
}

export function str(f: Fields | null, key: string): string | null {
  const v = f?.[key];
  return typeof v === 'string' ? v : null;
}

export function num(f: Fields | null, key: string): number | null {
  const v = f?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function list(f: Fields | null, key: string): readonly unknown[] {
  const v = f?.[key];
  return Array.isArray(v) ? v : [];
}

/** Epoch ms of an ISO-8601 time, or null. */
export function timeOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The string leaves of a value as `key: value` lines, depth first, at most `limit` characters: what keeps a record
 * of an unknown shape searchable. Iterative (no recursion limit), bounded work.
 */
export function leafText(value: unknown, limit = 4000): string {
  const out: string[] = [];
  let size = 0;
  const stack: { key: string; value: unknown }[] = [{ key: '', value }];
  let visited = 0;
  while (stack.length > 0 && size < limit && visited < 10_000) {
    visited++;
    const { key, value: v } = stack.pop() as { key: string; value: unknown };
    if (typeof v === 'string') {
      if (v === '') continue;
      const line = key === '' ? v : `${key}: ${v}`;
      out.push(line.slice(0, limit - size));
      size += line.length + 1;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ key, value: v[i] });
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        stack.push({ key: k, value: child });
      }
    }
  }
  return out.join('\n');
}
