export type DiffLayout = 'side-by-side' | 'line-by-line';

/** The layout a diff opens in: unified on a narrow screen (700 px and below, where two sides get ~20 columns). */
export function defaultLayout(viewportWidth: number): DiffLayout {
  return viewportWidth <= 700 ? 'line-by-line' : 'side-by-side';
}
