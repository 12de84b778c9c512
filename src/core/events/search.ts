/**
 * Turning what a person or agent types into a safe FTS5 query. FTS5 has its own syntax (quotes, AND/OR/NOT,
 * column filters, `*`); raw input would either fail to parse or mean something else. Each word becomes a quoted
 * term; a trailing `*` keeps its prefix meaning.
 */
export interface FtsQuery {
  /** Every term must match. */
  readonly all: string;
  /** Any term may match (the fallback when nothing matches them all). */
  readonly any: string;
  readonly terms: readonly string[];
}

const MAX_TERMS = 16;

export function toFtsQuery(input: string): FtsQuery | null {
  const terms: string[] = [];
  for (const raw of input.normalize('NFKC').split(/[\s]+/u)) {
    const prefix = raw.endsWith('*');
    // Keep letters, digits and the joiners inside identifiers; the tokenizer splits on the rest anyway.
    const word = raw.replace(/[^\p{L}\p{N}_./-]+/gu, ' ').trim();
    for (const part of word.split(/\s+/u)) {
      // A part with no letter or digit (`-`, `...`) has no token: as a phrase it would match nothing at all.
      if (part.length > 100 || !/[\p{L}\p{N}]/u.test(part)) continue;
      const quoted = `"${part.replace(/"/g, '""')}"${prefix ? '*' : ''}`;
      if (!terms.includes(quoted)) terms.push(quoted);
    }
    if (terms.length >= MAX_TERMS) break;
  }
  if (terms.length === 0) return null;
  const limited = terms.slice(0, MAX_TERMS);
  return { all: limited.join(' AND '), any: limited.join(' OR '), terms: limited };
}
