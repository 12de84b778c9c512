/**
 * The pointer line "Write the handoff into the project" adds to AGENTS.md or CLAUDE.md (when the person ticks the
 * box): appended once, after the file's own bytes kept exactly as they are (encoding, BOM, a missing final line
 * ending); the line ends as the file's lines do (CRLF if the file uses it).
 */

/** The file's bytes with `line` appended, or null when the file already holds that line. */
export function withPointerLine(bytes: Uint8Array, line: string): Uint8Array | null {
  const text = new TextDecoder().decode(bytes);
  if (text.split(/\r?\n/).some((l) => l.trim() === line)) return null;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // A blank line between the file's text and the pointer, as a separate paragraph.
  const lead = text === '' ? '' : text.endsWith('\n') ? eol : eol + eol;
  const tail = new TextEncoder().encode(`${lead}${line}${eol}`);
  const next = new Uint8Array(bytes.length + tail.length);
  next.set(bytes);
  next.set(tail, bytes.length);
  return next;
}

const LF = 0x0a;
const CR = 0x0d;

function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * The file's bytes without the pointer line (one click undoes the box): each line that is exactly `line` goes with
 * its line ending, and the blank line `withPointerLine` set before it too; every other byte is kept as it is.
 * Null when the file has no such line. (A file that had no final line ending keeps the one added with the line.)
 */
export function withoutPointerLine(bytes: Uint8Array, line: string): Uint8Array | null {
  const needle = new TextEncoder().encode(line);
  let out = bytes;
  let found = false;
  for (let at = indexOfBytes(out, needle, 0); at >= 0; at = indexOfBytes(out, needle, at)) {
    let end = at + needle.length;
    const atLineStart = at === 0 || out[at - 1] === LF;
    const atLineEnd = end === out.length || out[end] === LF || (out[end] === CR && out[end + 1] === LF);
    if (!atLineStart || !atLineEnd) {
      at = end;
      continue;
    }
    found = true;
    if (out[end] === CR) end++;
    if (out[end] === LF) end++;
    let start = at;
    // The blank line before it: the previous line is empty (its ending directly before a line ending).
    const eolBefore = (i: number) => (out[i - 1] === LF ? (out[i - 2] === CR ? 2 : 1) : 0);
    const first = eolBefore(start);
    if (first > 0 && eolBefore(start - first) > 0) start -= first;
    const next = new Uint8Array(out.length - (end - start));
    next.set(out.subarray(0, start));
    next.set(out.subarray(end), start);
    out = next;
    at = start;
  }
  return found ? out : null;
}
