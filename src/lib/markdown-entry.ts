/**
 * The package's `agent-brain/markdown` subpath: rendering untrusted markdown (marked + DOMPurify), kept out of the
 * main entry so a page that only stores and reads its agent's memory never downloads them.
 */
export { renderMarkdown, type RenderedMarkdown, type RenderMarkdownOptions } from './markdown';
export {
  createMarkdownRenderer,
  type MarkdownRenderer,
  type MarkdownRendererOptions,
} from './markdown-renderer';
export type { MarkdownLimits, MarkdownOff } from './markdown-bounds';
