import { afterEach, describe, expect, it } from 'vitest';
import type { Brain } from '../../src/lib/index';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { lastProjectKey, ProjectState } from '../../src/ui/state/project.svelte';

let counter = 0;
const unique = (what: string) => `ui-project-${what}-${Date.now().toString(36)}-${++counter}`;
const opened: BrainState[] = [];
const stops: (() => void)[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const memoryStore = () => {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
};

/** A brain with its own OPFS project (never the shared demo), `.agent` created, and a ProjectState on it. */
async function setup() {
  const brainState = new BrainState({ dbName: `${unique('db')}.db`, closeOnPageHide: false });
  opened.push(brainState);
  await brainState.open();
  const brain = brainState.brain as Brain;
  const name = unique('p');
  await brain.openProject({ kind: 'opfs', name, create: true });
  await brain.createAgentFolder();
  cleanups.push(() => brain.deleteProject(name));
  const store = memoryStore();
  const project = new ProjectState(brainState, store);
  stops.push(project.start());
  await project.settled();
  return { brain, project, name, store, brainState };
}

async function openFile(project: ProjectState, path: string) {
  project.select(path);
  await project.settled();
  expect(project.doc?.path).toBe(path);
}

describe('ProjectState', () => {
  it('lists the project, keeps unsaved edits per file across switching, and saves with the version read', async () => {
    const { brain, project } = await setup();
    expect(project.info?.agentFolder).toBe('present');
    expect(project.agentFiles.map((f) => f.path)).toContain('.agent/MEMORY.md');
    await openFile(project, '.agent/MEMORY.md');
    const original = project.draft;
    expect(project.dirty).toBe(false);

    project.edit(`${original}\n- one more thing\n`);
    expect(project.dirty).toBe(true);
    const other = project.agentFiles.find(
      (f) => f.path !== '.agent/MEMORY.md' && f.path.endsWith('.md'),
    )!.path;
    await openFile(project, other);
    expect(project.dirty).toBe(false);
    expect(project.drafts.has('.agent/MEMORY.md')).toBe(true);
    await openFile(project, '.agent/MEMORY.md');
    expect(project.draft).toBe(`${original}\n- one more thing\n`);

    // Typing back to the text on disk is not an unsaved change.
    project.edit(original);
    expect(project.dirty).toBe(false);
    project.edit(`${original}\n- saved\n`);
    expect(await project.save()).toBe(true);
    expect(project.dirty).toBe(false);
    expect((await brain.readAgentFile('.agent/MEMORY.md')).text).toBe(`${original}\n- saved\n`);
    expect(project.doc?.content?.text).toBe(`${original}\n- saved\n`);
  });

  it('turns a file changed behind the editor into a conflict, and resolves it either way', async () => {
    const { brain, project } = await setup();
    await openFile(project, '.agent/MEMORY.md');
    project.edit('# Memory\n\nmine\n');
    const read = await brain.readAgentFile('.agent/MEMORY.md');
    await brain.writeAgentFile('.agent/MEMORY.md', '# Memory\n\ntheirs\n', { expectedVersion: read.version });
    await expect.poll(() => project.changedOnDisk).toBe(true);
    expect(project.draft).toBe('# Memory\n\nmine\n'); // the edit is not replaced under the person's hands

    expect(await project.save()).toBe(false);
    expect(project.conflict?.theirs?.text).toBe('# Memory\n\ntheirs\n');
    expect((await brain.readAgentFile('.agent/MEMORY.md')).text).toBe('# Memory\n\ntheirs\n');

    project.keepTheirs();
    await project.settled();
    expect(project.conflict).toBeNull();
    expect(project.dirty).toBe(false);
    expect(project.draft).toBe('# Memory\n\ntheirs\n');

    project.edit('# Memory\n\nmine again\n');
    const now = await brain.readAgentFile('.agent/MEMORY.md');
    await brain.writeAgentFile('.agent/MEMORY.md', '# Memory\n\ntheirs again\n', {
      expectedVersion: now.version,
    });
    expect(await project.save()).toBe(false);
    expect(await project.overwriteWithMine()).toBe(true);
    expect(project.conflict).toBeNull();
    expect((await brain.readAgentFile('.agent/MEMORY.md')).text).toBe('# Memory\n\nmine again\n');
  });

  it('reloads the open file when someone else writes it and nothing is being edited', async () => {
    const { brain, project } = await setup();
    await openFile(project, '.agent/MEMORY.md');
    const read = await brain.readAgentFile('.agent/MEMORY.md');
    await brain.writeAgentFile('.agent/MEMORY.md', '# Memory\n\nupdated by the agent\n', {
      expectedVersion: read.version,
    });
    await expect.poll(() => project.draft).toBe('# Memory\n\nupdated by the agent\n');
    expect(project.changedOnDisk).toBe(false);
  });

  it('shows a JSONL file as a log, newest lines included, and another folder file read-only', async () => {
    const { brain, project } = await setup();
    // Other agents' files are read-only through the engine: bring one in with an imported folder.
    const name = unique('imported');
    const file = (text: string) => new Blob([text]);
    await brain.importFolderFiles(
      [
        { path: 'CLAUDE.md', data: file('# Claude notes\n') },
        { path: '.agent/MEMORY.md', data: file('# Memory\n') },
      ],
      { name },
    );
    cleanups.push(() => brain.deleteProject(name));
    await brain.appendJsonl('.agent/HISTORY.jsonl', [
      { v: 1, ts: 1, kind: 'note', text: 'first' },
      { v: 1, ts: 2, kind: 'note', text: 'second' },
    ]);
    await openFile(project, '.agent/HISTORY.jsonl');
    expect(project.doc?.mode).toBe('log');
    expect(project.doc?.log?.records.map((r) => r.record['text'])).toEqual(['first', 'second']);
    await openFile(project, 'CLAUDE.md');
    expect(project.doc?.mode).toBe('read-only');
    project.edit('changed');
    expect(project.dirty).toBe(false);
    await expect.poll(() => project.others.map((o) => o.path)).toContain('CLAUDE.md');
  });

  it('remembers the project in its own store and reopens it on restore', async () => {
    const { brainState, brain, name, store } = await setup();
    const first = new ProjectState(brainState, store);
    await first.openStored(name);
    expect(JSON.parse(store.data.get(lastProjectKey)!)).toEqual({ kind: 'opfs', name });
    await brain.closeProject();
    const second = new ProjectState(brainState, store);
    await second.restore();
    expect((await brain.projectInfo())?.name).toBe(name);
    // A project that is gone is said, and forgotten.
    await brain.closeProject();
    store.setItem(lastProjectKey, JSON.stringify({ kind: 'opfs', name: unique('gone') }));
    const third = new ProjectState(brainState, store);
    await third.restore();
    expect(third.error).toMatch(/could not be reopened/);
    expect(store.data.has(lastProjectKey)).toBe(false);
  });
});
