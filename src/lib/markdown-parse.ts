/**
 * Markdown text → marked's HTML (not yet sanitised), inside the budgets of markdown-bounds.ts; the part of
 * rendering that needs no DOM, so it runs in the markdown worker (and, for the synchronous `renderMarkdown`, on the
 * calling thread). Never throws: a file past a budget, or one marked fails on, comes back as `off` (the page
 * shows its own copy of the text then: 2 MiB need not cross back).
 */
import { Marked } from 'marked';
import { splitBom } from '../core/formats/lines';
import { countTags, scanMarkdown, type MarkdownLimits, type MarkdownOff } from './markdown-bounds';

export type ParsedMarkdown =
  /** `html` is marked's output and must still be sanitised; `frontMatter` is the raw block to show, if any. */
  | { readonly kind: 'html'; readonly html: string; readonly frontMatter: string | null }
  /** Not rendered, and why. */
  | { readonly kind: 'off'; readonly off: MarkdownOff };

export type FrontMatterMode = 'show' | 'hide';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** The first line of an error's message: marked appends "Please report this to …" on a second. */
export function errorSummary(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.split('\n', 1)[0] ?? message;
}

const lineBreak = /\r\n|\r|\n/g;

/**
 * The front matter block as `splitFrontMatter` (core/formats/front-matter.ts) cuts it — a first line `---` with a
 * line end, up to the next line `---` or `...` — without parsing its YAML, which the preview only shows as text.
 * (That keeps the YAML parser out of the worker and a file's YAML off the page's main thread.)
 */
export function cutFrontMatter(text: string): { readonly raw: string; readonly body: string } | null {
  lineBreak.lastIndex = 0;
  let start = 0;
  for (let line = 0; ; line++) {
    const found = lineBreak.exec(text);
    const end = found ? found.index : text.length;
    const content = text.slice(start, end).trimEnd();
    if (line === 0 && (content !== '---' || !found)) return null;
    if (line > 0 && (content === '---' || content === '...')) {
      const raw = text.slice(0, found ? lineBreak.lastIndex : text.length);
      return { raw, body: text.slice(raw.length) };
    }
    if (!found) return null;
    start = lineBreak.lastIndex;
  }
}

export function parseMarkdown(
  source: string,
  frontMatter: FrontMatterMode,
  limits: MarkdownLimits,
): ParsedMarkdown {
  const { rest } = splitBom(source);
  try {
    const split = cutFrontMatter(rest);
    const body = split ? split.body : rest;
    const off = scanMarkdown(body, limits);
    if (off) return { kind: 'off', off };
    const html = marked.parse(body) as string;
    const tags = countTags(html);
    if (tags > limits.tags) return { kind: 'off', off: { kind: 'tags', count: tags, limit: limits.tags } };
    const shown = frontMatter === 'show' && split ? split.raw.trimEnd() : null;
    return { kind: 'html', html, frontMatter: shown };
  } catch (error) {
    // A RangeError from a nesting the scan did not see, or any other failure inside marked.
    return { kind: 'off', off: { kind: 'failed', message: errorSummary(error) } };
  }
}

/** Page → markdown worker. */
export interface MarkdownJob {
  readonly id: number;
  readonly source: string;
  readonly frontMatter: FrontMatterMode;
  readonly limits: MarkdownLimits;
}

/** Markdown worker → page: `ready` once loaded, then one `done` per job. */
export type MarkdownWorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly id: number; readonly parsed: ParsedMarkdown };
