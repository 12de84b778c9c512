/**
 * Markdown from a project is untrusted: rendered with `marked` (GFM) and sanitised with DOMPurify before it
 * reaches the DOM. Nothing that can run survives: no script, style, SVG/MathML, frames, forms or event handler
 * attributes; links only to http(s), mailto, fragments and relative paths; `data:` only for raster images.
 *
 * DOMPurify needs a DOM, so this runs on the main thread (the app, a playground page), never in the worker.
 */
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { Marked } from 'marked';
import { splitFrontMatter } from '../core/formats/front-matter';
import { splitBom } from '../core/formats/lines';

export interface RenderMarkdownOptions {
  /** Front matter (`---` … `---` at the top): shown as a code block (default) or left out. */
  readonly frontMatter?: 'show' | 'hide';
}

const marked = new Marked({ gfm: true, breaks: false, async: false });

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
  ],
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'ping'],
  ALLOWED_URI_REGEXP: allowedUri,
  ALLOW_DATA_ATTR: false,
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

/** Sanitised HTML for `source`; safe to put into `innerHTML` / Svelte's `{@html}`. */
export function renderMarkdown(source: string, options: RenderMarkdownOptions = {}): string {
  if (typeof source !== 'string') throw new TypeError('renderMarkdown takes the markdown text as a string.');
  const { rest } = splitBom(source);
  const split = splitFrontMatter(rest);
  const head =
    split.frontMatter && (options.frontMatter ?? 'show') === 'show'
      ? `<pre class="front-matter"><code>${escapeHtml(split.frontMatter.raw.trimEnd())}</code></pre>\n`
      : '';
  const html = head + (marked.parse(split.frontMatter ? split.body : rest) as string);
  return getPurifier().sanitize(html, config) as unknown as string;
}
