/**
 * Narrow screens show tables as stacked rows (styles.css): each cell on its own line, led by its column's name.
 * The name comes from the cell's `data-label`; this fills it in from the table's header row for every table under
 * a root, so no component has to repeat its headers. A label a component set itself is left alone.
 */

/** Marks the labels this module wrote, so a header that changes is followed and a component's own is kept. */
const OWN = 'data-label-auto';

/** The column names of a table's last header row, one entry per column (a `colspan` header fills its columns). */
export function headerLabels(table: HTMLTableElement): string[] {
  const row = table.tHead?.rows[table.tHead.rows.length - 1];
  if (!row) return [];
  const labels: string[] = [];
  for (const cell of Array.from(row.cells)) {
    const text = (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
    for (let i = 0; i < Math.max(1, cell.colSpan); i++) labels.push(text);
  }
  return labels;
}

/** Labels the body cells of one table by column; returns how many labels it wrote or changed. */
export function labelTable(table: HTMLTableElement): number {
  const labels = headerLabels(table);
  if (labels.length === 0) return 0;
  let written = 0;
  for (const body of Array.from(table.tBodies)) {
    for (const row of Array.from(body.rows)) {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        const label = cell.colSpan > 1 ? '' : (labels[column] ?? '');
        column += Math.max(1, cell.colSpan);
        const own = cell.hasAttribute(OWN);
        if (cell.hasAttribute('data-label') && !own) continue;
        if (cell.getAttribute('data-label') === label) continue;
        cell.setAttribute('data-label', label);
        cell.setAttribute(OWN, '');
        written++;
      }
    }
  }
  return written;
}

/** Labels every table under `root` (diff2html's own tables excepted: they are not data tables). */
export function labelTables(root: ParentNode): number {
  let written = 0;
  for (const table of Array.from(root.querySelectorAll<HTMLTableElement>('table:not(.d2h-diff-table)'))) {
    written += labelTable(table);
  }
  return written;
}

/** Keeps the tables under `root` labelled as they appear and change; returns the function that stops. */
export function followTables(root: HTMLElement): () => void {
  let frame = 0;
  const relabel = () => {
    frame = 0;
    labelTables(root);
  };
  const observer = new MutationObserver(() => {
    if (frame === 0) frame = requestAnimationFrame(relabel);
  });
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  labelTables(root);
  return () => {
    observer.disconnect();
    if (frame !== 0) cancelAnimationFrame(frame);
  };
}
