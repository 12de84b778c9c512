/**
 * Files looked at — never changes: read tools (`Read`, `read_file`, `view`, `Grep`, `Glob`, `LS`,
 * `list_directory`, `search_files`, `read_many_files`) and the shell's reads (`cat`, `head`, `tail`, `sed -n`,
 * `nl`, `less`, `wc`, `grep`/`rg`, `find`, `ls`, `tree`, `git diff`/`show`/`log -- f`, `diff a b`, `< f`).
 */
import type { FileRead } from './effect-types';
import type { Handler } from './tool-names';
import { asFields, list, num, str, strings, type Fields } from './json-input';
import { parseSedArgs } from './effects/sed';
import { inScope } from './shell/scope';
import type { ShellUnit } from './shell/units';

const read = (
  path: string,
  kind: FileRead['kind'],
  via: string,
  pattern: string | null = null,
  lines: FileRead['lines'] = null,
): FileRead => ({
  path,
  kind,
  pattern,
  lines,
  via,
});

/** A read tool's call. */
export function readToolReads(handler: Handler, tool: string, input: unknown): FileRead[] {
  const f = asFields(input);
  const path = str(
    f,
    'file_path',
    'absolute_path',
    'absolutePath',
    'path',
    'dir_path',
    'target_file',
    'directory',
  );
  switch (handler) {
    case 'read':
      return path === null ? [] : [read(path, 'file', tool, null, lineRange(f))];
    case 'read-many':
      return (strings(list(f, 'paths', 'file_paths')) ?? []).map((p) => read(p, 'file', tool));
    case 'search':
      return [read(path ?? '.', 'search', tool, str(f, 'pattern', 'regex', 'query'))];
    case 'glob':
      return [read(path ?? '.', 'search', tool, str(f, 'pattern', 'glob_pattern', 'query'))];
    case 'list':
      return [read(path ?? '.', 'list', tool)];
    default:
      return [];
  }
}

/** Claude Code's `offset` is the first line (1-based) and `limit` a count; Gemini's `offset` is 0-based. */
function lineRange(f: Fields | null): FileRead['lines'] {
  const offset = num(f, 'offset', 'start_line');
  const limit = num(f, 'limit');
  if (offset === null && limit === null) return null;
  const zeroBased = str(f, 'absolute_path') !== null;
  const start = Math.max(1, (offset ?? (zeroBased ? 0 : 1)) + (zeroBased ? 1 : 0));
  return { start, end: limit !== null ? start + limit - 1 : null };
}

const fileReaders = new Set([
  'cat',
  'less',
  'more',
  'nl',
  'bat',
  'batcat',
  'wc',
  'stat',
  'file',
  'xxd',
  'hexdump',
  'od',
  'strings',
]);
const searchers = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'git-grep']);
const listers = new Set(['ls', 'tree', 'exa', 'eza', 'du']);
const valued = new Set([
  '-n',
  '-c',
  '-e',
  '-f',
  '-m',
  '-A',
  '-B',
  '-C',
  '-g',
  '-t',
  '--type',
  '--glob',
  '--include',
  '--exclude',
  '-d',
  '-L',
  '--max-count',
  '--context',
]);

/** The files a shell command reads (not counting here-documents). */
export function shellReads(unit: ShellUnit): FileRead[] {
  const at = (p: string) => inScope(unit.cwd, p);
  const reads: FileRead[] = [];
  for (const r of unit.command.redirects) {
    if (r.op === '<' && r.target && !r.target.expands) reads.push(read(at(r.target.value), 'file', '<'));
  }
  const [name, ...args] = unit.argv;
  if (name === undefined) return reads;
  const operands = (from: readonly string[]) => {
    const out: string[] = [];
    for (let k = 0; k < from.length; k++) {
      const a = from[k] as string;
      if (valued.has(a)) k++;
      else if (!a.startsWith('-') || a === '-') out.push(a);
    }
    return out;
  };
  if (fileReaders.has(name)) {
    for (const p of operands(args)) if (p !== '-') reads.push(read(at(p), 'file', name));
  } else if (name === 'head' || name === 'tail') {
    const count =
      /^-(?:n)?(\d{1,9})$/.exec(args.find((a) => /^-(?:n)?\d/.test(a)) ?? '')?.[1] ??
      args[args.indexOf('-n') + 1];
    const n = count !== undefined && /^\d+$/.test(count) ? Number(count) : 10;
    for (const p of operands(args))
      reads.push(read(at(p), 'file', name, null, name === 'head' ? { start: 1, end: n } : null));
  } else if (name === 'sed') {
    const sed = parseSedArgs(args);
    if (sed.inPlace) return reads;
    const range = /^(\d{1,9})(?:,(\d{1,9}|\$))?p$/.exec(sed.scripts[0] ?? '');
    const lines = range
      ? {
          start: Number(range[1]),
          end: range[2] === undefined ? Number(range[1]) : range[2] === '$' ? null : Number(range[2]),
        }
      : null;
    for (const p of sed.files) reads.push(read(at(p), 'file', 'sed', null, lines));
  } else if (name === 'awk' || name === 'gawk' || name === 'jq') {
    for (const p of operands(args).slice(1)) reads.push(read(at(p), 'file', name));
  } else if (searchers.has(name) || (name === 'git' && args[0] === 'grep')) {
    const rest = name === 'git' ? args.slice(1) : args;
    const e = rest.findIndex((a) => a === '-e' || a === '--regexp');
    const ops = operands(rest);
    const pattern = e >= 0 ? (rest[e + 1] ?? null) : (ops.shift() ?? null);
    const paths = ops.length > 0 ? ops : unit.pipedFrom ? [] : ['.'];
    for (const p of paths) reads.push(read(at(p), 'search', name === 'git' ? 'git grep' : name, pattern));
  } else if (name === 'find' || name === 'fd') {
    const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
    const roots =
      name === 'find'
        ? args.slice(0, firstExpression < 0 ? args.length : firstExpression)
        : operands(args).slice(1);
    const n = args.findIndex((a) => a === '-name' || a === '-iname' || a === '-path');
    const pattern = name === 'fd' ? (operands(args)[0] ?? null) : n >= 0 ? (args[n + 1] ?? null) : null;
    for (const p of roots.length > 0 ? roots : ['.']) reads.push(read(at(p), 'search', name, pattern));
  } else if (listers.has(name)) {
    const ops = operands(args);
    for (const p of ops.length > 0 ? ops : ['.']) reads.push(read(at(p), 'list', name));
  } else if (
    name === 'git' &&
    (args[0] === 'diff' || args[0] === 'show' || args[0] === 'log' || args[0] === 'blame')
  ) {
    const dash = args.indexOf('--');
    const paths = dash >= 0 ? args.slice(dash + 1) : args[0] === 'blame' ? operands(args.slice(1)) : [];
    for (const p of paths) reads.push(read(at(p), 'file', `git ${args[0]}`));
  } else if (name === 'diff' || name === 'cmp') {
    for (const p of operands(args)) reads.push(read(at(p), 'file', name));
  }
  return reads;
}
