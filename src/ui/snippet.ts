/** Splits a search snippet whose hits the engine marked as `[hit]` into plain and highlighted parts (no HTML). */
export function snippetParts(snippet: string): { readonly text: string; readonly hit: boolean }[] {
  const parts: { text: string; hit: boolean }[] = [];
  const pattern = /\[([^\]]*)\]/g;
  let at = 0;
  for (let match = pattern.exec(snippet); match; match = pattern.exec(snippet)) {
    if (match.index > at) parts.push({ text: snippet.slice(at, match.index), hit: false });
    if (match[1]) parts.push({ text: match[1], hit: true });
    at = match.index + match[0].length;
  }
  if (at < snippet.length) parts.push({ text: snippet.slice(at), hit: false });
  return parts;
}
