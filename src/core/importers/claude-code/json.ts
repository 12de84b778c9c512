/**
 * Safe reads of parsed JSON records (plain objects of unknown shape), shared by the Claude Code parser's modules.
 */
export { asFields, leafText, list, num, str, timeOf, type Fields } from '../json';
import { asFields, str } from '../json';
/** The text of Anthropic content: a string, or blocks (`text` blocks joined; images named, others skipped). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    const f = asFields(block);
    if (f === null) continue;
    const text = str(f, 'text');
    if (text !== null) parts.push(text);
    else if (f['type'] === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}
