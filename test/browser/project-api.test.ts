/**
 * The project API end to end through the worker: the demo opens with no picker, a directory handle posted to the
 * worker opens as a project, writes are version-checked, escapes refused, an imported folder round-trips through
 * a zip. Each test has its own brain (dbName) and its own project names.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain, type BrainChange } from '../../src/lib/index';

const open: Brain[] = [];
let counter = 0;
const unique = (what: string) => `${what}-${Date.now().toString(36)}-${++counter}`;

async function brain(): Promise<Brain> {
  const b = await openBrain({ dbName: `${unique('project-api')}.db`, closeOnPageHide: false });
  open.push(b);
  return b;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('the demo project', () => {
  it('opens with no picker and shows a filled .agent folder, skills and other agents’ memory', async () => {
    const b = await brain();
    const info = await b.openProject({ kind: 'demo', reset: true });
    expect(info).toMatchObject({ kind: 'demo', name: 'demo', agentFolder: 'present', message: null });
    expect(await b.projectInfo()).toEqual(info);

    const files = await b.listAgentFiles();
    expect(files.map((f) => [f.path, f.kind])).toEqual([
      ['.agent/HISTORY.jsonl', 'history'],
      ['.agent/MEMORY.md', 'memory'],
      ['.agent/PROJECT_MEMORY.md', 'project-memory'],
      ['.agent/plan/PLAN.md', 'plan'],
      ['.agent/plan/PROGRESS.md', 'progress'],
      ['.agent/skills/run-tests/SKILL.md', 'skill'],
    ]);
    for (const file of files) expect(file.problems, file.path).toEqual([]);

    const plan = await b.readAgentFile('.agent/plan/PLAN.md');
    if (plan.view.kind !== 'plan') throw new Error('not a plan');
    expect(plan.view.items.map((i) => [i.id, i.status])).toEqual([
      ['reproduce', 'done'],
      ['fix', 'todo'],
      ['validate', 'todo'],
      ['lesson', 'todo'],
    ]);
    expect((await b.readAgentFile('.agent/HISTORY.jsonl')).view).toMatchObject({
      kind: 'history',
      records: { length: 7 },
    });
    expect(await b.listSkills()).toMatchObject([{ name: 'run-tests', problems: [] }]);
    expect((await b.listOtherAgentMemory()).map((f) => [f.path, f.convention])).toEqual([
      ['AGENTS.md', 'agents-md'],
      ['CLAUDE.md', 'claude-md'],
    ]);
    const source = await b.readProjectFile('src/paginate.ts');
    expect(source.text).toContain('i <= start + pageSize');
    expect((await b.listProjects()).map((p) => p.name)).toContain('demo');
  });
});

describe('a folder handle posted to the worker', () => {
  it('opens, offers to create .agent, and writes with version checks', async () => {
    const b = await brain();
    const name = unique('picked');
    const handle = await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
    try {
      const info = await b.openProject({ kind: 'handle', handle });
      expect(info).toMatchObject({ kind: 'handle', name, agentFolder: 'missing' });
      expect(info.message).toContain('no .agent folder');

      const changes: BrainChange[] = [];
      const unsubscribe = await b.subscribe((change) => void changes.push(change));
      const { created } = await b.createAgentFolder();
      expect(created).toContain('.agent/MEMORY.md');

      const memory = await b.readAgentFile('.agent/MEMORY.md');
      const saved = await b.writeAgentFile('.agent/MEMORY.md', memory.text + '- New entry\n', {
        expectedVersion: memory.version,
      });
      expect(saved.version).not.toBe(memory.version);
      await expect(
        b.writeAgentFile('.agent/MEMORY.md', 'stale', { expectedVersion: memory.version }),
      ).rejects.toMatchObject({
        code: 'Conflict',
        name: 'BrainError',
      });
      expect((await b.readAgentFile('.agent/MEMORY.md')).text).toBe(memory.text + '- New entry\n');
      await expect(b.writeAgentFile('.agent/MEMORY.md', 'x', undefined as never)).rejects.toMatchObject({
        code: 'InvalidArgument',
      });

      // The picked folder really holds the bytes (read outside the worker).
      const agent = await handle.getDirectoryHandle('.agent');
      expect(await (await (await agent.getFileHandle('MEMORY.md')).getFile()).text()).toBe(
        memory.text + '- New entry\n',
      );

      const appended = await b.appendJsonl('.agent/SESSION.jsonl', [
        { v: 1, ts: 1, kind: 'note', text: 'hi' },
      ]);
      expect(appended).toMatchObject({ appended: 1, repairedTornLine: false });
      const tail = await b.readJsonlTail('.agent/SESSION.jsonl');
      expect(tail).toMatchObject({
        firstLine: 1,
        torn: false,
        records: [{ line: 1, record: { text: 'hi' } }],
      });

      await b.saveSkill('deploy', '---\nname: deploy\ndescription: Ship it.\n---\nSteps.\n', {
        expectedVersion: null,
      });
      await expect(
        b.saveSkill('other', '---\nname: deploy\ndescription: x\n---\n', { expectedVersion: null }),
      ).rejects.toMatchObject({
        code: 'InvalidArgument',
      });
      expect((await b.readSkill('deploy')).view).toMatchObject({
        kind: 'skill',
        name: 'deploy',
        description: 'Ship it.',
      });

      // A last change of another topic: the listener gets changes in the order they were made, so once it has this
      // one, it has every project change before it.
      const { id: last } = await b.startSession({ title: 'after the project writes' });
      await expect.poll(() => changes.some((c) => c.topic === 'sessions' && c.sessionId === last)).toBe(true);
      expect(changes.filter((c) => c.topic === 'project').map((c) => c.path)).toEqual([
        undefined,
        '.agent/MEMORY.md',
        '.agent/SESSION.jsonl',
        '.agent/skills/deploy/SKILL.md',
      ]);
      await unsubscribe();
    } finally {
      await (await navigator.storage.getDirectory()).removeEntry(name, { recursive: true });
    }
  });

  it('refuses escapes, other agents’ files and writes outside .agent through writeAgentFile', async () => {
    const b = await brain();
    await b.openProject({ kind: 'opfs', name: unique('escapes'), create: true });
    for (const path of ['../x.md', '/abs.md', '.agent/../../x.md', '.agent\\x.md', 'a\u0000b']) {
      await expect(b.readProjectFile(path), path).rejects.toMatchObject({ code: 'PathEscapes' });
      await expect(b.writeProjectFile(path, 'x', { expectedVersion: null }), path).rejects.toMatchObject({
        code: 'PathEscapes',
      });
    }
    await expect(b.writeAgentFile('src/a.ts', 'x', { expectedVersion: null })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await expect(b.writeProjectFile('CLAUDE.md', 'x', { expectedVersion: null })).rejects.toMatchObject({
      code: 'PermissionDenied',
    });
    await expect(b.appendJsonl('.agent/x.md', [{}])).rejects.toMatchObject({ code: 'InvalidArgument' });
    await expect(b.appendJsonl('.agent/x.jsonl', [{ bad: Number.NaN }])).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
  });

  it('says clearly when no project is open, and when a name is unknown', async () => {
    const b = await brain();
    expect(await b.projectInfo()).toBeNull();
    await expect(b.listAgentFiles()).rejects.toMatchObject({
      code: 'NotFound',
      message: expect.stringContaining('No project is open'),
    });
    await expect(b.openProject({ kind: 'opfs', name: unique('nope') })).rejects.toMatchObject({
      code: 'NotFound',
    });
    await expect(b.openProject({ kind: 'opfs', name: '../x' })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
  });
});

describe('import and export', () => {
  it('an imported folder exports as a zip that imports back byte for byte', async () => {
    const b = await brain();
    const binary = new Uint8Array(5000).map((_, i) => (i * 31) % 256);
    const files = [
      { path: '.agent/MEMORY.md', data: new Blob(['\uFEFF# Memory\r\n- keep CRLF  \r\n']) },
      { path: '.agent/HISTORY.jsonl', data: new TextEncoder().encode('{"v":1,"ts":1,"kind":"a"}\n{"torn"') },
      { path: 'src/main.ts', data: new TextEncoder().encode('console.log("✓")') },
      { path: 'img/logo.bin', data: binary },
    ];
    const first = unique('imported');
    const imported = await b.importFolderFiles(files, { name: first });
    expect(imported).toMatchObject({
      project: { kind: 'opfs', name: first, agentFolder: 'present' },
      files: 4,
    });
    await expect(b.importFolderFiles(files, { name: first })).rejects.toMatchObject({ code: 'Conflict' });

    const zip = await b.exportProjectZip();
    const second = unique('from-zip');
    const back = await b.importProjectZip(zip, { name: second });
    expect(back.files).toBe(4);
    expect((await b.projectInfo())?.name).toBe(second);

    for (const file of files) {
      const original = file.data instanceof Blob ? new Uint8Array(await file.data.arrayBuffer()) : file.data;
      expect((await b.readProjectBytes(file.path)).bytes, file.path).toEqual(original);
    }
    const history = (await b.listAgentFiles()).find((f) => f.path === '.agent/HISTORY.jsonl');
    expect(history?.problems.map((p) => p.code)).toEqual(['TornLine']);
    expect(text((await b.readProjectBytes('src/main.ts')).bytes)).toBe('console.log("✓")');

    await b.deleteProject(first);
    await b.deleteProject(second);
    expect(await b.projectInfo()).toBeNull();
    expect((await b.listProjects()).map((p) => p.name)).not.toContain(first);
  });
});

describe('the memory features write through the open project', () => {
  it('plan mode and compression land in .agent files that parse without problems', async () => {
    const b = await brain();
    await b.openProject({ kind: 'opfs', name: unique('memory-port'), create: true });
    await b.createAgentFolder();
    const { id: sessionId } = await b.startSession({ title: 'port' });
    const { id: taskId } = await b.startTask({ sessionId, title: 'Fix paginate' });

    const created = await b.createPlan({
      taskId,
      goal: 'Fix paginate',
      steps: [{ what: 'Reproduce' }, { what: 'Fix', why: 'users wait' }],
    });
    expect(created.planFile).toBe('written');
    const first = created.plan.steps[0];
    if (!first) throw new Error('no step');
    await b.startPlanStep(first.id);
    const plan = await b.readAgentFile('.agent/plan/PLAN.md');
    expect(plan.problems).toEqual([]);
    if (plan.view.kind !== 'plan') throw new Error('not a plan');
    expect(plan.view.items.map((i) => i.status)).toEqual(['started', 'todo']);

    await b.recordInstruction({ sessionId, taskId, text: 'Fix the pagination bug.' });
    const compressed = await b.compressContext(sessionId);
    expect(compressed.files.status).toBe('written');
    const files = await b.listAgentFiles();
    for (const file of files) expect(file.problems, file.path).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['.agent/SESSION_SUMMARY.md', '.agent/plan/PLAN.md']),
    );
    const summary = await b.readAgentFile('.agent/SESSION_SUMMARY.md');
    expect(summary.text).toBe(compressed.markdown);
  });
});
