/**
 * git and patch as file effects: `git checkout -- f` / `git restore f` restore a file; `git stash`, `git reset
 * --hard`, a branch switch, a pull or merge may change every tracked file (`bulk`, scope `tracked`); `git clean
 * -f` removes untracked ones; `git apply` / `patch` with the diff in a here-document give one effect per file.
 */
import type { FileEffect } from '../effect-types';
import type { ShellUnit } from '../shell/units';
import { splitUnifiedDiff } from './unified-diff';

type At = (path: string) => string;

const looksLikePath = (word: string) =>
  word === '.' || word.includes('/') || /\.[A-Za-z0-9]{1,8}$/.test(word);

const bulk = (path: string, how: string, scope: 'tracked' | 'untracked' = 'tracked'): FileEffect => ({
  kind: 'bulk',
  path,
  via: how,
  change: scope === 'untracked' ? 'deleted' : 'modified',
  scope,
  how,
});

const restore = (path: string, source: string | null, via: string): FileEffect =>
  path === '.' || path.endsWith('/.')
    ? bulk(path, via)
    : { kind: 'restore', path, via, change: 'modified', source };

export function gitEffects(unit: ShellUnit, args: readonly string[], atStart: At): FileEffect[] {
  let k = 0;
  let dir: string | null = null;
  while (k < args.length && (args[k] as string).startsWith('-')) {
    const a = args[k] as string;
    if (a === '-C') dir = args[k + 1] ?? null;
    k += a === '-C' || a === '-c' ? 2 : 1;
  }
  const at: At = dir ? (p) => atStart(`${dir}/${p}`) : atStart;
  const sub = args[k];
  const rest = args.slice(k + 1);
  const flags = new Set(rest.filter((a) => a.startsWith('-')));
  const dash = rest.indexOf('--');
  const before = (dash >= 0 ? rest.slice(0, dash) : rest).filter((a) => !a.startsWith('-'));
  const after = dash >= 0 ? rest.slice(dash + 1) : [];
  switch (sub) {
    case 'checkout': {
      if (flags.has('-b') || flags.has('-B') || flags.has('--orphan')) return [];
      if (dash >= 0) return after.map((p) => restore(at(p), before[0] ?? null, 'git checkout'));
      if (before.length === 1 && looksLikePath(before[0] as string))
        return [restore(at(before[0] as string), null, 'git checkout')];
      if (before.length > 1)
        return before.slice(1).map((p) => restore(at(p), before[0] as string, 'git checkout'));
      return before.length === 1 ? [bulk(at('.'), `git checkout ${before[0]}`)] : [];
    }
    case 'restore': {
      const staged = flags.has('--staged') || flags.has('-S');
      const worktree = flags.has('--worktree') || flags.has('-W');
      if (staged && !worktree) return [];
      const s = rest.findIndex((a) => a === '-s' || a === '--source');
      const source =
        s >= 0 ? (rest[s + 1] ?? null) : (rest.find((a) => a.startsWith('--source='))?.slice(9) ?? null);
      const paths = [...before.filter((p) => p !== source), ...after];
      return paths.map((p) => restore(at(p), source, 'git restore'));
    }
    case 'switch':
      return flags.has('-c') || flags.has('-C') ? [] : [bulk(at('.'), 'git switch')];
    case 'stash': {
      const action = rest.find((a) => !a.startsWith('-')) ?? 'push';
      if (action === 'push' || action === 'save') return [bulk(at('.'), 'git stash')];
      if (action === 'pop' || action === 'apply') return [bulk(at('.'), `git stash ${action}`)];
      return [];
    }
    case 'reset':
      return flags.has('--hard') || flags.has('--keep') || flags.has('--merge')
        ? [bulk(at('.'), 'git reset --hard')]
        : [];
    case 'clean': {
      const force = [...flags].some((f) => f === '--force' || /^-[a-zA-Z]*f/.test(f));
      const dry = flags.has('-n') || flags.has('--dry-run');
      return force && !dry ? [bulk(at('.'), 'git clean', 'untracked')] : [];
    }
    case 'pull':
    case 'merge':
    case 'rebase':
    case 'cherry-pick':
    case 'revert':
    case 'am':
      return [bulk(at('.'), `git ${sub}`)];
    case 'apply':
      return patchEffects(unit, 'git apply', rest, at);
    case 'mv':
      return before.length === 2
        ? [
            {
              kind: 'move',
              path: at(before[1] as string),
              from: at(before[0] as string),
              via: 'git mv',
              change: 'created',
            },
          ]
        : [];
    case 'rm':
      if (flags.has('--cached')) return [];
      return [...before, ...after].map((p): FileEffect => ({
        kind: 'delete',
        path: at(p),
        via: 'git rm',
        change: 'deleted',
        recursive: flags.has('-r'),
      }));
    default:
      return [];
  }
}

/** `git apply [-R] [file]`, `patch -p1 [-R] [-i file] [< file]`: per-file effects when the diff is shown. */
export function patchEffects(unit: ShellUnit, via: string, args: readonly string[], at: At): FileEffect[] {
  if (args.some((a) => ['--check', '--stat', '--numstat', '--summary', '--dry-run', '-n'].includes(a)))
    return [];
  const reverse = args.includes('-R') || args.includes('--reverse');
  const p = args.find((a) => /^-p\d$/.test(a));
  const strip = p ? Number(p.slice(2)) : null;
  const here = unit.command.redirects.find((r) => r.heredoc && (r.fd === null || r.fd === 0));
  const text = here?.heredoc?.body ?? null;
  if (text === null || reverse) {
    const file =
      args.find((a) => !a.startsWith('-')) ?? unit.command.redirects.find((r) => r.op === '<')?.target?.value;
    return [bulk(at('.'), `${via}${reverse ? ' -R' : ''}${file ? ` ${file}` : ''}`, 'tracked')].map((e) => ({
      ...e,
      scope: 'matched' as const,
    }));
  }
  return splitUnifiedDiff(text, strip).flatMap((file): FileEffect[] => {
    if (file.newPath === null)
      return file.oldPath
        ? [{ kind: 'delete', path: at(file.oldPath), via, change: 'deleted', recursive: false }]
        : [];
    const path = at(file.newPath);
    if (file.oldPath === null)
      return [{ kind: 'write', path, via, change: 'created', body: file.addedBody, after: file.addedBody }];
    const moved = file.oldPath !== file.newPath;
    const hasHunks = file.diff.includes('\n@@');
    return [
      {
        kind: 'edit',
        path,
        via,
        change: moved ? 'created' : 'modified',
        edits: hasHunks ? [{ type: 'unified-diff', diff: file.diff }] : [],
        replayable: true,
        ...(moved ? { from: at(file.oldPath) } : {}),
      },
    ];
  });
}
