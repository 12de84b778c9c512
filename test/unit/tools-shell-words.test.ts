/**
 * The lexer's words on awkward input, every field a word carries (value after quote removal, source text,
 * quoted / expands / glob) and the problems it reports: bash's quoting rules (bash(1), QUOTING) as agents' command
 * lines hit them. The lexer takes runs of ordinary characters at once; these cases sit around each character
 * that ends a run.
 */
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/core/tool-calls';
import { lex } from '../../src/core/tool-calls/shell/lex';

function wordsOf(src: string) {
  const { tokens, problems } = lex(src);
  const words = tokens.flatMap((t) =>
    t.kind === 'word'
      ? [{ value: t.value, raw: t.raw, quoted: t.quoted, expands: t.expands, glob: t.glob }]
      : [],
  );
  return { words, problems };
}

const w = (
  value: string,
  raw: string,
  flags: { quoted?: boolean; expands?: boolean; glob?: boolean } = {},
) => ({
  value,
  raw,
  quoted: flags.quoted ?? false,
  expands: flags.expands ?? false,
  glob: flags.glob ?? false,
});

describe('lex: one word, every field', () => {
  it.each([
    ['plain', [w('plain', 'plain')]],
    ['é😀x-y_z.py', [w('é😀x-y_z.py', 'é😀x-y_z.py')]],
    ["a'b c'd", [w('ab cd', "a'b c'd", { quoted: true })]],
    ['ab\\ cd', [w('ab cd', 'ab\\ cd', { quoted: true })]],
    ['a\\\nb', [w('ab', 'a\\\nb')]],
    ['"x \\"y\\" \\\\ \\$z \\q"', [w('x "y" \\ $z \\q', '"x \\"y\\" \\\\ \\$z \\q"', { quoted: true })]],
    ['"$HOME/x"y', [w('$HOME/x' + 'y', '"$HOME/x"y', { quoted: true, expands: true })]],
    ['"a$"', [w('a$', '"a$"', { quoted: true })]],
    ['"in `date` now"', [w('in `date` now', '"in `date` now"', { quoted: true, expands: true })]],
    ['"line\\\njoined"', [w('linejoined', '"line\\\njoined"', { quoted: true })]],
    ["$'a\\tb\\x41\\101'", [w('a\tbAA', "$'a\\tb\\x41\\101'", { quoted: true })]],
    ['pre$HOME.post', [w('pre$HOME.post', 'pre$HOME.post', { expands: true })]],
    ['x${a:-b}y', [w('x${a:-b}y', 'x${a:-b}y', { expands: true })]],
    ['`date`x', [w('`date`x', '`date`x', { expands: true })]],
    ['x<(cat f)', [w('x<(cat f)', 'x<(cat f)', { expands: true })]],
    ['*.py', [w('*.py', '*.py', { glob: true })]],
    ['a?b', [w('a?b', 'a?b', { glob: true })]],
    ['[ab]c', [w('[ab]c', '[ab]c', { glob: true })]],
    ['"*.py"', [w('*.py', '"*.py"', { quoted: true })]],
    ["a\"b\"'c'$'d'e", [w('abcde', "a\"b\"'c'$'d'e", { quoted: true })]],
    ['trailing\\', [w('trailing', 'trailing\\', { quoted: true })]],
    ['a\tb\rc', [w('a', 'a'), w('b', 'b'), w('c', 'c')]],
    ['x;y|z&w', [w('x', 'x'), w('y', 'y'), w('z', 'z'), w('w', 'w')]],
    ['a(b)c', [w('a', 'a'), w('b', 'b'), w('c', 'c')]],
  ])('%j', (src, expected) => {
    expect(wordsOf(src)).toEqual({ words: expected, problems: [] });
  });

  it('reads an unclosed quote to the end and says so', () => {
    expect(wordsOf('echo "open $x')).toEqual({
      words: [w('echo', 'echo'), w('open $x', '"open $x', { quoted: true, expands: true })],
      problems: ['A double quote is not closed.'],
    });
    expect(wordsOf('echo \'open "x')).toEqual({
      words: [w('echo', 'echo'), w('open "x', '\'open "x', { quoted: true })],
      problems: ['A single quote is not closed.'],
    });
  });

  it('reads a redirection and its target, not a word, after a short digit run', () => {
    const { tokens } = lex('cmd 2>err.log 12 x');
    expect(
      tokens.map((t) =>
        t.kind === 'word' ? t.value : t.kind === 'redirect' ? `${t.fd}${t.op}${t.target?.value}` : t.op,
      ),
    ).toEqual(['cmd', '2>err.log', '12', 'x']);
  });
});

describe('a cmd.exe command line (Cline on Windows)', () => {
  const run = (command: string, output = '') =>
    classifyToolCall(
      { tool: 'execute_command', input: { command }, output, exitCode: 0 },
      { root: 'c:/Apps/shop' },
    );

  it('backslashes are path separators, and /s /q /f are switches, not files', () => {
    const m = run(
      'cd c:\\Apps\\shop\\terraform && del /f /q .terraform.lock.hcl && rmdir /s /q .terraform && terraform init',
    );
    expect(m.fileEffects.map((e) => [e.kind, e.path])).toEqual([
      ['delete', 'c:/Apps/shop/terraform/.terraform.lock.hcl'],
      ['delete', 'c:/Apps/shop/terraform/.terraform'],
    ]);
  });

  it('a check keeps its folder: `cd c:\\Apps\\shop && npx tsc --noEmit`', () => {
    const m = run('cd c:\\Apps\\shop && npx tsc --noEmit 2>&1', 'src/a.ts(1,7): error TS2322: Type x.\n');
    expect(m.checks.map((c) => c.command)).toEqual(['npx tsc --noEmit 2>&1']);
    expect(m.checks[0]?.scope ?? null).toBeNull();
  });

  it('a POSIX line keeps its backslash escapes (control)', () => {
    const m = run('rm my\\ file.txt');
    expect(m.fileEffects.map((e) => e.path)).toEqual(['my file.txt']);
  });
});
