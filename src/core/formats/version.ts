/**
 * Format versions of the markdown files: an optional `version: <n>` in the front matter; a file without one is
 * version 1. A newer version is read with this build's rules and a warning, never refused: its unknown parts are
 * kept byte for byte by the serialisers anyway.
 */
import { getField } from './front-matter';
import type { MarkdownDocument } from './markdown';
import { problem, type FormatProblem } from './problems';

export function formatVersion(
  doc: MarkdownDocument,
  supported: number,
  file: string,
  problems: FormatProblem[],
): number {
  const value = getField(doc.frontMatter, 'version');
  if (value === undefined || value === null) return 1;
  const n = typeof value === 'number' ? value : Number.parseInt(String(value), 10);
  if (!Number.isInteger(n) || n < 1) {
    problems.push(
      problem(
        'InvalidField',
        'warning',
        `${file}: version "${String(value)}" is not a whole number; read as version 1.`,
        2,
      ),
    );
    return 1;
  }
  if (n > supported) {
    problems.push(
      problem(
        'NewerVersion',
        'warning',
        `${file} is format version ${n}; this build reads version ${supported}, and keeps what it does not know as it is.`,
        2,
      ),
    );
  }
  return n;
}
