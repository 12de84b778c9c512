/**
 * Draws a unified diff with diff2html (side by side or line by line) and highlight.js (syntax colours picked by
 * the file's extension). Loaded on demand by the checkpoints view, so the rest of the app does not carry it.
 * diff2html escapes the file contents it puts in its HTML.
 */
import { ColorSchemeType } from 'diff2html/lib-esm/types';
import { Diff2HtmlUI } from 'diff2html/lib-esm/ui/js/diff2html-ui-slim';
import 'diff2html/bundles/css/diff2html.min.css';

export type DiffLayout = 'side-by-side' | 'line-by-line';

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
