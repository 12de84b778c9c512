/**
 * Draws a unified diff with diff2html (side by side or line by line) and highlight.js (syntax colours picked by
 * the file's extension). Loaded on demand by the checkpoints view, so the rest of the app does not carry it.
 * diff2html escapes the file contents it puts in its HTML.
 */
import { ColorSchemeType } from 'diff2html/lib-esm/types';
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-slim';
import 'diff2html/bundles/css/diff2html.min.css';

import type { DiffLayout } from './diff-layout';

export function renderDiff(
  target: HTMLElement,
  patch: string,
  options: { layout: DiffLayout; dark: boolean },
): void {
  const ui = new Diff2HtmlUI(target, patch, {
    outputFormat: options.layout,
    drawFileList: false,
    matching: 'lines',
    highlight: true,
    synchronisedScroll: true,
    fileContentToggle: false,
    stickyFileHeaders: false,
    colorScheme: options.dark ? ColorSchemeType.DARK : ColorSchemeType.LIGHT,
  });
  ui.draw();
  ui.highlightCode();
  // The panes scroll sideways on long lines: make each reachable by keyboard, and say which side it is.
  const panes = target.querySelectorAll<HTMLElement>('.d2h-file-side-diff, .d2h-file-diff');
  panes.forEach((pane, i) => {
    pane.tabIndex = 0;
    pane.setAttribute('role', 'region');
    pane.setAttribute('aria-label', panes.length === 2 ? (i === 0 ? 'Before' : 'After') : 'Changes');
  });
}

/**
 * Brings the first change into view inside the diff's own scroll boxes (never the page): the scroller (`target`)
 * down to its row, and each pane sideways to the changed characters (diff2html marks them with <ins>/<del>)
 * when they sit past its visible edge. Side-by-side panes scroll together, so each is set to the same offset.
 */
export function revealFirstChange(target: HTMLElement): void {
  const row = target.querySelector<HTMLElement>('td.d2h-del, td.d2h-ins')?.closest('tr');
  if (!row) return;
  const box = target.getBoundingClientRect();
  const rowBox = row.getBoundingClientRect();
  if (rowBox.top < box.top || rowBox.bottom > box.bottom) {
    target.scrollTop += rowBox.top - box.top - Math.min(box.height / 3, 80);
  }
  const mark = target.querySelector<HTMLElement>(
    '.d2h-code-line del, .d2h-code-line ins, .d2h-code-side-line del, .d2h-code-side-line ins',
  );
  const pane = mark?.closest<HTMLElement>('.d2h-file-side-diff, .d2h-file-diff');
  if (!mark || !pane) return;
  const paneBox = pane.getBoundingClientRect();
  const markBox = mark.getBoundingClientRect();
  // The line numbers cover the pane's left edge: a change is seen once it is right of them.
  const gutter =
    pane.querySelector('.d2h-code-side-linenumber, .d2h-code-linenumber')?.getBoundingClientRect().width ?? 0;
  if (markBox.right <= paneBox.right && markBox.left >= paneBox.left + gutter) return;
  const offset = Math.max(0, pane.scrollLeft + markBox.left - paneBox.left - gutter - paneBox.width / 4);
  target.querySelectorAll<HTMLElement>('.d2h-file-side-diff, .d2h-file-diff').forEach((p) => {
    p.scrollLeft = offset;
  });
}
