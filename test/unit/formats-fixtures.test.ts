import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentFileKind,
  inspectAgentFile,
  isJsonlKind,
  parseJsonl,
  parseMarkdown,
  serialiseJsonl,
  serialiseMarkdown,
  type FormatProblem,
} from '../../src/core/formats';

const root = new URL('../fixtures/agent-folders/', import.meta.url).pathname;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const decode = (bytes: Uint8Array) =>
  new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
const encode = (text: string) => new TextEncoder().encode(text);

const fixtures = readdirSync(root).flatMap((folder) =>
  filesUnder(join(root, folder)).map((file) => ({ folder, path: relative(join(root, folder), file), file })),
);

const problemsOf = (folder: string, path: string): FormatProblem[] => {
  const text = decode(readFileSync(join(root, folder, path)));
  return [...inspectAgentFile(path, text).problems];
};

describe('every fixture file round-trips byte for byte', () => {
  it('has fixtures of every kind', () => {
    const kinds = new Set(fixtures.map((f) => agentFileKind(f.path)));
    for (const kind of [
      'memory',
      'project-memory',
      'session-summary',
      'plan',
      'progress',
      'history',
      'session-log',
      'skill',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it.each(fixtures.map((f) => [`${f.folder}/${f.path}`, f] as const))('%s', (_name, fixture) => {
    const bytes = new Uint8Array(readFileSync(fixture.file));
    const text = decode(bytes);
    const again = isJsonlKind(agentFileKind(fixture.path))
      ? serialiseJsonl(parseJsonl(text))
      : serialiseMarkdown(parseMarkdown(text));
    expect(encode(again)).toEqual(bytes);
    expect(() => inspectAgentFile(fixture.path, text)).not.toThrow();
  });
});

describe('what the fixtures say about themselves', () => {
  it('a folder written the usual way has no problems at all', () => {
    for (const f of fixtures.filter((x) => x.folder === 'typical'))
      expect(problemsOf('typical', f.path), f.path).toEqual([]);
  });

  it('the typical plan, progress, summary, memory, logs and skill read as typed data', () => {
    const view = (path: string) =>
      inspectAgentFile(path, decode(readFileSync(join(root, 'typical', path)))).view;
    const plan = view('.agent/plan/PLAN.md');
    expect(plan).toMatchObject({ kind: 'plan', version: 1, title: 'Fix the off-by-one in paginate()' });
    if (plan.kind !== 'plan') throw new Error('not a plan');
    expect(plan.items.map((i) => [i.id, i.status, i.depth])).toEqual([
      ['reproduce', 'done', 0],
      ['fix', 'started', 0],
      ['validate', 'todo', 0],
      [null, 'todo', 1],
      [null, 'todo', 0],
    ]);
    expect(view('.agent/plan/PROGRESS.md')).toMatchObject({
      entries: [
        { kind: 'started', itemId: 'reproduce', time: Date.parse('2026-11-30T14:02:11.000Z'), line: 3 },
        { kind: 'done', itemId: 'reproduce' },
        { kind: 'next', itemId: 'fix', text: 'Change `<=` to `<` in the page boundary.' },
      ],
    });
    expect(view('.agent/SESSION_SUMMARY.md')).toMatchObject({
      sessionId: '3',
      taskId: '7',
      goal: 'Page 3 shows the last item of page 2. Fix it without changing the public API.',
      decisions: ['Keep page numbers 1-based in the API.'],
      changedFiles: ['`test/paginate.test.ts` (checkpoint 12)'],
      blocker: null,
      openQuestions: [],
      nextAction: 'Change `<=` to `<` in the page boundary of `paginate`.',
    });
    expect(view('.agent/PROJECT_MEMORY.md')).toMatchObject({
      title: 'Project memory: tiny-paginate',
      sections: [
        { title: 'Project memory: tiny-paginate', entries: [] },
        { title: 'Architecture', entries: [{ line: 8 }] },
        {
          title: 'Commands',
          entries: [{ text: 'Test: `npm test` (vitest)' }, { text: 'Build: `npm run build`' }],
        },
        {
          title: 'Pitfalls',
          entries: [{ text: 'Page numbers are 1-based in the public API,\n0-based inside `paginate`.' }],
        },
      ],
    });
    expect(view('.agent/HISTORY.jsonl')).toMatchObject({
      kind: 'history',
      torn: false,
      records: [{ line: 1 }, { line: 2 }, { line: 3 }],
    });
    expect(view('.agent/skills/run-tests/SKILL.md')).toMatchObject({
      name: 'run-tests',
      license: 'MIT',
      metadata: { author: 'agent-brain demo', version: '1.0' },
    });
  });

  it('hand-edited files: newer versions and odd skills are warned about, CRLF and BOM are read', () => {
    expect(problemsOf('hand-edited', '.agent/PROJECT_MEMORY.md').map((p) => p.code)).toEqual([
      'NewerVersion',
    ]);
    expect(problemsOf('hand-edited', '.agent/HISTORY.jsonl').map((p) => [p.code, p.line])).toEqual([
      ['NewerVersion', 2],
    ]);
    expect(problemsOf('hand-edited', '.agent/SESSION.jsonl').map((p) => [p.code, p.severity])).toEqual([
      ['TornLine', 'warning'],
    ]);
    expect(problemsOf('hand-edited', '.agent/skills/Bad_Name/SKILL.md').map((p) => p.code)).toEqual([
      'InvalidField',
    ]);
    const memory = inspectAgentFile(
      '.agent/MEMORY.md',
      decode(readFileSync(join(root, 'hand-edited/.agent/MEMORY.md'))),
    ).view;
    expect(memory).toMatchObject({
      title: 'Memory',
      sections: [
        { title: 'Memory', entries: [] },
        {
          title: 'Preferences',
          entries: [{ text: 'Tabs, not spaces.' }, { text: 'Answer in British English.' }],
        },
        { title: 'A subsection nobody knows', entries: [] },
        { title: 'Unknown section', entries: [] },
      ],
    });
    const plan = inspectAgentFile(
      '.agent/plan/PLAN.md',
      decode(readFileSync(join(root, 'hand-edited/.agent/plan/PLAN.md'))),
    ).view;
    if (plan.kind !== 'plan') throw new Error('not a plan');
    expect(plan.items.map((i) => [i.text, i.status, i.id])).toEqual([
      ['Read the README', 'done', 'read'],
      ['Fix the example', 'todo', 'fix'],
      ['Rewrite the docs (dropped)', 'skipped', null],
      ['Ask about the changelog', 'started', null],
      ['last item without newline', 'todo', null],
    ]);
    const progress = inspectAgentFile(
      '.agent/plan/PROGRESS.md',
      decode(readFileSync(join(root, 'hand-edited/.agent/plan/PROGRESS.md'))),
    ).view;
    expect(progress).toMatchObject({
      entries: [
        { kind: 'note', time: null, text: 'yesterday: looked at the README' },
        { kind: 'done', itemId: 'read', text: 'read it\nand took notes.' },
        { kind: 'blocked', itemId: null, time: Date.parse('2026-11-30T08:30:00Z') },
      ],
    });
  });

  it('damaged files: each problem with its line, every good line still read', () => {
    expect(problemsOf('damaged', '.agent/HISTORY.jsonl').map((p) => [p.code, p.line, p.severity])).toEqual([
      ['MalformedLine', 2, 'error'],
      ['MalformedLine', 3, 'error'],
      ['InvalidRecord', 4, 'warning'],
      ['TornLine', 6, 'error'],
    ]);
    const history = inspectAgentFile(
      '.agent/HISTORY.jsonl',
      decode(readFileSync(join(root, 'damaged/.agent/HISTORY.jsonl'))),
    ).view;
    expect(history).toMatchObject({
      torn: true,
      records: [
        { line: 1, record: { kind: 'a' } },
        { line: 5, record: { kind: 'e' } },
      ],
    });
    expect(problemsOf('damaged', '.agent/plan/PLAN.md').map((p) => [p.code, p.line])).toEqual([
      ['DuplicateId', 3],
    ]);
    expect(problemsOf('damaged', '.agent/SESSION_SUMMARY.md').map((p) => p.code)).toEqual(['FrontMatter']);
    expect(
      problemsOf('damaged', '.agent/skills/no-description/SKILL.md').map((p) => [p.code, p.severity]),
    ).toEqual([['MissingField', 'error']]);
    expect(problemsOf('damaged', '.agent/skills/no-front-matter/SKILL.md').map((p) => p.code)).toEqual([
      'MissingField',
    ]);
  });
});
