/**
 * Markdown from a project is untrusted: rendered with `marked` (GFM) and sanitised with DOMPurify before it
 * reaches the DOM. Nothing that can run survives: no script, style, SVG/MathML, frames, forms or event handler
 * attributes; links only to http(s), mailto, fragments and relative paths; `data:` only for raster images.
 * Nothing can pass for the app either: `class`, `id`, `style`, `name`, `role` and `aria-*` go, so neither the
 * app's own CSS nor its accessible names can be borrowed (the preview box contains the rest: MarkdownPreview).
 *
 * Rendering is bounded (markdown-bounds.ts): past a nesting, emphasis or tag budget, or when marked fails, the
 * result is the text itself with one sentence saying why. `renderMarkdown` runs marked on the calling thread, so
 * only those budgets bound it; `createMarkdownRenderer` (markdown-renderer.ts) runs marked in a worker under a
 * time budget too, and is what the app's preview uses.
 *
 * DOMPurify needs a DOM, so sanitising runs on the main thread (the app, a playground page), never in a worker.
 */
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { splitBom } from '../core/formats/lines';
import { describeMarkdownOff, markdownLimits } from './markdown-bounds';
import { parseMarkdown, type ParsedMarkdown } from './markdown-parse';

export interface RenderMarkdownOptions {
  /** Front matter (`---` … `---` at the top): shown as a code block (default) or left out. */
  readonly frontMatter?: 'show' | 'hide';
}

/** What a preview shows: sanitised HTML, or a file's text with the sentence that says why it is not rendered. */
export type RenderedMarkdown =
  | { readonly kind: 'html'; readonly html: string }
  | { readonly kind: 'text'; readonly reason: string; readonly text: string };

/** Schemes a link or image may use; anything with another scheme (javascript:, vbscript:, file:, …) is dropped. */
const allowedUri = /^(?:(?:https?|mailto):|#|\/|\.{1,2}\/|(?![a-z][a-z0-9+.-]*:)[^\s]*$)/i;
const rasterDataUri = /^data:image\/(?:png|gif|jpe?g|webp|avif);base64,[a-z0-9+/=\s]+$/i;

const config: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'form',
    'button',
    'textarea',
    'select',
    'option',
    'iframe',
    'frame',
    'object',
    'embed',
    'base',
    'meta',
    'link',
    // The app styles <dialog> (and an open one sits over the page): not for a file to borrow.
    'dialog',
  ],
  FORBID_ATTR: [
    'style',
    'srcset',
    'action',
    'formaction',
    'ping',
    // Impersonation: the app's class names, ids (and the globals an id or name makes), roles, tab stops, popovers.
    'class',
    'id',
    'name',
    'role',
    'tabindex',
    'accesskey',
    'autofocus',
    'popover',
    'popovertarget',
    'popovertargetaction',
  ],
  ALLOWED_URI_REGEXP: allowedUri,
  ALLOW_DATA_ATTR: false,
  // aria-live, aria-label, aria-hidden… would let a file speak for the app to a screen reader.
  ALLOW_ARIA_ATTR: false,
  RETURN_TRUSTED_TYPE: false,
};

let purifier: Purifier | undefined;

/** One DOMPurify instance of our own, so its hooks never affect another user of the library on the page. */
function getPurifier(): Purifier {
  if (purifier) return purifier;
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    throw new Error('renderMarkdown needs a DOM (run it on the main thread, not in a worker).');
  }
  const instance = DOMPurify(window);
  instance.addHook('uponSanitizeAttribute', (node, data) => {
    const name = data.attrName;
    if ((name === 'src' || name === 'href' || name === 'xlink:href') && /^\s*data:/i.test(data.attrValue)) {
      // data: is fine only as a raster image (no script can run in one); never as a link or frame.
      data.keepAttr = node.nodeName === 'IMG' && name === 'src' && rasterDataUri.test(data.attrValue.trim());
    }
  });
  instance.addHook('uponSanitizeElement', (node, data) => {
    // GFM task lists render disabled checkboxes; any other input goes.
    if (data.tagName === 'input' && (node as Element).getAttribute?.('type') !== 'checkbox')
      node.parentNode?.removeChild(node);
  });
  instance.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'INPUT') node.setAttribute('disabled', '');
    if (node.nodeName === 'A' && /^(?:https?:|mailto:)/i.test(node.getAttribute('href') ?? '')) {
      node.setAttribute('rel', 'noopener noreferrer nofollow');
      node.setAttribute('target', '_blank');
    }
  });
  purifier = instance;
  return instance;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/**
 * marked's output for `source` (parseMarkdown, here or in the worker) → what to show. The front matter block is built after
 * sanitising, from escaped text, so its own class survives while any class in the file goes.
 */
export function finishMarkdown(parsed: ParsedMarkdown, source: string): RenderedMarkdown {
  if (parsed.kind === 'off') {
    return { kind: 'text', reason: describeMarkdownOff(parsed.off), text: splitBom(source).rest };
  }
  const head =
    parsed.frontMatter === null
      ? ''
      : `<pre class="front-matter"><code>${escapeHtml(parsed.frontMatter)}</code></pre>\n`;
  return { kind: 'html', html: head + getPurifier().sanitize(parsed.html, config) };
}

/** A rendering as one HTML string: a file shown as text is the sentence and the text, escaped. */
export function renderedToHtml(rendered: RenderedMarkdown): string {
  if (rendered.kind === 'html') return rendered.html;
  return (
    `<p class="markdown-off">${escapeHtml(rendered.reason)}</p>\n` +
    `<pre class="markdown-source"><code>${escapeHtml(rendered.text)}</code></pre>\n`
  );
}

/**
 * Sanitised HTML for `source`; safe to put into `innerHTML` / Svelte's `{@html}`. Bounded in nesting, emphasis
 * and tags (past them: the text, escaped, with a sentence why), not in time: marked runs on the calling thread.
 */
export function renderMarkdown(source: string, options: RenderMarkdownOptions = {}): string {
  if (typeof source !== 'string') throw new TypeError('renderMarkdown takes the markdown text as a string.');
  const parsed = parseMarkdown(source, options.frontMatter ?? 'show', markdownLimits);
  return renderedToHtml(finishMarkdown(parsed, source));
}
