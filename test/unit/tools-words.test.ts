/**
 * Words of a command line are not files: a word the shell expands names no file (a `bulk` effect), a file the
 * output says was not there did not change (`sed: can't read the: No such file or directory` — the shell split an
 * unquoted script into words and sed took them as files), a line the shell refused ran nothing, and perl's and
 * sed's clustered switches are read as the tools read them (a script is not a file; `sed -Ei` edits in place).
 * Every rule beside its control: the same command without what the rule looks at.
 */
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/core/tool-calls';
import { perlArgs } from '../../src/core/tool-calls/effects/shell-effects';

const effectsOf = (command: string, output = '', exitCode: number | null = output === '' ? 0 : 1) =>
  classifyToolCall({ tool: 'bash', input: { command }, output, exitCode }).fileEffects.map(
    (e) => `${e.kind}:${e.path}`,
  );

describe('files the output says were not there', () => {
  const cantRead = (...names: string[]) =>
    names.map((n) => `sed: can't read ${n}: No such file or directory\n`).join('');
  // [rule, command, output, expected; the control is the same command with no output]
  const table: [string, string, string, string[], string[]][] = [
    [
      'sed given an unquoted script the shell split into words',
      'sed -i 10i show the docstring of class f.py',
      cantRead('show', 'the', 'docstring', 'of', 'class'),
      ['edit:f.py'],
      ['edit:show', 'edit:the', 'edit:docstring', 'edit:of', 'edit:class', 'edit:f.py'],
    ],
    [
      'rm of a file that is not there',
      'rm a.py b.py',
      "rm: cannot remove 'b.py': No such file or directory\n",
      ['delete:a.py'],
      ['delete:a.py', 'delete:b.py'],
    ],
    [
      'cp from a file that is not there',
      'cp gone.py kept.py',
      "cp: cannot stat 'gone.py': No such file or directory\n",
      [],
      ['copy:kept.py'],
    ],
    [
      'perl -i on a file that is not there',
      "perl -pi -e 's/a/b/' a.py missing.py",
      "Can't open missing.py: No such file or directory.\n",
      ['modify:a.py'],
      ['modify:a.py', 'modify:missing.py'],
    ],
    [
      'git checkout of paths git does not know',
      'git checkout show the docstring',
      "error: pathspec 'the' did not match any file(s) known to git\nerror: pathspec 'docstring' did not match any file(s) known to git\n",
      [],
      ['restore:the', 'restore:docstring'],
    ],
    [
      'a redirection into a directory that is not there',
      'cd /testbed && echo x > out/x.txt',
      'bash: line 1: out/x.txt: No such file or directory\n',
      [],
      ['write:/testbed/out/x.txt'],
    ],
  ];
  it.each(table)('%s', (_rule, command, output, want, control) => {
    expect(effectsOf(command, output)).toEqual(want);
    expect(effectsOf(command)).toEqual(control);
  });

  it('says how many it left out', () => {
    const meaning = classifyToolCall({
      tool: 'bash',
      input: { command: 'sed -i 10i show the f.py' },
      output: cantRead('show', 'the'),
      exitCode: 2,
    });
    expect(meaning.notes).toContain('2 files the output says did not exist: not changed.');
  });
});

describe('a line the shell refused', () => {
  it('ran nothing: an unclosed quote and the shell’s syntax error', () => {
    const command = "sed -i 's/a/b/' g.py && sed -i 's/don't/do not/' f.py";
    const refused = "bash: -c: line 1: unexpected EOF while looking for matching `''\n";
    expect(effectsOf(command, refused, 2)).toEqual([]);
    expect(effectsOf(command, '/bin/sh: 1: Syntax error: Unterminated quoted string\n', 2)).toEqual([]);
    // Control: the same line with no syntax error in the output keeps what the lexer read.
    expect(effectsOf(command, '', null)).toEqual(['edit:g.py', 'edit:not/ f.py']);
    // Control: a syntax error for a line whose quotes are closed (a script's own) takes nothing away.
    expect(effectsOf("sed -i 's/a/b/' g.py && bash broken.sh", refused, 2)).toEqual(['edit:g.py']);
  });
});

describe('words the shell expands name no file', () => {
  const table: [string, string, string[], string, string[]][] = [
    [
      'a loop variable',
      "for f in a.py b.py; do sed -i 's/x/y/' $f; done",
      ['bulk:.'],
      "sed -i 's/x/y/' a.py",
      ['edit:a.py'],
    ],
    ['a glob', 'rm -f src/*.pyc', ['bulk:src'], 'rm -f src/a.pyc', ['delete:src/a.pyc']],
    ['a glob copied', 'cp *.py backup/', ['bulk:.'], 'cp a.py backup/', ['copy:backup/a.py']],
    ['a redirection target', 'echo x > "$OUT"', ['bulk:.'], 'echo x > out.txt', ['write:out.txt']],
    [
      'after a cd',
      'cd /testbed && sed -i s/x/y/ $f',
      ['bulk:/testbed'],
      'cd /testbed && sed -i s/x/y/ f',
      ['edit:/testbed/f'],
    ],
  ];
  it.each(table)('%s', (_rule, command, want, control, controlWant) => {
    expect(effectsOf(command)).toEqual(want);
    expect(effectsOf(control)).toEqual(controlWant);
  });

  it('says which words it could not name', () => {
    const [bulk] = classifyToolCall({ tool: 'bash', input: { command: 'rm -f src/*.pyc' } }).fileEffects;
    expect(bulk).toMatchObject({ kind: 'bulk', scope: 'matched', how: 'rm src/*.pyc' });
  });
});

describe('clustered switches', () => {
  it('perl: the script is not a file, and -i is found in any cluster', () => {
    const table: [string[], { inPlace: boolean; files: string[] }][] = [
      [['-i', '-p0e', 's/a/b/s', 'f.py'], { inPlace: true, files: ['f.py'] }],
      [['-0777', '-i', '-pe', 's/a/b/s', 'f.py'], { inPlace: true, files: ['f.py'] }],
      [['-lpi', '-e', 's/a/b/', 'f.py', 'g.py'], { inPlace: true, files: ['f.py', 'g.py'] }],
      [['-0pi', '-e', 's/a/b/', 'f.py'], { inPlace: true, files: ['f.py'] }],
      [['-pi.bak', '-e', 's/a/b/', 'f.py'], { inPlace: true, files: ['f.py'] }],
      [['-i', 'fix.pl', 'f.py'], { inPlace: true, files: ['f.py'] }],
      [['-Ilib', '-ne', 'print', 'f.py'], { inPlace: false, files: ['f.py'] }],
      [['-ne', 'print', 'f.py'], { inPlace: false, files: ['f.py'] }],
    ];
    for (const [args, want] of table) expect(perlArgs(args), args.join(' ')).toEqual(want);
    expect(effectsOf("perl -i -p0e 's/a/b/s' f.py")).toEqual(['modify:f.py']);
    // Control: no -i, no change.
    expect(effectsOf("perl -p0e 's/a/b/s' f.py")).toEqual([]);
  });

  it('sed: -Ei, -ri, -ni edit in place', () => {
    for (const flags of ['-Ei', '-ri', '-ni', '-i', '-i.bak', '-ie'])
      expect(effectsOf(`sed ${flags} 's/a/b/' f.py`), flags).toEqual(['edit:f.py']);
    // Control: the same flags without -i print, they do not edit.
    for (const flags of ['-E', '-r', '-n'])
      expect(effectsOf(`sed ${flags} 's/a/b/' f.py`), flags).toEqual([]);
  });
});
