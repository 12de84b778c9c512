/**
 * The off-main-thread markdown renderer (src/lib/markdown-renderer.ts) in Chromium, with its real worker and with
 * stand-in workers: the time budget stops a worker that overruns and the next render gets a fresh one; a worker
 * that cannot start, or the renderer closed, still gives the text and a reason; aborts reject only their own call;
 * and what it renders equals the synchronous `renderMarkdown`, which is bounded by the same scan.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { markdownLimits } from '../../src/lib/markdown-bounds';
import { renderMarkdown } from '../../src/lib/markdown';
import { createMarkdownRenderer, onPageLimits, type MarkdownRenderer } from '../../src/lib/markdown-renderer';
import {
  emphasisDelimiters,
  htmlTags,
  impersonation,
  nestedBlockquotes,
  nestedListsByIndent,
  oneLineNestedLists,
} from '../fixtures/hostile-markdown';
import { watchMainThread } from './main-thread-watch';

const renderers: MarkdownRenderer[] = [];
const urls: string[] = [];
afterEach(() => {
  for (const renderer of renderers.splice(0)) renderer.close();
  for (const url of urls.splice(0)) URL.revokeObjectURL(url);
});

function create(options: Parameters<typeof createMarkdownRenderer>[0] = {}) {
  const renderer = createMarkdownRenderer(options);
  renderers.push(renderer);
  return renderer;
}

/** A worker from source text, counting how many were started. */
function standIn(code: string) {
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
  urls.push(url);
  const started = { count: 0 };
  const startWorker = () => {
    started.count++;
    return new Worker(url, { type: 'module' });
  };
  return { startWorker, started };
}

const readyThenHang = `postMessage({ type: 'ready' }); addEventListener('message', () => { for (;;); });`;

describe('the time budget', () => {
  it('stops marked when it overruns (the emphasis scan lifted), keeps the page responsive, and recovers', async () => {
    const renderer = create({ limits: { ...markdownLimits, emphasisRun: Infinity } });
    // Warm the worker up first: the budget counts from when the worker has the job, not its start-up.
    expect(await renderer.render('# warm\n')).toEqual({ kind: 'html', html: '<h1>warm</h1>\n' });
    const source = emphasisDelimiters(200_000);
    const watch = watchMainThread();
    const rendered = await renderer.render(source);
    const report = await watch.stop();
    expect(rendered).toEqual({
      kind: 'text',
      reason: 'Preview off: rendering this file took longer than 500 ms (the limit); showing its text.',
      text: source,
    });
    expect(report.longestTask).toBeLessThan(250);
    expect(await renderer.render('after *that*\n')).toEqual({
      kind: 'html',
      html: '<p>after <em>that</em></p>\n',
    });
  });

  it('a worker that never answers is stopped at the budget, and the next render starts another', async () => {
    const { startWorker, started } = standIn(readyThenHang);
    const renderer = create({ startWorker, limits: { ...markdownLimits, timeMs: 100 } });
    const first = await renderer.render('# one\n');
    expect(first).toMatchObject({ kind: 'text', text: '# one\n' });
    expect(first.kind === 'text' && first.reason).toMatch(/took longer than 100 ms/);
    await renderer.render('# two\n');
    expect(started.count).toBe(2);
  });
});

describe('when the worker cannot run', () => {
  it('a worker that fails to load: the text, and why', async () => {
    const { startWorker } = standIn(`throw new Error('no marked here');`);
    const rendered = await create({ startWorker }).render('# Notes\n');
    expect(rendered).toMatchObject({ kind: 'text', text: '# Notes\n' });
    expect(rendered.kind === 'text' && rendered.reason).toMatch(
      /^Preview off: the markdown renderer could not run \(.+\); showing its text\.$/,
    );
  });

  it('a Worker constructor that throws, and a worker that never says it is ready', async () => {
    const throwing = create({
      startWorker: () => {
        throw new DOMException('Workers are not allowed here', 'SecurityError');
      },
    });
    expect(await throwing.render('x')).toEqual({
      kind: 'text',
      reason:
        'Preview off: the markdown renderer could not run (SecurityError: Workers are not allowed here); showing its text.',
      text: 'x',
    });
    const silent = create({ startWorker: standIn('').startWorker, startTimeoutMs: 200 });
    expect(await silent.render('y')).toMatchObject({ kind: 'text', text: 'y' });
  });

  it('close(): renders in flight and queued resolve as text', async () => {
    // Says it has the job before it hangs on it: the test waits for that, so 'a' is in the worker, 'b' queued.
    const { startWorker } = standIn(
      `postMessage({ type: 'ready' }); addEventListener('message', () => { postMessage({ type: 'received' }); for (;;); });`,
    );
    let received!: () => void;
    const inTheWorker = new Promise<void>((resolve) => (received = resolve));
    const renderer = create({
      // No budget runs out first: 'a' can end only by the close.
      limits: { ...markdownLimits, timeMs: 60_000 },
      startWorker: () => {
        const worker = startWorker();
        worker.addEventListener('message', (event: MessageEvent<{ type: string }>) => {
          if (event.data.type === 'received') received();
        });
        return worker;
      },
    });
    const pending = [renderer.render('a'), renderer.render('b')];
    await inTheWorker;
    renderer.close();
    const closed = expect.stringContaining('(the renderer was closed)');
    expect(await Promise.all(pending)).toEqual([
      expect.objectContaining({ kind: 'text', text: 'a', reason: closed }),
      expect.objectContaining({ kind: 'text', text: 'b', reason: closed }),
    ]);
  });
  it('a start abandoned by close() does not stop the worker started after it', async () => {
    // The real worker's module is loaded once first, so its start below is not a first compile under load.
    const warm = create();
    expect(await warm.render('# warm\n')).toMatchObject({ kind: 'html' });
    warm.close();
    const silent = standIn('').startWorker;
    const starts: string[] = [];
    // Settles when the abandoned start gives up on its silent worker: close() stops it first, then the start's
    // time-out runs out and stops it again.
    let abandonedStopped!: () => void;
    let stops = 0;
    const abandonedGaveUp = new Promise<void>((resolve) => (abandonedStopped = resolve));
    const renderer = create({
      // Long enough for a real worker to start on a loaded machine (200 ms was not, once in a full run).
      startTimeoutMs: 1_000,
      startWorker: () => {
        starts.push(starts.length === 0 ? 'silent' : 'real');
        if (starts.length > 1)
          return new Worker(new URL('../../src/lib/markdown.worker.ts', import.meta.url), { type: 'module' });
        const worker = silent();
        const terminate = worker.terminate.bind(worker);
        worker.terminate = () => {
          terminate();
          if (++stops === 2) abandonedStopped();
        };
        return worker;
      },
    });
    const first = renderer.render('a');
    renderer.close();
    expect(await first).toMatchObject({ kind: 'text', text: 'a' });
    expect(await renderer.render('# b\n')).toEqual({ kind: 'html', html: '<h1>b</h1>\n' });
    // Once the abandoned start has given up (its time-out): the real worker must still be there.
    await abandonedGaveUp;
    expect(await renderer.render('# c\n')).toEqual({ kind: 'html', html: '<h1>c</h1>\n' });
    expect(starts).toEqual(['silent', 'real']);
  });
});

describe('renders in turn, and aborts', () => {
  it('answers each render with its own file, in order; an aborted render rejects with its reason only', async () => {
    const renderer = create();
    const aborted = new AbortController();
    const calls = [
      renderer.render('# a\n'),
      renderer.render('# b\n', {}, aborted.signal),
      renderer.render('# c\n'),
    ];
    aborted.abort(new Error('superseded'));
    const [a, b, c] = await Promise.allSettled(calls);
    expect(a).toEqual({ status: 'fulfilled', value: { kind: 'html', html: '<h1>a</h1>\n' } });
    expect(b).toMatchObject({ status: 'rejected', reason: new Error('superseded') });
    expect(c).toEqual({ status: 'fulfilled', value: { kind: 'html', html: '<h1>c</h1>\n' } });
    await expect(renderer.render('z', {}, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('gives what the synchronous renderMarkdown gives, front matter included', async () => {
    const renderer = create();
    const source =
      '---\nname: x\n---\n# Plan\n\n- [x] done\n\n| a |\n|---|\n| 1 |\n\n```ts\nlet a = 1;\n```\n';
    for (const frontMatter of ['show', 'hide'] as const) {
      const rendered = await renderer.render(source, { frontMatter });
      expect(rendered.kind === 'html' && rendered.html).toBe(renderMarkdown(source, { frontMatter }));
    }
  });
});

describe('renderNow: small plain files on the page, the rest left to the worker', () => {
  it('renders a small file as render() would, and leaves larger or heavier ones (null)', async () => {
    const renderer = create();
    const small = '# Notes\n\n- [ ] a\n- b *c*\n';
    expect(renderer.renderNow(small)).toEqual(await renderer.render(small));
    expect(renderer.renderNow('x'.repeat(onPageLimits.chars + 1))).toBeNull();
    expect(renderer.renderNow(nestedListsByIndent(onPageLimits.depth + 1))).toBeNull();
    expect(renderer.renderNow('_a'.repeat(onPageLimits.emphasisRun + 1))).toBeNull();
    expect(renderer.renderNow(htmlTags(onPageLimits.tags + 2))).toBeNull();
    // What the page leaves, the worker renders under the full budgets.
    expect(await renderer.render('_a'.repeat(onPageLimits.emphasisRun + 1))).toMatchObject({ kind: 'html' });
    expect(await renderer.render(nestedBlockquotes(5_000))).toMatchObject({
      kind: 'text',
      reason: 'Preview off: this file nests 5,000 levels deep (limit 100); showing its text.',
    });
  });
});

describe('renderMarkdown (synchronous) is bounded by the same scan', () => {
  it.each([
    ['nested lists ×1,500', nestedListsByIndent(1_500), 'nests 1,500 levels deep'],
    ['200,000 emphasis delimiters', emphasisDelimiters(200_000), 'has 200,000 emphasis marks'],
    ['100,000 tags', htmlTags(100_000), 'makes 100,000 HTML tags'],
    ['one-line lists ×20,000', oneLineNestedLists(20_000), 'nests 20,000 levels deep'],
    ['blockquotes ×20,000', nestedBlockquotes(20_000), 'nests 20,000 levels deep'],
  ])('%s: the sentence and the escaped text, no exception', (_, source, says) => {
    const el = document.createElement('div');
    el.innerHTML = renderMarkdown(source);
    expect(el.querySelector('p.markdown-off')?.textContent).toContain(says);
    expect(el.querySelector('pre.markdown-source')?.textContent).toBe(source);
    expect(el.querySelectorAll('b, ul, blockquote').length).toBe(0);
  });

  it('drops class, id, style, name, role, aria-* and popovers, and keeps front matter’s own class', () => {
    const el = document.createElement('div');
    el.innerHTML = renderMarkdown(
      '---\na: 1\n---\n' +
        impersonation('drop-hint svelte-1x2y3z') +
        '\n<p name="x" role="alert" aria-live="assertive" tabindex="1" popover>speaks</p>\n' +
        '\n<dialog open>over the app</dialog>\n\n```ts\ncode\n```\n',
    );
    expect(el.querySelector('pre.front-matter')).not.toBeNull();
    for (const node of el.querySelectorAll('*:not(pre.front-matter)')) {
      expect(node.getAttributeNames(), node.outerHTML).toEqual([]);
    }
    expect(el.textContent).toContain('FAKE: your data was deleted.');
    expect(el.querySelector('dialog')).toBeNull();
  });
});
