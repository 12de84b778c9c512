/**
 * Lines with their line endings kept, so that joining them gives back the exact input. Every parser in this
 * folder works on these, which is what makes the serialisers byte-stable.
 */

export interface Line {
  /** The line without its ending. */
  readonly text: string;
  /** `'\n'`, `'\r\n'`, `'\r'` (old Mac) or `''` for a last line without an ending. */
  readonly eol: string;
  /** 1-based. */
  readonly number: number;
  /** Offset of the line's first character in the whole text (UTF-16 code units). */
  readonly offset: number;
}

/** Splits `text` into lines; `''` gives no lines, and `'a\n'` gives one. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  let number = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      const eol = c === 13 && text.charCodeAt(i + 1) === 10 ? '\r\n' : c === 13 ? '\r' : '\n';
      lines.push({ text: text.slice(start, i), eol, number: number++, offset: start });
      i += eol.length - 1;
      start = i + 1;
    }
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: '', number, offset: start });
  return lines;
}

export function joinLines(lines: readonly Pick<Line, 'text' | 'eol'>[]): string {
  let out = '';
  for (const line of lines) out += line.text + line.eol;
  return out;
}

/** The ending most lines use (`'\n'` when there is none), for lines an edit adds. */
export function dominantEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      if (text.charCodeAt(i - 1) === 13) crlf++;
      else lf++;
    }
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** A byte-order mark at the start, kept apart so parsers see clean text and serialisers put it back. */
export function splitBom(text: string): { bom: string; rest: string } {
  return text.charCodeAt(0) === 0xfeff ? { bom: '\uFEFF', rest: text.slice(1) } : { bom: '', rest: text };
}
