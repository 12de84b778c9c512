/**
 * File effects of one shell command: redirections and `tee` (shell-writes.ts), `sed -i` (with its script, and
 * replayable when literal), `perl -i`, `rm`, `mv`, `cp`, `touch`, `mkdir`, formatters that rewrite files, git
 * (shell-git.ts), and the tools agents call through the shell (`apply_patch`, SWE-agent's `str_replace_editor`).
 * Paths are resolved against the directory a `cd` left the command in.
 */
import type { FileEffect } from '../effect-types';
import { inScope } from '../shell/scope';
import type { ShellUnit } from '../shell/units';
import { readPatchText, type EditReading } from './edit-tools';
import { literalSubstitutions, parseSedArgs } from './sed';
import { gitEffects, patchEffects } from './shell-git';
import { unnamedToBulk } from './not-done';
import { redirectWrites, teeWrites } from './shell-writes';
import { sweAgentEditor } from './swe-agent';

const positional = (args: readonly string[]) => args.filter((a) => !a.startsWith('-') || a === '-');
/** A cmd.exe switch (`/s`, `/q`, `/f`, `/a:h`): one letter after the slash, never a path of a POSIX shell. */
const cmdSwitch = /^\/[a-zA-Z](?::\S*)?$/;

/**
 * Effects (and notes) of `unit`, appended to `out`; a path named by a word the shell expands (`$f`, `*.pyc`) is
 * no file here, and its effect a `bulk` one (not-done.ts).
 */
export function shellEffects(unit: ShellUnit, out: EditReading): void {
  const start = out.effects.length;
  unitEffects(unit, out);
  const named = unnamedToBulk(unit, out.effects.slice(start), (p) => inScope(unit.cwd, p));
  out.effects.splice(start, named.length, ...named);
}

function unitEffects(unit: ShellUnit, out: EditReading): void {
  out.effects.push(...redirectWrites(unit));
  const [name, ...args] = unit.argv;
  const at = (p: string) => inScope(unit.cwd, p);
  switch (name) {
    case undefined:
      return;
    case 'tee':
      out.effects.push(...teeWrites(unit));
      return;
    case 'sed':
    case 'gsed': {
      const sed = parseSedArgs(args);
      if (!sed.inPlace) return;
      const script = sed.scripts.join('\n');
      const substitutions = sed.scriptFile ? null : literalSubstitutions(script, sed.extended);
      for (const file of sed.files) {
        out.effects.push({
          kind: 'edit',
          path: at(file),
          via: 'sed -i',
          change: 'modified',
          edits: [{ type: 'sed', script: sed.scriptFile ? '(from a file)' : script, substitutions }],
          replayable: substitutions !== null && !sed.quiet,
        });
      }
      return;
    }
    case 'perl':
    case 'ruby': {
      const { inPlace, files } = perlArgs(args);
      if (!inPlace) return;
      for (const file of files)
        out.effects.push({
          kind: 'modify',
          path: at(file),
          via: `${name} -i`,
          change: 'modified',
          how: `${name} -i`,
        });
      return;
    }
    case 'rm':
    case 'unlink': {
      const recursive = args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === '--recursive');
      for (const file of positional(args))
        out.effects.push({ kind: 'delete', path: at(file), via: name, change: 'deleted', recursive });
      return;
    }
    case 'rmdir':
    case 'rd': {
      // cmd.exe's `rmdir /s /q dir`: `/s` (the whole tree) and `/q` are switches, not directories.
      const switches = args.filter((a) => cmdSwitch.test(a));
      const recursive = switches.some((a) => a.toLowerCase() === '/s');
      for (const dir of positional(args).filter((a) => !cmdSwitch.test(a)))
        out.effects.push({ kind: 'delete', path: at(dir), via: name, change: null, recursive });
      return;
    }
    case 'del':
    case 'erase':
      // cmd.exe's `del /f /q file…` (there is no `del` in a POSIX shell).
      for (const file of positional(args).filter((a) => !cmdSwitch.test(a)))
        out.effects.push({ kind: 'delete', path: at(file), via: name, change: 'deleted', recursive: false });
      return;
    case 'mv':
    case 'cp':
      out.effects.push(...moveOrCopy(name, args, at));
      return;
    case 'touch':
      for (const file of positional(args))
        out.effects.push({ kind: 'touch', path: at(file), via: name, change: null });
      return;
    case 'mkdir':
      for (const dir of positional(args))
        out.effects.push({ kind: 'mkdir', path: at(dir), via: name, change: null });
      return;
    case 'git':
      out.effects.push(...gitEffects(unit, args, at));
      return;
    case 'patch':
      out.effects.push(...patchEffects(unit, 'patch', args, at));
      return;
    case 'apply_patch':
    case 'applypatch': {
      const here = unit.command.redirects.find((r) => r.heredoc);
      const text = args[0] ?? here?.heredoc?.body ?? null;
      if (text !== null) readPatchText(text, 'apply_patch', out, at);
      return;
    }
    case 'str_replace_editor':
      sweAgentEditor(args, out, at);
      return;
    default:
      out.effects.push(...formatterWrites(name, args, at));
  }
}

/**
 * perl's (and ruby's) switches, clustered as they may be (`-pi -e`, `-0pi`, `-i.bak`, `-p0e`, `-0777 -pe`): whether
 * it edits in place, and the files after the script (`-e`/`-E` takes the next word; without one, the first
 * word is the script file). `-i` takes the rest of its cluster as a backup suffix; `-I`, `-M`, `-m`, `-x`, `-C`,
 * `-d`, `-D`, `-F` take theirs as their value; `-0` and `-l` take their octal digits.
 */
export function perlArgs(args: readonly string[]): { inPlace: boolean; files: string[] } {
  let inPlace = false;
  let script = false;
  const files: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as string;
    if (a === '--') {
      files.push(...args.slice(k + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      if (script) files.push(a);
      else script = true; // the script's file
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j] as string;
      if (c === 'i') {
        inPlace = true;
        break;
      }
      if (c === 'e' || c === 'E') {
        script = true;
        if (j === a.length - 1) k++;
        break;
      }
      if (c === '0' || c === 'l') while (/[0-7xX]/.test(a[j + 1] ?? '')) j++;
      else if ('IMmxCdDF'.includes(c)) break;
    }
  }
  return { inPlace, files };
}

function moveOrCopy(name: 'mv' | 'cp', args: readonly string[], at: (p: string) => string): FileEffect[] {
  let target: string | null = null;
  const files: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k] as string;
    if (a === '-t' || a === '--target-directory') target = args[++k] ?? null;
    else if (a.startsWith('--target-directory=')) target = a.slice(20);
    else if (a === '-S' || a === '--suffix') k++;
    else if (!a.startsWith('-')) files.push(a);
  }
  const intoDirectory = target !== null || files.length > 2 || (files[files.length - 1] ?? '').endsWith('/');
  const dest = target ?? files.pop() ?? null;
  if (dest === null) return [];
  return files.map((from): FileEffect => {
    const base = from.replace(/\/+$/, '').split('/').pop() ?? from;
    const path = at(intoDirectory ? `${dest.replace(/\/+$/, '')}/${base}` : dest);
    return { kind: name === 'mv' ? 'move' : 'copy', path, from: at(from), via: name, change: 'created' };
  });
}

/** Formatters and fixers that rewrite the files they are given (or everything below `.`). */
function formatterWrites(name: string, args: readonly string[], at: (p: string) => string): FileEffect[] {
  const [sub, ...rest] = args;
  let how: string | null = null;
  let targets = positional(args);
  if (name === 'prettier' && args.some((a) => a === '--write' || a === '-w')) how = 'prettier --write';
  else if ((name === 'eslint' || name === 'ruff') && args.includes('--fix')) {
    how = `${name} --fix`;
    if (name === 'ruff' && sub === 'check') targets = positional(rest);
  } else if (name === 'ruff' && sub === 'format' && !rest.includes('--check') && !rest.includes('--diff')) {
    how = 'ruff format';
    targets = positional(rest);
  } else if (
    (name === 'black' || name === 'isort' || name === 'autopep8' || name === 'yapf') &&
    !args.some((a) => /^--(check|diff)/.test(a))
  ) {
    if (name === 'autopep8' || name === 'yapf') {
      if (!args.some((a) => a === '-i' || a === '--in-place')) return [];
    }
    how = name;
  } else if (
    (name === 'gofmt' || name === 'goimports' || name === 'clang-format') &&
    args.some((a) => a === '-w' || a === '-i')
  )
    how = `${name} -w`;
  else if (
    (name === 'go' && sub === 'fmt') ||
    (name === 'cargo' && sub === 'fmt' && !rest.includes('--check'))
  ) {
    how = `${name} fmt`;
    targets = positional(rest);
  } else if (name === 'rustfmt' && !args.includes('--check')) how = 'rustfmt';
  if (how === null) return [];
  const paths = targets.length > 0 ? targets : ['.'];
  return paths.map((p): FileEffect => ({
    kind: 'bulk',
    path: at(p),
    via: how as string,
    change: 'modified',
    scope: 'matched',
    how: how as string,
  }));
}
