/// <reference lib="webworker" />
import { parseMarkdown, type MarkdownJob, type MarkdownWorkerMessage } from './markdown-parse';

// The thin entry: marked runs here, so a file that makes it slow stalls this worker (which the page can stop),
// never the page. Sanitising needs a DOM and happens on the page (markdown-renderer.ts).
const post = (message: MarkdownWorkerMessage) => postMessage(message);
addEventListener('message', (event: MessageEvent<MarkdownJob>) => {
  const { id, source, frontMatter, limits } = event.data;
  post({ type: 'done', id, parsed: parseMarkdown(source, frontMatter, limits) });
});
post({ type: 'ready' });
