/**
 * Claude Code's Edit / MultiEdit applied to a body (exact text, the first occurrence or all with `replace_all`),
 * for a change whose before-body came from a file-history backup rather than the transcript: the after-body is
 * then known too. Null when an edit does not find its text (the body is not the one the edit saw).
 */
type Fields = Record<string, unknown>;

const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

export function replayClaudeEdit(tool: string, input: unknown, body: string): string | null {
  const name = tool.toLowerCase();
  if (!isFields(input) || (name !== 'edit' && name !== 'multiedit')) return null;
  const edits =
    name === 'edit' ? [input] : Array.isArray(input['edits']) ? input['edits'].filter(isFields) : [];
  let text = body;
  for (const e of edits) {
    const oldText = e['old_string'];
    const newText = e['new_string'];
    if (typeof oldText !== 'string' || typeof newText !== 'string') return null;
    if (oldText === '') {
      if (text !== '') return null;
      text = newText;
      continue;
    }
    const at = text.indexOf(oldText);
    if (at < 0) return null;
    text =
      e['replace_all'] === true
        ? text.split(oldText).join(newText)
        : text.slice(0, at) + newText + text.slice(at + oldText.length);
  }
  return edits.length === 0 ? null : text;
}
