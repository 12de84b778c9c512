/**
 * Cline's and Roo's SEARCH/REPLACE blocks (`replace_in_file`, `apply_diff`):
 *
 *     ------- SEARCH            (or <<<<<<< SEARCH)
 *     old lines
 *     =======
 *     new lines
 *     +++++++ REPLACE           (or >>>>>>> REPLACE)
 *
 * Roo may put `:start_line:N` and a `-------` line right after the SEARCH marker; both are skipped. Each line
 * keeps its newline, as Cline builds the search text. A block left open (a cut stream) is dropped with a note.
 */

export interface SearchReplaceBlock {
  readonly search: string;
  readonly replace: string;
}

const searchMarker = /^(?:-{3,}|<{3,}) ?SEARCH>?\s*$/;
const dividerMarker = /^={3,}\s*$/;
const replaceMarker = /^(?:\+{3,}|>{3,}) ?REPLACE<?\s*$/;

export function parseSearchReplace(diff: string): { blocks: SearchReplaceBlock[]; problems: string[] } {
  const blocks: SearchReplaceBlock[] = [];
  const problems: string[] = [];
  let state: 'outside' | 'search' | 'replace' = 'outside';
  let search = '';
  let replace = '';
  let header = 0;
  for (const raw of diff.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (state === 'outside') {
      if (searchMarker.test(line)) {
        state = 'search';
        search = '';
        header = 0;
      }
      continue;
    }
    if (state === 'search') {
      if (header < 2 && search === '' && (/^:start_line:\s*\d+\s*$/.test(line) || /^-{3,}\s*$/.test(line))) {
        header++;
        continue;
      }
      if (dividerMarker.test(line)) {
        state = 'replace';
        replace = '';
      } else search += line + '\n';
      continue;
    }
    if (replaceMarker.test(line)) {
      blocks.push({ search, replace });
      state = 'outside';
    } else replace += line + '\n';
  }
  if (state !== 'outside') problems.push('A SEARCH/REPLACE block is not closed.');
  return { blocks, problems };
}
