/**
 * YAML values as plain data, read and written with the `yaml` package (YAML 1.2, core schema): the value codec
 * behind front matter. Reading keeps every problem YAML reports; writing picks plain text only where YAML reads it
 * back unchanged.
 */
import { LineCounter, parseDocument, type YAMLError } from 'yaml';

export type FrontMatterValue =
  string | number | boolean | null | FrontMatterValue[] | { [key: string]: FrontMatterValue };

/**
 * `stringKeys`: a key is text (`1:` is the key "1"; a list as a key is an error). `resolveKnownTags: false`: the
 * YAML 1.1 tags (`!!binary`, `!!set`, `!!timestamp`, …) are not turned into bytes, sets or dates — they stay text
 * or maps, with a warning — so every value is plain data.
 */
const yamlOptions = { stringKeys: true, resolveKnownTags: false, prettyErrors: false } as const;

/**
 * A parsed document and what YAML said about it. `@internal`, like `readYaml`: its types name the `yaml` package, a
 * devDependency bundled into the worker, so they are kept out of the published declarations (`stripInternal` in
 * src/lib/tsconfig.build.json) — a consumer's `tsc` would look for `yaml` and not find it.
 * @internal
 */
export interface YamlRead {
  readonly doc: ReturnType<typeof parseDocument>;
  readonly errors: readonly YAMLError[];
  readonly warnings: readonly YAMLError[];
  /** 1-based line of an offset within the parsed text. */
  readonly lineAt: (offset: number) => number;
}

/** @internal */
export function readYaml(source: string): YamlRead {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { ...yamlOptions, lineCounter });
  return {
    doc,
    errors: doc.errors,
    warnings: doc.warnings,
    lineAt: (offset) => lineCounter.linePos(offset).line,
  };
}

/** A node as plain data, or `undefined` when it is not (an alias expanding too far throws in `toJS`). */
export function toPlain(toJS: () => unknown): FrontMatterValue | undefined {
  try {
    const value = toJS();
    return isFrontMatterValue(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isFrontMatterValue(value: unknown): value is FrontMatterValue {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(isFrontMatterValue);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(isFrontMatterValue);
}

/** Whether `source` alone is exactly `value` to YAML: no error, no warning. */
function readsAs(source: string, value: string): boolean {
  const read = readYaml(source);
  return read.errors.length === 0 && read.warnings.length === 0 && toPlain(() => read.doc.toJS()) === value;
}

/** Characters that other YAML readers (1.1: NEL, LS, PS as line breaks) or editors may not show as they are. */
const unprintable = /[\p{Cc}\p{Cs}\u2028\u2029\ufeff\ufffe\uffff]/u;

/** Text plain when YAML reads it back unchanged (and, in a flow list or map, without `,[]{}`); else quoted. */
export function formatText(text: string, flow: boolean): string {
  const plain = !unprintable.test(text) && !(flow && /[,[\]{}]/.test(text)) && readsAs(text, text);
  if (plain) return text;
  // JSON's escapes are a subset of YAML's double-quoted ones; setField checks that the value reads back.
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A value on one line (lists and maps in flow style) that YAML reads back as the same value. */
export function formatValue(value: FrontMatterValue, flow: boolean): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan';
    if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (typeof value === 'string') return formatText(value, flow);
  if (Array.isArray(value)) return `[${value.map((v) => formatValue(v, true)).join(', ')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${formatText(k, true)}: ${formatValue(v, true)}`);
  return `{${entries.join(', ')}}`;
}

/** Deep equality of plain data; numbers by `Object.is`, so NaN equals NaN and -0 is not 0. */
export function sameValue(a: FrontMatterValue, b: FrontMatterValue): boolean {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Object.is(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => sameValue(v, b[i] as FrontMatterValue))
    );
  }
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k] as FrontMatterValue, b[k] as FrontMatterValue))
  );
}
