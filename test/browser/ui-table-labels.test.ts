import { afterEach, describe, expect, it } from 'vitest';
import { followTables, labelTables } from '../../src/ui/table-labels';

const host = document.createElement('div');
document.body.append(host);
afterEach(() => host.replaceChildren());

const cellLabels = (table: Element) =>
  [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.children].map((c) => c.getAttribute('data-label')),
  );

describe('stacked-row labels from the header row', () => {
  it('labels each body cell by its column, colspans included, and keeps a label a component set', () => {
    host.innerHTML = `<table><thead><tr><th>Line</th><th colspan="2">When and kind</th><th>What</th></tr></thead>
      <tbody><tr><td>1</td><td>noon</td><td>note</td><td data-label="Said">hi</td></tr>
      <tr><td>2</td><td colspan="2">malformed</td><td>x</td></tr></tbody></table>`;
    expect(labelTables(host)).toBe(6);
    expect(cellLabels(host.querySelector('table')!)).toEqual([
      ['Line', 'When and kind', 'When and kind', 'Said'],
      ['Line', '', 'What'],
    ]);
    // Nothing left to write the second time.
    expect(labelTables(host)).toBe(0);
  });

  it("leaves diff2html's tables and header-less tables alone", () => {
    host.innerHTML = `<table class="d2h-diff-table"><thead><tr><th>A</th></tr></thead><tbody><tr><td>x</td></tr></tbody></table>
      <table><tbody><tr><td>y</td></tr></tbody></table>`;
    expect(labelTables(host)).toBe(0);
    expect(host.querySelectorAll('[data-label]')).toHaveLength(0);
  });

  it('follows rows added later and a header that changes', async () => {
    host.innerHTML = `<table><thead><tr><th>Task</th></tr></thead><tbody></tbody></table>`;
    const stop = followTables(host);
    try {
      const body = host.querySelector('tbody')!;
      body.insertAdjacentHTML('beforeend', '<tr><td>one</td></tr>');
      await expect.poll(() => body.querySelector('td')?.getAttribute('data-label')).toBe('Task');
      host.querySelector('th')!.textContent = 'Job';
      await expect.poll(() => body.querySelector('td')?.getAttribute('data-label')).toBe('Job');
    } finally {
      stop();
    }
  });
});
