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
