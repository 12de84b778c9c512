/**
 * JSON Lines: one JSON value per line. The reader is tolerant: a line that is not JSON is reported with its
 * 1-based number and kept verbatim, and every other line still loads. A last line without a line ending is
 * "torn" (a write was cut short); `appendPrefix` makes the next append start on a fresh line, so the new records
 * are never glued onto the fragment and no earlier byte is ever rewritten.
 */
import { checkJson } from '../json-bounds';
import type { Json } from '../model';
import { splitBom, splitLines } from './lines';
import { problem, type FormatProblem } from './problems';

export interface JsonlLine {
  /** 1-based line number in the file (or from `firstLine` when parsing a tail). */
  readonly line: number;
  /** The line's text without its ending. */
  readonly raw: string;
  readonly eol: string;
  /** The parsed value; absent for a blank or malformed line. */
  readonly value?: Json;
  /** Why the line is not JSON. */
  readonly error?: string;
}

export interface JsonlDocument {
  readonly bom: string;
  readonly lines: readonly JsonlLine[];
  /** The last line has text but no ending. */
  readonly torn: boolean;
  /** The ending appended lines get: the file's first ending, LF for an empty file. */
  readonly eol: '\n' | '\r\n';
  readonly problems: readonly FormatProblem[];
}

export interface ParseJsonlOptions {
  /** The file line `text` starts on (for a tail read). Default 1. */
  readonly firstLine?: number;
}

export function parseJsonl(text: string, options: ParseJsonlOptions = {}): JsonlDocument {
  const { bom, rest } = splitBom(text);
  const offset = (options.firstLine ?? 1) - 1;
  const lines: JsonlLine[] = [];
  const problems: FormatProblem[] = [];
  const split = splitLines(rest);
  const last = split[split.length - 1];
  const torn = last !== undefined && last.eol === '' && last.text.trim() !== '';
  for (const l of split) {
    const line = l.number + offset;
    if (l.text.trim() === '') {
      lines.push({ line, raw: l.text, eol: l.eol });
      continue;
    }
    try {
      lines.push({ line, raw: l.text, eol: l.eol, value: JSON.parse(l.text) as Json });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      lines.push({ line, raw: l.text, eol: l.eol, error: reason });
      if (!(torn && l === last)) {
        problems.push(
          problem(
            'MalformedLine',
            'error',
            `Line ${line} is not valid JSON (${reason}); it is kept as it is.`,
            line,
          ),
        );
      }
    }
  }
  if (torn && last) {
    const line = last.number + offset;
    const valid = lines[lines.length - 1]?.value !== undefined;
    problems.push(
      problem(
        'TornLine',
        valid ? 'warning' : 'error',
        valid
          ? `Line ${line} has no line ending (a write may have stopped just before it); the next append adds one.`
          : `Line ${line} was cut short mid-write and is not valid JSON; it is kept, and the next append starts a new line after it.`,
        line,
      ),
    );
  }
  const firstEnding = split.find((l) => l.eol !== '')?.eol;
  return { bom, lines, torn, eol: firstEnding === '\r\n' ? '\r\n' : '\n', problems };
}

export function serialiseJsonl(doc: JsonlDocument): string {
  let out = doc.bom;
  for (const line of doc.lines) out += line.raw + line.eol;
  return out;
}

/** The lines that hold JSON, in order. */
export function jsonlValues(doc: JsonlDocument): { line: number; value: Json }[] {
  const out: { line: number; value: Json }[] = [];
  for (const l of doc.lines) if (l.value !== undefined) out.push({ line: l.line, value: l.value });
  return out;
}

/**
 * One record as one line of JSON; refuses what JSON cannot hold faithfully (undefined, NaN, functions, cycles) and
 * records nested deeper than `maxJsonDepth`, with the same checker the lib runs on the page.
 */
export function recordToLine(record: unknown): string {
  checkJson(record, 'record');
  return JSON.stringify(record);
}

/**
 * What to write before appended lines, given the file's last characters: a line ending when the file ends
 * mid-line (a torn tail), else nothing. `tail` may be any suffix of the file that includes its last line ending
 * if it has one (one character is enough).
 */
export function appendPrefix(tail: string, eol: '\n' | '\r\n'): string {
  return tail === '' || tail === '\uFEFF' || /[\r\n]$/.test(tail) ? '' : eol;
}

/** The text to append for `records` (each line ended), repairing a torn tail first. */
export function appendText(tail: string, records: readonly unknown[], eol: '\n' | '\r\n'): string {
  return appendPrefix(tail, eol) + records.map((r) => recordToLine(r) + eol).join('');
}
