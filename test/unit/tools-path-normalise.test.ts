/**
 * normalisePath (shell scopes) and cleanPath (recorded paths) take an already-clean path as it is. Pinned against
 * the segment-by-segment readings they keep for every other path, over every path of up to four segments built
 * from awkward parts (empty, `.`, `..`, dotted names, backslashes), relative and absolute.
 */
import { describe, expect, it } from 'vitest';
import { cleanPath } from '../../src/core/tool-calls/paths';
import { normalisePath } from '../../src/core/tool-calls/shell/scope';

/** The segment-by-segment normalisation, as the reference. */
function normaliseBySegments(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

function cleanBySegments(path: string): string {
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

function awkwardPaths(): string[] {
  const parts = ['', '.', '..', 'a', 'b.py', '.git', '..x', 'x..', '...', 'c\\d', '~'];
  let paths = [''];
  const all = new Set<string>();
  for (let depth = 0; depth < 4; depth++) {
    paths = paths.flatMap((p) => parts.map((part) => (depth === 0 ? part : `${p}/${part}`)));
    for (const p of paths) {
      all.add(p);
      all.add(`/${p}`);
    }
  }
  return [...all, 'C:\\x\\y', 'django/db/models/query.py', '/testbed/src/page1.ts', 'é/😀.txt'];
}

describe('path normalising: a clean path is its own result', () => {
  const paths = awkwardPaths();

  it('normalisePath gives what the segment-by-segment reading gives', () => {
    expect(paths.length).toBeGreaterThan(25_000);
    for (const path of paths) expect(normalisePath(path), path).toBe(normaliseBySegments(path));
  });

  it('cleanPath gives what the segment-by-segment reading gives', () => {
    for (const path of paths) expect(cleanPath(path), path).toBe(cleanBySegments(path));
  });

  it('gives these', () => {
    expect(normalisePath('./a/../b//c/')).toBe('b/c');
    expect(normalisePath('../../x')).toBe('../../x');
    expect(cleanPath('/testbed/./src/../lib/x.ts')).toBe('/testbed/lib/x.ts');
    expect(cleanPath('src\\win\\x.ts')).toBe('src/win/x.ts');
    expect(cleanPath('django/db/models/query.py')).toBe('django/db/models/query.py');
  });
});
