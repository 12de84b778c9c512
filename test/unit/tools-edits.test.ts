/** File effects of every edit tool's real input shape, and `applyEdit` replaying them onto a before-body. */
import { describe, expect, it } from 'vitest';
import { applyEdit, classifyToolCall, type FileEffect } from '../../src/core/tool-calls';
import { editCases } from '../fixtures/tool-calls/edit-calls';

const effectsOf = (tool: string, input: unknown, extra: object = {}) =>
  classifyToolCall({ tool, input, ...extra }).fileEffects;
const bash = (command: string) => effectsOf('Bash', { command });

function replay(before: string | null, effect: FileEffect | undefined) {
  if (!effect) throw new Error('no effect');
  const result = applyEdit(before, effect);
  return result.ok ? result.after : `FAILED: ${result.reason}`;
}

describe('edit tools → file effects', () => {
  it.each(editCases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const meaning = classifyToolCall(c.call);
    expect(meaning.fileEffects.map((e) => `${e.kind}:${e.path}`)).toEqual(c.effects);
    expect(meaning.kind).toBe('edit');
    expect(meaning.notes).toEqual([]);
    if (c.after !== undefined) expect(replay(c.before ?? null, meaning.fileEffects[0])).toBe(c.after);
  });

  it('takes the before-body and the change kind from Claude Code’s toolUseResult', () => {
    const [edit] = effectsOf(
      'Edit',
      { file_path: 'a.py', old_string: 'x = 1', new_string: 'x = 2' },
      {
        result: {
          filePath: 'a.py',
          oldString: 'x = 1',
          newString: 'x = 2',
          originalFile: 'x = 1\ny = 2\n',
          structuredPatch: [],
          userModified: false,
          replaceAll: false,
        },
      },
    );
    expect(edit).toMatchObject({
      kind: 'edit',
      before: 'x = 1\ny = 2\n',
      after: 'x = 2\ny = 2\n',
      change: 'modified',
    });
    const [created] = effectsOf(
      'Write',
      { file_path: 'b.py', content: 'b\n' },
      { result: { type: 'create', filePath: 'b.py', content: 'b\n' } },
    );
    expect(created).toMatchObject({ kind: 'write', change: 'created', after: 'b\n' });
    const [updated] = effectsOf(
      'Write',
      { file_path: 'b.py', content: 'b\n' },
      { result: { type: 'update', filePath: 'b.py', originalFile: 'a\n' } },
    );
    expect(updated).toMatchObject({ change: 'modified', before: 'a\n', after: 'b\n' });
    const [unknown] = effectsOf('Write', { file_path: 'b.py', content: 'b\n' });
    expect(unknown).toMatchObject({ change: null });
  });

  it('marks a call whose tool failed, and control: the same call without the error', () => {
    const input = { file_path: 'a.py', old_string: 'nope', new_string: 'x' };
    expect(
      classifyToolCall({ tool: 'Edit', input, error: 'String to replace not found in file.' }).failed,
    ).toBe(true);
    expect(classifyToolCall({ tool: 'Edit', input }).failed).toBe(false);
  });

  it('reads str_replace_editor view and the read tools as reads', () => {
    const view = classifyToolCall({
      tool: 'str_replace_editor',
      input: { command: 'view', path: '/testbed/a.py', view_range: [10, 40] },
    });
    expect(view).toMatchObject({
      kind: 'read',
      fileEffects: [],
      reads: [{ path: '/testbed/a.py', kind: 'file', lines: { start: 10, end: 40 } }],
    });
    const read = classifyToolCall({ tool: 'Read', input: { file_path: '/a/b.ts', offset: 100, limit: 50 } });
    expect(read.reads).toEqual([
      { path: '/a/b.ts', kind: 'file', pattern: null, lines: { start: 100, end: 149 }, via: 'Read' },
    ]);
    expect(
      classifyToolCall({ tool: 'Grep', input: { pattern: 'def main', path: 'src' } }).reads[0],
    ).toMatchObject({ kind: 'search', path: 'src', pattern: 'def main' });
    expect(classifyToolCall({ tool: 'Glob', input: { pattern: '**/*.ts' } }).reads[0]).toMatchObject({
      kind: 'search',
      path: '.',
      pattern: '**/*.ts',
    });
    expect(classifyToolCall({ tool: 'list_directory', input: { path: '/w' } }).reads[0]).toMatchObject({
      kind: 'list',
      path: '/w',
    });
    expect(
      classifyToolCall({ tool: 'read_many_files', input: { paths: ['a', 'b'] } }).reads.map((r) => r.path),
    ).toEqual(['a', 'b']);
  });
});

describe('shell edits replayed', () => {
  it('a heredoc body is the file’s new body (quoted delimiter: literal; unquoted with $: unknown)', () => {
    const [quoted] = bash("cat > run.sh <<'EOF'\necho $HOME\nEOF");
    expect(replay(null, quoted)).toBe('echo $HOME\n');
    const [expanded] = bash('cat > run.sh <<EOF\necho $HOME\nEOF');
    expect(expanded).toMatchObject({ kind: 'write', body: null });
    const [tabs] = bash('cat <<-END > t.txt\n\tindented\n\tEND');
    expect(replay(null, tabs)).toBe('indented\n');
  });

  it('echo, printf and >> give the text they write', () => {
    expect(replay(null, bash('echo "x = 1" > c.py')[0])).toBe('x = 1\n');
    expect(replay(null, bash("printf 'a\\nb\\n' > l.txt")[0])).toBe('a\nb\n');
    expect(replay('a\n', bash('echo b >> l.txt')[0])).toBe('a\nb\n');
    expect(replay('old', bash(': > empty.txt')[0])).toBe('');
    expect(bash('echo "$X" > f')[0]).toMatchObject({ body: null });
  });

  it('replays literal sed substitutions: g, an occurrence, anchors, several -e, a chain on one file', () => {
    const body = 'foo foo foo\nbar\n';
    expect(replay(body, bash("sed -i 's/foo/baz/' f")[0])).toBe('baz foo foo\nbar\n');
    expect(replay(body, bash("sed -i 's/foo/baz/g' f")[0])).toBe('baz baz baz\nbar\n');
    expect(replay(body, bash("sed -i 's/foo/baz/2' f")[0])).toBe('foo baz foo\nbar\n');
    expect(replay(body, bash("sed -i 's/^/# /' f")[0])).toBe('# foo foo foo\n# bar\n');
    expect(replay(body, bash("sed -i -e 's/bar$/qux/' -e 's|foo|a/b|g' f")[0])).toBe('a/b a/b a/b\nqux\n');
    expect(replay('x.y\n', bash("sed -i 's/x\\.y/x_y/' f")[0])).toBe('x_y\n');
    expect(replay('a\n', bash("sed -i 's/a/[&]/' f")[0])).toBe('[a]\n');
    const chain = bash("sed -i 's/a/b/' f && sed -i 's/b/c/g' f");
    expect(replay(replay('a b\n', chain[0]), chain[1])).toBe('c c\n');
  });

  it('keeps a regular-expression sed script but does not replay it', () => {
    for (const script of ['s/fo*/x/', 's/\\(a\\)/\\1/', '/foo/d', 's/a/b/I', '2s/a/b/']) {
      const [effect] = bash(`sed -i '${script}' f`);
      expect(effect).toMatchObject({
        kind: 'edit',
        replayable: false,
        edits: [{ type: 'sed', script, substitutions: null }],
      });
      expect(applyEdit('a', effect as FileEffect).ok).toBe(false);
    }
  });

  it('applies a unified diff from git apply / patch here-documents', () => {
    const diff =
      'diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n x = 1\n-y = 2\n+y = 3\n z = 4\n';
    const [gitApply] = bash(`git apply <<'EOF'\n${diff}EOF`);
    expect(replay('x = 1\ny = 2\nz = 4\n', gitApply)).toBe('x = 1\ny = 3\nz = 4\n');
    const created = bash("patch -p1 <<'EOF'\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\nEOF");
    expect(created).toEqual([
      {
        kind: 'write',
        path: 'new.txt',
        via: 'patch',
        change: 'created',
        body: 'one\ntwo\n',
        after: 'one\ntwo\n',
      },
    ]);
  });

  it('says why an edit cannot be replayed', () => {
    const [edit] = effectsOf('Edit', { file_path: 'a', old_string: 'missing', new_string: 'x' });
    expect(applyEdit('abc', edit as FileEffect)).toEqual({
      ok: false,
      reason: 'the old text is not in the body',
    });
    expect(applyEdit(null, edit as FileEffect)).toEqual({
      ok: false,
      reason: 'an edit needs the body before it',
    });
    const [stash] = bash('git stash');
    expect(applyEdit('x', stash as FileEffect)).toEqual({ ok: false, reason: 'not replayable: git stash' });
  });

  it('applies Codex chunks ignoring trailing white space, at the end of file, and appends a pure addition', () => {
    const patch = (body: string) => `*** Begin Patch\n*** Update File: f\n${body}\n*** End Patch`;
    const [fuzzy] = effectsOf('apply_patch', patch('@@\n-a\n+A'));
    expect(replay('a   \nb\n', fuzzy)).toBe('A\nb\n');
    const [eof] = effectsOf('apply_patch', patch('@@\n-x\n+y\n*** End of File'));
    expect(replay('x\nz\nx\n', eof)).toBe('x\nz\ny\n');
    const [add] = effectsOf('apply_patch', patch('@@\n+last'));
    expect(replay('first\n', add)).toBe('first\nlast\n');
  });
});
