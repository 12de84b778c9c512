/**
 * Paths of tool calls as the engine records them: relative to the project root when they lie under it (`/testbed/
 * django/db/x.py` with root `/testbed` → `django/db/x.py`), cleaned (`./a/../b` → `b`), and marked `outside` when
 * they lie outside it (`/tmp/x.py`, `../other/y`) — a change there never makes a check stale.
 */

import { isPlainRelative } from './shell/scope';

export interface RecordedPath {
  readonly path: string;
  readonly outside: boolean;
}

const isAbsolute = (path: string) =>
  path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('~');

/** `a/./b/../c` → `a/c`; leading `..` kept (the caller marks it outside). Backslashes read as slashes. */
export function cleanPath(path: string): string {
  // Already clean (no backslash, no empty, `.` or `..` segment): itself, absolute or not.
  if (!path.includes('\\') && isPlainRelative(path.startsWith('/') ? path.slice(1) : path)) return path;
  const absolute = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..') parts.pop();
    else if (part !== '..' || !absolute) parts.push(part);
  }
  const joined = parts.join('/');
  return absolute ? `/${joined}` : joined === '' ? '.' : joined;
}

/** The root without a trailing slash, cleaned; null when none or not absolute. */
export function cleanRoot(root: string | null | undefined): string | null {
  if (typeof root !== 'string' || root.trim() === '') return null;
  const clean = cleanPath(root.trim());
  return isAbsolute(clean) ? clean.replace(/\/+$/, '') || '/' : null;
}

/** The path to record for `path` as a call named it. */
export function recordedPath(path: string, root: string | null): RecordedPath {
  const clean = cleanPath(path.trim());
  if (isAbsolute(clean)) {
    if (root !== null) {
      if (clean === root) return { path: '.', outside: false };
      const prefix = root === '/' ? '/' : `${root}/`;
      if (clean.startsWith(prefix)) return { path: clean.slice(prefix.length), outside: false };
      return { path: clean, outside: true };
    }
    // No root known: an absolute path is kept as written and taken to be the project's.
    return { path: clean, outside: false };
  }
  return { path: clean, outside: clean === '..' || clean.startsWith('../') };
}
