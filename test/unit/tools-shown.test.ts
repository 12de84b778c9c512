/**
 * Files from evidence: what a call's output shows changed (`git diff`, `git status`, a file against its backup, a
 * run's final submission) becomes `shown` effects, and `planFileChanges` adds a change only where the evidence
 * tells something the session did not record. Every rule beside a control that differs in the one thing the rule
 * looks at.
 */
import { describe, expect, it } from 'vitest';
import { classifyToolCall, type FileEffect } from '../../src/core/tool-calls';
import { planFileChanges, type Body, type SessionFiles } from '../../src/core/tool-calls/file-changes';
import { wholeFileDiff } from '../../src/core/tool-calls/effects/shown';

const root = '/testbed';
const modified = (path: string, minus = 'a = 1', plus = 'a = 2') =>
  [
    `diff --git a/${path} b/${path}`,
    'index 3b18e51..a1b2c3d 100644',
    `--- a/${path}`,
    `+++ b/${path}`,
    '@@ -1,3 +1,3 @@',
    ' import os',
    `-${minus}`,
    `+${plus}`,
    ' b = 3',
    '',
  ].join('\n');
const created = (path: string) =>
  [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    'index 0000000..e69de29',
    '--- /dev/null',
    `+++ b/${path}`,
    '@@ -0,0 +1,2 @@',
    '+print("hi")',
    '+x = 1',
    '',
  ].join('\n');
const deleted = (path: string) =>
  [
    `diff --git a/${path} b/${path}`,
    'deleted file mode 100644',
    'index e69de29..0000000',
    `--- a/${path}`,
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-gone = True',
    '',
  ].join('\n');

const shownOf = (command: string, output: string, exitCode: number | null = 0) =>
  classifyToolCall({ tool: 'bash', input: { command }, output, exitCode }, { root }).fileEffects.filter(
    (e): e is Extract<FileEffect, { kind: 'shown' }> => e.kind === 'shown',
  );
const summary = (effects: readonly FileEffect[]) => effects.map((e) => `${e.change}:${e.path}`);

describe('shown effects: which commands print the working tree’s changes', () => {
  const diff = modified('django/db/x.py');
  // [rule, command, output, expected, control command (or output), control's expectation]
  const table: [string, string, string, string[], string, string[]][] = [
    ['git diff', 'git diff', diff, ['modified:/testbed/django/db/x.py'], 'git diff > patch.txt', []],
    ['against HEAD', 'git diff HEAD', diff, ['modified:/testbed/django/db/x.py'], 'git diff HEAD~1', []],
    ['the index', 'git diff --cached', diff, ['modified:/testbed/django/db/x.py'], 'git show HEAD', []],
    [
      'named paths',
      'git diff -- django/db/x.py',
      diff,
      ['modified:/testbed/django/db/x.py'],
      'git log -p',
      [],
    ],
    ['a patch, not a list', 'git diff', diff, ['modified:/testbed/django/db/x.py'], 'git diff --stat', []],
    ['a stash', 'git stash show -p', diff, ['modified:/testbed/django/db/x.py'], 'git stash show', []],
    [
      'after a cd',
      'cd /testbed && git diff',
      diff,
      ['modified:/testbed/django/db/x.py'],
      'cd /testbed && git log -p',
      [],
    ],
    ['piped', 'git diff | head -40', diff, ['modified:/testbed/django/db/x.py'], 'git log -p | head -40', []],
    ['SWE-agent submit', 'submit', diff, ['modified:/testbed/django/db/x.py'], 'python print_patch.py', []],
    [
      'mini-swe-agent submit',
      'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt',
      diff,
      ['modified:/testbed/django/db/x.py'],
      'echo DONE && python print_patch.py',
      [],
    ],
    [
      'older mini-swe-agent submit',
      'echo MINI_SWE_AGENT_FINAL_OUTPUT && git add -A && git diff --cached',
      diff,
      ['modified:/testbed/django/db/x.py'],
      'git add -A',
      [],
    ],
  ];
  it.each(table)('%s', (_rule, command, output, want, control, controlWant) => {
    expect(summary(shownOf(command, output))).toEqual(want);
    expect(summary(shownOf(control, output))).toEqual(controlWant);
  });

  it('a patch file git wrote, printed (git diff > patch.txt, then cat patch.txt)', () => {
    expect(summary(shownOf('cat patch.txt', diff))).toEqual(['modified:/testbed/django/db/x.py']);
    expect(summary(shownOf('head -100 /testbed/patch.txt', diff))).toEqual([
      'modified:/testbed/django/db/x.py',
    ]);
    expect(shownOf('cat patch.txt', diff)[0]).toMatchObject({ how: 'the git diff in patch.txt' });
    // Controls: a diff the agent wrote by hand (no git `index` line: maybe never applied), numbered lines, and a
    // commit as mail (`git format-patch`: the repository's history).
    const byHand = diff.replace(/^index .*\n/m, '');
    expect(shownOf('cat fix.patch', byHand)).toEqual([]);
    expect(shownOf('cat -n patch.txt', diff)).toEqual([]);
    expect(shownOf('cat 0001-fix.patch', `From ${'a'.repeat(40)} Mon Sep 17 00:00:00 2001\n${diff}`)).toEqual(
      [],
    );
  });

  it('a file against its own backup: only that file, as a change of it', () => {
    const noIndex = modified('x.py').replace(/a\/x\.py/g, 'a/x.py.backup');
    // Paths as the command named them, from where it ran (here: where the call started).
    expect(summary(shownOf('git diff --no-index x.py.backup x.py', noIndex, 1))).toEqual(['modified:x.py']);
    const plain = '--- x.py.orig\t2026-01-01\n+++ x.py\t2026-01-02\n@@ -1 +1 @@\n-a\n+b\n';
    expect(summary(shownOf('cd /testbed && diff -u x.py.orig x.py', plain, 1))).toEqual([
      'modified:/testbed/x.py',
    ]);
    // Control: two files that are not a file and its backup (expected against actual output).
    const other = '--- expected.txt\n+++ actual.txt\n@@ -1 +1 @@\n-a\n+b\n';
    expect(shownOf('diff -u expected.txt actual.txt', other, 1)).toEqual([]);
    expect(shownOf('git diff --no-index expected.txt actual.txt', other, 1)).toEqual([]);
  });

  it('created, deleted and renamed files; a created file’s whole body', () => {
    const out = created('tests/test_new.py') + deleted('old.py') + modified('a.py');
    const effects = shownOf('git diff --cached', out);
    expect(summary(effects)).toEqual([
      'created:/testbed/tests/test_new.py',
      'deleted:/testbed/old.py',
      'modified:/testbed/a.py',
    ]);
    expect(effects[0]).toMatchObject({ after: 'print("hi")\nx = 1\n', how: 'git diff --cached' });
    expect(effects[1]).toMatchObject({ after: null });
    const rename = 'diff --git a/a.py b/b.py\nsimilarity index 100%\nrename from a.py\nrename to b.py\n';
    expect(summary(shownOf('git diff', rename))).toEqual(['deleted:/testbed/a.py', 'created:/testbed/b.py']);
  });

  it('keeps each file’s diff to its hunks, and none when a hunk is cut short', () => {
    const out = `${modified('a.py')}============ 3 passed in 0.1s ============\n`;
    const [effect] = shownOf('git diff && pytest -q', out);
    expect(effect?.diff).toBe(modified('a.py'));
    // Control: an output elided inside the hunk (mini-swe-agent keeps a long output's head and tail).
    const cut = modified('a.py').split('\n').slice(0, 7).join('\n');
    const [elided] = shownOf('git diff', cut);
    expect(elided).toMatchObject({ path: '/testbed/a.py', diff: null });
    expect(
      wholeFileDiff('--- a\n+++ b\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n\\ No newline at end of file\n'),
    ).toEqual({
      diff: '--- a\n+++ b\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n\\ No newline at end of file\n',
      added: 'b',
    });
  });

  it('git status: the long form’s sections, the short and porcelain forms; directories left out', () => {
    const long = [
      'On branch main',
      'Changes to be committed:',
      '  (use "git restore --staged <file>..." to unstage)',
      '\tnew file:   tests/test_x.py',
      '\trenamed:    a.py -> b.py',
      '',
      'Changes not staged for commit:',
      '\tmodified:   db/x.py',
      '\tdeleted:    old.py',
      '',
      'Untracked files:',
      '  (use "git add <file>..." to include in what will be committed)',
      '\treproduce.py',
      '\tbuild/',
      '',
    ].join('\n');
    expect(summary(shownOf('cd /testbed/django && git status', long))).toEqual([
      'created:/testbed/django/tests/test_x.py',
      'deleted:/testbed/django/a.py',
      'created:/testbed/django/b.py',
      'modified:/testbed/django/db/x.py',
      'deleted:/testbed/django/old.py',
      'created:/testbed/django/reproduce.py',
    ]);
    // Control: the same lines printed by something else, and a status line outside any section.
    expect(shownOf('cat notes.txt', long)).toEqual([]);
    expect(shownOf('git status', '\tmodified:   x.py\n')).toEqual([]);
    const porcelain =
      ' M django/db/x.py\n?? scratch.py\nD  old.py\nR  a.py -> b.py\n?? build/\n!! ignored.pyc\n';
    expect(summary(shownOf('cd /testbed/django && git status --porcelain', porcelain))).toEqual([
      'modified:/testbed/django/db/x.py',
      'created:/testbed/scratch.py',
      'deleted:/testbed/old.py',
      'deleted:/testbed/a.py',
      'created:/testbed/b.py',
    ]);
    expect(summary(shownOf('git status -s', ' M x.py\n'))).toEqual(['modified:x.py']);
    expect(shownOf('cat list.txt', porcelain)).toEqual([]);
  });

  it('comes after the call’s own effects, and names nothing when the output shows no change', () => {
    const effects = classifyToolCall(
      {
        tool: 'bash',
        input: { command: "sed -i 's/a = 1/a = 2/' a.py && git diff" },
        output: modified('a.py'),
      },
      { root },
    ).fileEffects;
    expect(effects.map((e) => e.kind)).toEqual(['edit', 'shown']);
    expect(shownOf('git diff', '')).toEqual([]);
    expect(shownOf('git status', 'On branch main\nnothing to commit, working tree clean\n')).toEqual([]);
  });
});

/** A session view: what it recorded of each path (`entry`: its latest change opens as a diff). */
function session(known: Record<string, { body: Body | undefined; entry: boolean }>): SessionFiles {
  return {
    body: (p) => known[p]?.body,
    seen: (p) => p in known,
    hasEntry: (p) => known[p]?.entry ?? false,
    under: () => [],
  };
}

describe('planFileChanges: evidence confirms, and adds only what the session did not record', () => {
  const plan = (command: string, output: string, known: SessionFiles = session({})) =>
    planFileChanges(
      classifyToolCall({ tool: 'bash', input: { command }, output }, { root }).fileEffects,
      [],
      known,
      root,
    ).changes;

  it('a file a script changed, never recorded: a change with the diff, marked shown', () => {
    const [change] = plan('git diff', modified('django/db/x.py'));
    expect(change).toMatchObject({
      path: 'django/db/x.py',
      change: 'modified',
      via: 'git diff',
      shown: true,
      diff: modified('django/db/x.py'),
      before: undefined,
      after: undefined,
    });
  });

  it('a created file comes with both bodies; a deleted one with its absence', () => {
    const changes = plan('git diff --cached', created('t.py') + deleted('old.py'));
    expect(changes).toMatchObject([
      { path: 't.py', change: 'created', before: null, after: 'print("hi")\nx = 1\n' },
      { path: 'old.py', change: 'deleted', after: null },
    ]);
  });

  it('a path the call changed itself is listed once, by its own effect', () => {
    const changes = plan("sed -i 's/a = 1/a = 2/' a.py && git diff", modified('a.py'));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ path: 'a.py', via: 'sed -i' });
    expect(changes[0]?.shown).toBeUndefined();
  });

  it('a change recorded with an entry is confirmed, not listed again; without one, the diff is added', () => {
    const withEntry = session({ 'a.py': { body: 'import os\na = 2\nb = 3\n', entry: true } });
    expect(plan('git diff', modified('a.py'), withEntry)).toEqual([]);
    // Control: the same change recorded without bodies (a `sed` with a regular expression): the diff opens it.
    const noEntry = session({ 'a.py': { body: undefined, entry: false } });
    expect(plan('git diff', modified('a.py'), noEntry)).toMatchObject([{ path: 'a.py', shown: true }]);
    // …but a status line alone adds nothing to it.
    expect(plan('git status --porcelain', ' M a.py\n', noEntry)).toEqual([]);
  });

  it('a created file recorded without an entry (its before was not known) opens from the diff, whole', () => {
    // A heredoc wrote it over a path the session never saw: created, yet no entry (the file might have existed).
    const heredoc = session({ 't.py': { body: 'print("hi")\nx = 1\n', entry: false } });
    expect(plan('git diff --cached', created('t.py'), heredoc)).toMatchObject([
      { path: 't.py', change: 'created', before: null, after: 'print("hi")\nx = 1\n', shown: true },
    ]);
  });

  it('a file the session saw deleted and the evidence shows there again is created again', () => {
    const gone = session({ 'scratch.py': { body: null, entry: true } });
    expect(plan('git status --porcelain', '?? scratch.py\n', gone)).toMatchObject([
      { path: 'scratch.py', change: 'created', shown: true },
    ]);
    // Control: the session saw it exist.
    const there = session({ 'scratch.py': { body: 'x\n', entry: true } });
    expect(plan('git status --porcelain', '?? scratch.py\n', there)).toEqual([]);
  });

  it('carries a diff the caller gives (Claude Code’s structuredPatch, Codex’s unified_diff)', () => {
    const diff = '--- a.py\n+++ a.py\n@@ -1 +1 @@\n-a\n+b\n';
    const { changes } = planFileChanges(
      classifyToolCall({ tool: 'Edit', input: { file_path: 'a.py', old_string: 'a', new_string: 'b' } })
        .fileEffects,
      [{ path: 'a.py', diff }],
      session({}),
      null,
    );
    expect(changes).toMatchObject([{ path: 'a.py', diff, via: 'Edit' }]);
    expect(changes[0]?.shown).toBeUndefined();
  });
});
