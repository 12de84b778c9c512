export const mib = (bytes) => (bytes / 1024 / 1024).toFixed(2);
export const ratio = (x) => x.toFixed(2);

/** A markdown table (readable as plain text too). */
export function table(header, rows) {
  const widths = header.map((cell, i) =>
    Math.max(String(cell).length, ...rows.map((row) => String(row[i]).length)),
  );
  const line = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
