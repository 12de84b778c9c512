/**
 * Hostile markdown rendered with the real marked + DOMPurify in Chromium: inserted into the live document, left
 * until its loads, errors and toggles have fired (and its links, clicked, have run), and then nothing may have run
 * and no handler or script URL may remain.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/lib/markdown';

declare global {
  interface Window {
    __pwned?: string[];
  }
}

const mounted: HTMLElement[] = [];
afterEach(() => {
  for (const el of mounted.splice(0)) el.remove();
  delete window.__pwned;
});

const hit = (id: string) => `(window.__pwned=(window.__pwned||[]).concat('${id}'))`;
const svgPayload = btoa(
  `<svg xmlns="http://www.w3.org/2000/svg" onload="${hit('svg-data')}"><script>${hit('svg-data-script')}</script></svg>`,
);

const hostile: [string, string][] = [
  ['script tag', `<script>${hit('script')}</script>`],
  ['img onerror', `<img src="x" onerror="${hit('onerror')}">`],
  ['markdown image onerror via title', `![a](x "t" onerror="${hit('md-img')}")`],
  ['javascript: link', `[click](javascript:${hit('js-link')})`],
  ['JaVaScRiPt: link with entities', `<a href="jav&#x09;ascript:${hit('js-entity')}">x</a>`],
  ['reference javascript: link', `[ref][r]\n\n[r]: javascript:${hit('js-ref')}`],
  ['autolink javascript:', `<javascript:${hit('js-autolink')}>`],
  ['vbscript link', `<a href="vbscript:msgbox(1)">vb</a>`],
  ['svg onload', `<svg onload="${hit('svg-onload')}"><circle r="5"/></svg>`],
  ['svg script', `<svg><script>${hit('svg-script')}</script></svg>`],
  ['svg xlink', `<svg><a xlink:href="javascript:${hit('svg-xlink')}"><text>x</text></a></svg>`],
  ['data: svg image', `![svg](data:image/svg+xml;base64,${svgPayload})`],
  ['data: html link', `<a href="data:text/html,<script>${hit('data-link')}</script>">d</a>`],
  ['data: iframe', `<iframe src="data:text/html,<script>${hit('iframe')}</script>"></iframe>`],
  ['object', `<object data="javascript:${hit('object')}"></object>`],
  ['mathml mXSS', `<math><mtext><table><mglyph><style><img src=x onerror="${hit('mxss')}">`],
  ['details ontoggle', `<details open ontoggle="${hit('ontoggle')}"><summary>s</summary></details>`],
  ['form action', `<form action="javascript:${hit('form')}"><button>go</button></form>`],
  ['meta refresh', `<meta http-equiv="refresh" content="0;url=javascript:${hit('meta')}">`],
  ['base href', `<base href="javascript:${hit('base')}/">`],
  [
    'style and style attr',
    `<style>*{background:url("javascript:${hit('style')}")}</style><div style="background:url(javascript:x)">s</div>`,
  ],
  ['input onfocus autofocus', `<input autofocus onfocus="${hit('autofocus')}">`],
  ['body onload', `<body onload="${hit('body')}">`],
  ['html in a table cell', `| a |\n|---|\n| <img src=x onerror="${hit('table')}"> |`],
];

/** Resolves once `target` has dispatched one of `types` — after the listeners registered before this one ran. */
const dispatched = (target: EventTarget, types: readonly string[]) =>
  new Promise<void>((resolve) => {
    for (const type of types) target.addEventListener(type, () => resolve(), { once: true });
  });

/**
 * Inserts `html` into the live document and resolves once everything in it that fires on its own has fired: each
 * image with a source has loaded or failed, each open <details> has toggled; then a frame is rendered (where
 * autofocus applies). The parser registered any inline handler before our listener, so the handler runs first in
 * the same dispatch: when this resolves, a handler that survived sanitising has run.
 */
async function mount(html: string): Promise<HTMLElement> {
  const el = document.createElement('div');
  el.innerHTML = html;
  // Listened to before the element is in the document; nothing can fire before this task ends anyway.
  const fired = [
    ...[...el.querySelectorAll('img')]
      .filter((img) => img.hasAttribute('src') || img.hasAttribute('srcset'))
      .map((img) => dispatched(img, ['load', 'error'])),
    ...[...el.querySelectorAll('details[open]')].map((details) => dispatched(details, ['toggle'])),
  ];
  document.body.append(el);
  mounted.push(el);
  await Promise.all(fired);
  await new Promise((resolve) => requestAnimationFrame(resolve));
  return el;
}

/**
 * Clicks every link in `el`, then a javascript: link of our own, and resolves once that one has run: the script of
 * a javascript: URL runs in a task the click queues, in click order, so by then every link clicked before it has
 * had its turn.
 */
async function clickEveryLink(el: HTMLElement): Promise<void> {
  for (const link of el.querySelectorAll('a')) link.click();
  const last = document.createElement('a');
  last.href = "javascript:void dispatchEvent(new Event('last-link-ran'))";
  const ran = dispatched(window, ['last-link-ran']);
  last.click();
  await ran;
}

function assertInert(el: HTMLElement, name: string) {
  for (const node of el.querySelectorAll('*')) {
    for (const attr of node.attributes) {
      expect(attr.name, `${name}: ${node.nodeName} keeps ${attr.name}`).not.toMatch(/^on/i);
      if (['href', 'src', 'xlink:href', 'action', 'formaction', 'data'].includes(attr.name)) {
        expect(attr.value, `${name}: ${node.nodeName} ${attr.name}`).not.toMatch(
          /^\s*(javascript|vbscript|data:(?!image\/(png|gif|jpe?g|webp|avif);))/i,
        );
      }
    }
  }
  expect(
    el.querySelectorAll('script, style, svg, math, iframe, object, embed, form, meta, base, link').length,
    name,
  ).toBe(0);
}

describe('renderMarkdown on hostile input', () => {
  it.each(hostile)('%s renders inert', async (name, source) => {
    const el = await mount(renderMarkdown(`# Title\n\n${source}\n`));
    assertInert(el, name);
    expect(window.__pwned, name).toBeUndefined();
    expect(el.querySelector('h1')?.textContent).toBe('Title');
  });

  it('all of them together, clicked, still run nothing', async () => {
    const el = await mount(renderMarkdown(hostile.map(([, s]) => s).join('\n\n')));
    await clickEveryLink(el);
    assertInert(el, 'all');
    expect(window.__pwned).toBeUndefined();
  });

  it('control: unsanitised, the same detectors see an image error, a toggle and a link run', async () => {
    const el = await mount(
      `<img src="x" onerror="${hit('img')}"><details open ontoggle="${hit('toggle')}"><summary>s</summary></details>` +
        `<a href="javascript:${hit('link')}">l</a>`,
    );
    expect([...(window.__pwned ?? [])].sort()).toEqual(['img', 'toggle']);
    await clickEveryLink(el);
    expect([...(window.__pwned ?? [])].sort()).toEqual(['img', 'link', 'toggle']);
  });
});

describe('renderMarkdown keeps what a person wrote', () => {
  it('renders GFM: headings, lists, task boxes (disabled), tables, code, safe links and images', () => {
    const html = renderMarkdown(
      [
        '---',
        'name: run-tests',
        'description: <b>not html</b>',
        '---',
        '# Plan',
        '- [x] done {#a}',
        '- [ ] todo',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
        '',
        '```ts',
        'const x = "<script>";',
        '```',
        '',
        '[docs](https://example.org/docs) [local](./README.md) [top](#plan) <mailto:me@example.org>',
        '',
        '![dot](data:image/png;base64,iVBORw0KGgo=)',
      ].join('\n'),
    );
    const el = document.createElement('div');
    el.innerHTML = html;
    expect(el.querySelector('pre.front-matter')?.textContent).toContain('description: <b>not html</b>');
    expect(el.querySelector('h1')?.textContent).toBe('Plan');
    const boxes = [...el.querySelectorAll('input')];
    expect(boxes.map((b) => [b.type, b.checked, b.disabled])).toEqual([
      ['checkbox', true, true],
      ['checkbox', false, true],
    ]);
    expect(el.querySelectorAll('table td').length).toBe(2);
    expect(el.querySelector('pre:not(.front-matter) code')?.textContent).toContain('const x = "<script>";');
    const links = [...el.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.getAttribute('rel')]);
    expect(links).toEqual([
      ['https://example.org/docs', 'noopener noreferrer nofollow'],
      ['./README.md', null],
      ['#plan', null],
      ['mailto:me@example.org', 'noopener noreferrer nofollow'],
    ]);
    expect(el.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(renderMarkdown('---\na: 1\n---\nbody', { frontMatter: 'hide' })).toBe('<p>body</p>\n');
  });
});
