/**
 * `git status` output read as evidence (effects/shown.ts): the short and porcelain v1 forms (`XY path`, `XY old ->
 * new`) and the long form's sections (`Changes to be committed:`, `Changes not staged for commit:`, `Unmerged
 * paths:`, `Untracked files:`). Untracked directories are left out: which files they hold is not shown.
 */
import type { FileChangeKind } from '../../events/model';
import type { FileEffect } from '../effect-types';

/** One `shown` effect (effect-types.ts): evidence that `path` changed, with its diff when the output holds it. */
export const shown = (
  path: string,
  how: string,
  change: FileChangeKind,
  diff: string | null,
  after?: string | null,
): FileEffect => ({
  kind: 'shown',
  path,
  via: how,
  how,
  change,
  diff,
  ...(after !== undefined ? { after } : {}),
});

/** C-quoted paths (`"a b.py"`) as git prints them; a path git did not quote as it is. */
function unquote(path: string): string {
  if (!(path.length >= 2 && path.startsWith('"') && path.endsWith('"'))) return path;
  return path
    .slice(1, -1)
    .replace(/\\(["\\tn])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c));
}

const porcelainLine = /^([ MTADRCU?!])([ MTADRCU?!]) (.+)$/;

/** `XY path` / `XY old -> new` (short and porcelain v1): what happened to each path. */
export function porcelainEffects(
  how: string,
  lines: readonly string[],
  at: (p: string) => string,
): FileEffect[] {
  const out: FileEffect[] = [];
  for (const line of lines) {
    const m = porcelainLine.exec(line);
    if (!m) continue;
    const [, x, y, rest] = m as unknown as [string, string, string, string];
    if (x === '!' || (x === '?') !== (y === '?')) continue;
    const arrow = rest.indexOf(' -> ');
    const path = unquote(arrow >= 0 ? rest.slice(arrow + 4) : rest);
    if (path.endsWith('/')) continue; // An untracked directory: which files it holds is not shown.
    if (arrow >= 0) out.push(shown(at(unquote(rest.slice(0, arrow))), how, 'deleted', null, null));
    if (x === 'A' && y === 'D') continue; // Added to the index, then deleted: never there.
    const change: FileChangeKind =
      x === 'D' || y === 'D'
        ? 'deleted'
        : x === '?' || x === 'A' || x === 'R' || x === 'C'
          ? 'created'
          : 'modified';
    out.push(shown(at(path), how, change, null, change === 'deleted' ? null : undefined));
  }
  return out;
}

const statusLabels: Record<string, FileChangeKind> = {
  modified: 'modified',
  typechange: 'modified',
  'both modified': 'modified',
  'new file': 'created',
  'both added': 'created',
  'added by us': 'created',
  'added by them': 'created',
  deleted: 'deleted',
  'deleted by us': 'deleted',
  'deleted by them': 'deleted',
  'both deleted': 'deleted',
  renamed: 'created',
  copied: 'created',
};

/** `git status` as people read it: the lines of its sections (`Changes not staged…`, `Untracked files:`). */
export function statusEffects(
  how: string,
  lines: readonly string[],
  at: (p: string) => string,
): FileEffect[] {
  const out: FileEffect[] = [];
  let section: 'tracked' | 'untracked' | null = null;
  for (const raw of lines) {
    const line = raw.startsWith('#') ? raw.slice(1) : raw;
    if (/^(Changes to be committed|Changes not staged for commit|Unmerged paths):$/.test(line))
      section = 'tracked';
    else if (line === 'Untracked files:') section = 'untracked';
    else if (!line.startsWith('\t')) {
      if (line.trim() === '' || line.trimStart().startsWith('(')) continue;
      section = null;
    } else if (section === 'untracked') {
      const path = unquote(line.slice(1));
      if (!path.endsWith('/')) out.push(shown(at(path), how, 'created', null));
    } else if (section === 'tracked') {
      const m = /^\t([a-z ]+):\s+(.+)$/.exec(line);
      const change = m ? statusLabels[m[1] as string] : undefined;
      if (!m || change === undefined) continue;
      const rest = m[2] as string;
      const arrow = rest.indexOf(' -> ');
      if (arrow >= 0) out.push(shown(at(unquote(rest.slice(0, arrow))), how, 'deleted', null, null));
      const path = unquote(arrow >= 0 ? rest.slice(arrow + 4) : rest);
      out.push(shown(at(path), how, change, null, change === 'deleted' ? null : undefined));
    }
  }
  return out;
}
