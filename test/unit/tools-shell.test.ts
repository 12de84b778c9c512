/** The shell tokenizer and parser on the constructs agents write, and the exit-code rules over a command line. */
import { describe, expect, it } from 'vitest';
import { classifyToolCall } from '../../src/core/tool-calls';
import { lex } from '../../src/core/tool-calls/shell/lex';
import { parseCommandLine } from '../../src/core/tool-calls/shell/parse';
import { shellLine } from '../../src/core/tool-calls/shell/units';

const words = (src: string) =>
  lex(src)
    .tokens.filter((t) => t.kind === 'word')
    .map((t) => (t.kind === 'word' ? t.value : ''));
const shape = (src: string) =>
  parseCommandLine(src).items.map((item) => ({
    argv: item.pipeline.commands.map((c) => c.words.map((w) => w.value).join(' ')),
    next: item.next,
  }));

describe('lex', () => {
  it.each([
    [`echo 'a b' "c d" e\\ f`, ['echo', 'a b', 'c d', 'e f']],
    [`echo "it's" 'say "hi"'`, ['echo', "it's", 'say "hi"']],
    [`echo "a \\"q\\" \\$x \\\\"`, ['echo', 'a "q" $x \\']],
    [`echo $'a\\tb\\n'`, ['echo', 'a\tb\n']],
    [`echo "$(git rev-parse --show-toplevel)"/x`, ['echo', '$(git rev-parse --show-toplevel)/x']],
    ['echo ${HOME}/a `pwd`', ['echo', '${HOME}/a', '`pwd`']],
    ['diff <(sort a) <(sort b)', ['diff', '<(sort a)', '<(sort b)']],
    ['pytest \\\n  -q tests', ['pytest', '-q', 'tests']],
    ['ls # a comment', ['ls']],
    ["echo 'unterminated", ['echo', 'unterminated']],
  ])('%s', (src, expected) => {
    expect(words(src)).toEqual(expected);
  });

  it('reads redirections with their fd and target', () => {
    const [cmd] =
      parseCommandLine('pytest > out.log 2>&1 < in.txt &>> all.log').items[0]?.pipeline.commands ?? [];
    expect(cmd?.redirects.map((r) => [r.fd, r.op, r.target?.value])).toEqual([
      [null, '>', 'out.log'],
      [2, '>&', '1'],
      [null, '<', 'in.txt'],
      [null, '&>>', 'all.log'],
    ]);
  });

  it('reads here-documents: quoted, unquoted, <<- with tabs, two on a line, unterminated', () => {
    const docs = (src: string) =>
      parseCommandLine(src).items.flatMap((i) =>
        i.pipeline.commands.flatMap((c) => c.redirects.filter((r) => r.heredoc).map((r) => r.heredoc)),
      );
    expect(docs("cat <<'EOF' > f\n$x\nEOF\necho done")).toEqual([
      { body: '$x\n', quotedDelimiter: true, terminated: true },
    ]);
    expect(docs('cat <<-X\n\tone\n\tX')).toEqual([
      { body: 'one\n', quotedDelimiter: false, terminated: true },
    ]);
    expect(docs('paste <<A <<B\na\nA\nb\nB').map((d) => d?.body)).toEqual(['a\n', 'b\n']);
    const open = lex('cat <<EOF\nnever closed');
    expect(open.problems).toEqual(['Here-document "EOF" is not terminated.']);
    expect(shape("cat > f <<'EOF'\nx && y\nEOF\npytest")).toEqual([
      { argv: ['cat'], next: ';' },
      { argv: ['pytest'], next: null },
    ]);
  });
});

describe('parse', () => {
  it('splits lists and pipelines', () => {
    expect(shape('cd a && make test || echo failed; ls | wc -l & sleep 1')).toEqual([
      { argv: ['cd a'], next: '&&' },
      { argv: ['make test'], next: '||' },
      { argv: ['echo failed'], next: ';' },
      { argv: ['ls', 'wc -l'], next: '&' },
      { argv: ['sleep 1'], next: null },
    ]);
  });

  it('flattens groups and compound commands', () => {
    expect(shape('(cd web && npm test)').map((i) => i.argv)).toEqual([['cd web'], ['npm test']]);
    expect(shape('if pytest -q; then echo ok; fi').map((i) => i.argv)).toEqual([['pytest -q'], ['echo ok']]);
    expect(shape('{ make; make test; }').map((i) => i.argv)).toEqual([['make'], ['make test']]);
  });

  it('separates assignments from words', () => {
    const [cmd] = parseCommandLine('A=1 B="x y" pytest C=2').items[0]?.pipeline.commands ?? [];
    expect(cmd?.assignments.map((w) => w.value)).toEqual(['A=1', 'B=x y']);
    expect(cmd?.words.map((w) => w.value)).toEqual(['pytest', 'C=2']);
  });
});

describe('walking a command line', () => {
  it('strips prefixes and opens shell wrappers', () => {
    const units = shellLine(
      `sudo -u app env A=1 timeout -k 5 600 bash -lc 'cd /srv && sh -c "uv run pytest -q"'`,
      null,
    ).units;
    expect(units.map((u) => u.argv.join(' '))).toEqual(['cd /srv', 'pytest -q']);
    expect(units[1]?.cwd).toBe('/srv');
    expect(units[0]?.timeout).toBe('600');
  });

  it('tracks cd for scope (identity) and cwd (paths)', () => {
    const units = shellLine('cd /testbed && cd src && make test; cd .. && ls', '/testbed').units;
    expect(units.map((u) => [u.argv[0], u.scope, u.cwd])).toEqual([
      ['cd', null, null],
      ['cd', null, '/testbed'],
      ['make', 'src', '/testbed/src'],
      ['cd', 'src', '/testbed/src'],
      ['ls', null, '/testbed'],
    ]);
  });

  it('uses the root given in the context for absolute cds', () => {
    const check = (root?: string) =>
      classifyToolCall({ tool: 'Bash', input: { command: 'cd /repo/web && npm test' } }, root ? { root } : {})
        .checks[0]?.id;
    expect(check('/repo')).toBe('web: npm test');
    expect(check()).toBe('npm test');
  });

  it('starts in the tool’s workdir', () => {
    const meaning = classifyToolCall({
      tool: 'shell',
      input: { command: ['bash', '-lc', 'rm x.txt'], workdir: '/w' },
    });
    expect(meaning.fileEffects.map((e) => e.path)).toEqual(['/w/x.txt']);
    expect(meaning.command).toBe('rm x.txt');
  });

  it('reads Codex argv commands and other input shapes', () => {
    const ids = (input: unknown, tool = 'shell') => classifyToolCall({ tool, input }).checks.map((c) => c.id);
    expect(ids({ command: ['pytest', '-q', 'tests/a b.py'] })).toEqual(["pytest 'tests/a b.py'"]);
    expect(ids({ cmd: 'npm test' }, 'exec_command')).toEqual(['npm test']);
    expect(ids({ action: { type: 'exec', command: ['go', 'test', './...'] } }, 'local_shell_call')).toEqual([
      'go test ./...',
    ]);
    expect(ids('cargo test', 'run_shell_command')).toEqual(['cargo test']);
    expect(ids(JSON.stringify({ command: 'tox -e py311' }))).toEqual(['tox -e py311']);
  });
});
