/**
 * What a parser found wrong with a file, as data: parsers never throw on bad content (a person's file is shown
 * and kept as it is); they report problems beside the parts they could read.
 */
export type FormatProblemCode =
  /** A JSONL line that is not valid JSON; it is kept verbatim. */
  | 'MalformedLine'
  /** The last JSONL line has no line ending: a write was cut short (it is repaired by the next append). */
  | 'TornLine'
  /** Valid JSON, but not the record shape the file expects (e.g. no `kind`). Kept verbatim. */
  | 'InvalidRecord'
  /** Written by a newer format version: read with this version's rules, unknown parts kept. */
  | 'NewerVersion'
  /** Front matter that opens with `---` but never closes, or a line in it that is not `key: value`. */
  | 'FrontMatter'
  /** A required field is missing or empty (e.g. a skill without `description`). */
  | 'MissingField'
  /** A field is present but not usable (e.g. a skill name with capitals, or one that does not match its folder). */
  | 'InvalidField'
  /** The same plan item id used twice. */
  | 'DuplicateId'
  /** Raised by the folder layer: bytes that are not UTF-8. */
  | 'InvalidUtf8'
  /** Raised by the folder layer: a file too large to read whole. */
  | 'TooLarge'
  /** Raised by the folder layer: a file where a folder was expected, or the reverse. */
  | 'NotADirectory';

export interface FormatProblem {
  readonly code: FormatProblemCode;
  /** `error`: part of the file could not be read; `warning`: it was read, but something deserves a look. */
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** 1-based line in the file, when the problem has one. */
  readonly line?: number;
}

export function problem(
  code: FormatProblemCode,
  severity: FormatProblem['severity'],
  message: string,
  line?: number,
): FormatProblem {
  return line === undefined ? { code, severity, message } : { code, severity, message, line };
}
