/**
 * Text helpers of the resume prompt: one-line quotes, texts bounded with where the rest is, bounded lists, and
 * lines wrapped at words so that no line of the plain form is longer than a model's paste box shows whole.
 */

export const quote = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `text` on one line, cut at a word to `max` characters, saying how much was left out and where it is. */
export function boundedQuote(text: string, max: number, where: string): string {
  const line = quote(text);
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const atWord = cut.lastIndexOf(' ') > max * 0.6 ? cut.slice(0, cut.lastIndexOf(' ')) : cut;
  return `${atWord} … (${line.length - atWord.length} more characters ${where})`;
}

/**
 * A long text (an agent's task: a pasted issue, a PR description) kept as its own paragraphs, template tags
 * (`<pr_description>`) dropped, bounded to `max` characters in all with where the rest is.
 */
export function boundedParagraphs(text: string, max: number, where: string): string[] {
  const paragraphs = text
    .replace(/<\/?[a-z_][\w-]*>/gi, '')
    .split(/\n\s*\n/)
    .map(quote)
    .filter((p) => p !== '');
  const out: string[] = [];
  let used = 0;
  for (const [i, p] of paragraphs.entries()) {
    if (used + p.length > max) {
      const room = Math.max(0, max - used);
      const rest = paragraphs.slice(i + 1).reduce((n, q) => n + q.length, p.length - room);
      if (room > 80) out.push(`${boundedQuote(p, room, '').replace(/ … \(.*\)$/, '')} …`);
      out.push(`(${rest} more characters ${where}.)`);
      break;
    }
    out.push(p);
    used += p.length;
  }
  return out;
}

/** Up to `max` items as list lines, then one saying how many more and where they are. */
export function boundedList<T>(
  items: readonly T[],
  max: number,
  line: (item: T) => string,
  more: string,
): string[] {
  const shown = items.slice(0, max).map((item) => `- ${line(item)}`);
  if (items.length > max) shown.push(`- … and ${items.length - max} more (${more})`);
  return shown;
}

/** Every line of `text` at most `width` characters: broken at spaces, a list item's continuation indented. */
export function wrapLines(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (line.length <= width) return [line];
      const indent = /^(\s*)(- |\d+\. )?/.exec(line)?.[0].replace(/\S/g, ' ') ?? '';
      const out: string[] = [];
      let rest = line;
      while (rest.length > width) {
        let at = rest.lastIndexOf(' ', width);
        if (at <= indent.length) at = width;
        out.push(rest.slice(0, at).trimEnd());
        rest = indent + rest.slice(at).trimStart();
      }
      out.push(rest);
      return out;
    })
    .join('\n');
}
