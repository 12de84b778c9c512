const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatTime(ms: number): string {
  return new Date(ms).toLocaleString();
}

export function formatClock(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function formatCount(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/**
 * Compact JSON of at most about `maxChars` characters, without serialising all of a large value first (a step
 * result may be megabytes; the list shows a line of it). `truncated` says whether anything was left out.
 */
export function previewJson(value: unknown, maxChars = 160): { text: string; truncated: boolean } {
  let text = '';
  let truncated = false;
  const put = (piece: string) => {
    if (text.length + piece.length > maxChars) {
      text += piece.slice(0, Math.max(0, maxChars - text.length));
      truncated = true;
      return false;
    }
    text += piece;
    return true;
  };
  const walk = (v: unknown): boolean => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'string' && v.length > maxChars) {
        put(JSON.stringify(v.slice(0, maxChars)));
        truncated = true;
        return false;
      }
      return put(v === undefined ? 'null' : JSON.stringify(v));
    }
    if (Array.isArray(v)) {
      if (!put('[')) return false;
      for (let i = 0; i < v.length; i++) if ((i > 0 && !put(',')) || !walk(v[i])) return false;
      return put(']');
    }
    if (!put('{')) return false;
    let first = true;
    for (const [key, inner] of Object.entries(v)) {
      if ((!first && !put(',')) || !put(`${JSON.stringify(key)}:`) || !walk(inner)) return false;
      first = false;
    }
    return put('}');
  };
  walk(value);
  if (truncated && !text.endsWith('…')) text += '…';
  return { text, truncated };
}

/** A byte axis: its top, the step between ticks (both in bytes) and how a tick reads. */
export interface ByteScale {
  readonly max: number;
  readonly step: number;
  label(bytes: number): string;
}

/**
 * Ticks a person reads at a glance: round numbers in one binary unit (0, 50, 100, 150 KiB — never 49 / 98 / 195
 * KiB, which is what decimal steps look like in KiB, nor "1000 B", which goes up a unit to 1 KiB). The top is the
 * first tick at or above `max`; about `count` steps of 1, 2 or 5 times a power of ten in that unit.
 */
export function byteScale(max: number, count = 4): ByteScale {
  const top = Math.max(0, Number.isFinite(max) ? max : 0);
  let unit = 0;
  while (unit < units.length - 1 && top >= 1024 ** (unit + 1)) unit++;
  for (;;) {
    const size = 1024 ** unit;
    const inUnit = top / size;
    // Bytes come whole: no step under 1 B.
    const step = unit === 0 ? Math.max(1, niceStep(inUnit / count)) : niceStep(inUnit / count);
    const ticks = Math.max(1, Math.ceil(inUnit / step - 1e-9));
    const scaleTop = ticks * step;
    if (scaleTop >= 1000 && unit < units.length - 1) {
      unit++;
      continue;
    }
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    const unitName = units[unit];
    return {
      max: scaleTop * size,
      step: step * size,
      label: (bytes) => `${Number((bytes / size).toFixed(decimals)).toLocaleString('en')} ${unitName}`,
    };
  }
}

/** 1, 2 or 5 times a power of ten, at least `raw` (and at least a millionth, for an empty axis). */
function niceStep(raw: number): number {
  const value = Math.max(raw, 1e-6);
  const power = 10 ** Math.floor(Math.log10(value));
  const scaled = value / power;
  const nice = scaled <= 1 + 1e-9 ? 1 : scaled <= 2 + 1e-9 ? 2 : scaled <= 5 + 1e-9 ? 5 : 10;
  return nice * power;
}
