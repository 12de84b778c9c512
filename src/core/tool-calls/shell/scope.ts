/**
 * Where a `cd` leaves the commands after it, as a path relative to where the call started (null: there, or not
 * knowable). An absolute `cd` is taken as re-entering the project (SWE-agent's `cd /testbed`) unless a root is
 * known and the target lies below it; `cd ~`, `cd -` and `cd $X` give null.
 */

/** A `.` or `..` segment anywhere in a path. */
const dotSegment = /(?:^|\/)\.{1,2}(?:\/|$)/;

/**
 * A path that normalising leaves as it is: its segments are all names — no empty one (no leading, trailing or
 * doubled `/`) and no `.` or `..`. Most paths agents name are; they skip the split and join.
 */
export const isPlainRelative = (path: string) =>
  path !== '' &&
  !path.startsWith('/') &&
  !path.endsWith('/') &&
  !path.includes('//') &&
  !dotSegment.test(path);

/** Normalise `a/./b/../c` → `a/c`; leading `..` kept; `''` for the start directory itself. */
export function normalisePath(path: string): string {
  if (isPlainRelative(path)) return path;
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

/** `/x`, or a Windows drive path `c:/x` (a cmd.exe line's backslashes are read as `/`: shell-call.ts). */
const drive = /^[A-Za-z]:\//;
const rooted = (path: string) => path.startsWith('/') || drive.test(path);

export function enterDirectory(
  scope: string | null,
  target: string | null,
  root: string | null,
): string | null {
  if (target === null || target === '' || target === '-' || target.startsWith('~') || target.includes('$')) {
    return null;
  }
  if (rooted(target)) {
    const base = root ? root.replace(/\/+$/, '') : null;
    if (!base || base === '') return null;
    // A drive path names the same folder whatever its letters' case.
    const [t, b] = drive.test(target) ? [target.toLowerCase(), base.toLowerCase()] : [target, base];
    if (t === b || t === b + '/') return null;
    if (!t.startsWith(b + '/')) return null;
    return normalisePath(target.slice(base.length + 1)) || null;
  }
  return normalisePath(scope ? `${scope}/${target}` : target) || null;
}

/**
 * A path as seen from the start directory: `scope/path`, normalised (`./a/` → `a`); absolute and `~` paths
 * stay absolute; a path with an expansion (`$d/x`) is kept as written.
 */
export function inScope(scope: string | null, path: string): string {
  if (path.includes('$') || path === '') return path;
  if (rooted(path) || path.startsWith('~')) return normaliseAbsolute(path);
  if (!scope) return normalisePath(path) || '.';
  if (rooted(scope) || scope.startsWith('~')) return normaliseAbsolute(`${scope}/${path}`);
  return normalisePath(`${scope}/${path}`) || '.';
}

/** The directory a `cd` leads to, for resolving paths: absolute targets kept, relative ones joined. */
export function changeDirectory(cwd: string | null, target: string | null): string | null {
  if (target === null || target === '' || target === '-') return null;
  if (rooted(target) || target.startsWith('~') || target.startsWith('$')) return normaliseAbsolute(target);
  return inScope(cwd, target);
}

function normaliseAbsolute(path: string): string {
  if (path.startsWith('~') && path !== '~' && !path.startsWith('~/')) return path;
  if (path.startsWith('~')) {
    const rest = normalisePath(path.slice(1));
    return rest ? `~/${rest}` : '~';
  }
  if (drive.test(path)) return `${path.slice(0, 2)}/${normalisePath(path.slice(3))}`.replace(/\/$/, '');
  return `/${normalisePath(path)}`;
}
