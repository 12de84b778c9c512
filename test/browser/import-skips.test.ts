/**
 * Issue 17, item 4 through the worker on real OPFS: a zip and a folder import leave out the same folders and both
 * say so (in the result and in the app's message); other agents' files are listed with their agent, read-only.
 */
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { filesFromFileList, type Brain } from '../../src/lib/index';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { ProjectState } from '../../src/ui/state/project.svelte';

let counter = 0;
const unique = (what: string) => `import-skips-${what}-${Date.now().toString(36)}-${++counter}`;
const opened: BrainState[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function setup() {
  const brainState = new BrainState({ dbName: `${unique('db')}.db`, closeOnPageHide: false });
  opened.push(brainState);
  await brainState.open();
  const brain = brainState.brain as Brain;
  const store = new Map<string, string>();
  const project = new ProjectState(brainState, {
    getItem: (k) => store.get(k) ?? null,
    setItem: (k, v) => void store.set(k, v),
    removeItem: (k) => void store.delete(k),
  });
  return { brain, project };
}

/** The same project as a folder would hold it: sources, memory files of several agents, .git and node_modules. */
const projectFiles: Record<string, string> = {
  'src/a.ts': 'export const a = 1;\n',
  '.agent/MEMORY.md': '# Memory\n',
  'GEMINI.md': '# Project context\n\nUse pnpm.\n',
  '.cursorrules': 'Always write tests first.\n',
  '.windsurfrules': '- Prefer small functions.\n',
  '.clinerules/01-style.md': '# Style\n\n- Two spaces.\n',
  '.cursor/rules/typescript.mdc':
    '---\ndescription: TypeScript conventions\nglobs: src/**/*.ts\nalwaysApply: false\n---\n\n- Strict mode.\n',
  '.github/copilot-instructions.md': 'This repository uses Vitest.\n',
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.git/config': '[core]\n\tbare = false\n',
  'node_modules/left-pad/index.js': 'module.exports = 1;\n',
  'node_modules/left-pad/package.json': '{"name":"left-pad"}\n',
  'node_modules/.bin/x': '#!/bin/sh\n',
};
const kept = Object.keys(projectFiles)
  .filter((p) => !p.startsWith('.git/') && !p.startsWith('node_modules/'))
  .sort();
const expectedSkips = [
  { path: '.git', files: 2 },
  { path: 'node_modules', files: 3 },
];

async function filesOf(brain: Brain) {
  return (await brain.listProjectFiles())
    .filter((e) => e.kind === 'file')
    .map((e) => e.path)
    .sort();
}

describe('zip and folder imports share one skip list', () => {
  it('both leave out .git and node_modules and say so in their result', async () => {
    const { brain } = await setup();
    const fromFolder = unique('folder');
    const fromZip = unique('zip');
    cleanups.push(
      () => brain.deleteProject(fromFolder),
      () => brain.deleteProject(fromZip),
    );

    const folder = await brain.importFolderFiles(
      Object.entries(projectFiles).map(([path, text]) => ({ path, data: new Blob([text]) })),
      { name: fromFolder },
    );
    expect(folder.files).toBe(kept.length);
    expect(folder.skipped).toEqual(expectedSkips);
    expect(await filesOf(brain)).toEqual(kept);

    const zip = zipSync(Object.fromEntries(Object.entries(projectFiles).map(([p, t]) => [p, strToU8(t)])));
    const zipped = await brain.importProjectZip(zip, { name: fromZip });
    expect(zipped.files).toBe(kept.length);
    expect(zipped.skipped).toEqual(expectedSkips);
    expect(await filesOf(brain)).toEqual(kept);
  });

  it('the app says what each import left out', async () => {
    const { brain, project } = await setup();
    const fromZip = unique('zip-ui');
    const fromFolder = unique('folder-ui');
    cleanups.push(
      () => brain.deleteProject(fromFolder),
      () => brain.deleteProject(fromZip),
    );

    const zip = zipSync(Object.fromEntries(Object.entries(projectFiles).map(([p, t]) => [p, strToU8(t)])));
    await project.importZip(new File([zip], 'proj.zip'), fromZip);
    expect(project.importing.error).toBeNull();
    expect(project.notice).toBe(
      `Imported ${kept.length} files into "${fromZip}". Left out .git/ (2 files) and node_modules/ (3 files): version control and dependency folders are never imported.`,
    );

    // <input webkitdirectory> gives every file with its path under the chosen folder's name.
    const list = Object.entries(projectFiles).map(([path, text]) => {
      const file = new File([text], path.split('/').pop() as string);
      Object.defineProperty(file, 'webkitRelativePath', { value: `myproj/${path}` });
      return file;
    });
    expect(filesFromFileList(list).skipped).toEqual(expectedSkips);
    await project.importFolder(list, fromFolder);
    expect(project.importing.error).toBeNull();
    expect(project.notice).toBe(
      `Imported ${kept.length} files into "${fromFolder}". Left out .git/ (2 files) and node_modules/ (3 files): version control and dependency folders are never imported.`,
    );
    expect(await filesOf(brain)).toEqual(kept);
  });
});

describe('other agents’ memory', () => {
  it('is listed with its agent and refused for writing', async () => {
    const { brain } = await setup();
    const name = unique('agents');
    cleanups.push(() => brain.deleteProject(name));
    await brain.importFolderFiles(
      Object.entries(projectFiles).map(([path, text]) => ({ path, data: new Blob([text]) })),
      { name },
    );
    const others = await brain.listOtherAgentMemory();
    expect(others.map((o) => [o.path, o.convention, o.agent, o.problems.length])).toEqual([
      ['.clinerules/01-style.md', 'clinerules', 'Cline', 0],
      ['.cursor/rules/typescript.mdc', 'cursor-rule', 'Cursor', 0],
      ['.cursorrules', 'cursorrules', 'Cursor', 0],
      ['.github/copilot-instructions.md', 'copilot-instructions', 'GitHub Copilot', 0],
      ['.windsurfrules', 'windsurfrules', 'Windsurf', 0],
      ['GEMINI.md', 'gemini-md', 'Gemini CLI', 0],
    ]);
    for (const { path } of others) {
      const read = await brain.readProjectFile(path);
      await expect(
        brain.writeProjectFile(path, 'overwritten', { expectedVersion: read.version }),
      ).rejects.toMatchObject({ code: 'PermissionDenied' });
    }
    // A .clinerules file (not a folder) is Cline's too.
    const single = unique('single');
    cleanups.push(() => brain.deleteProject(single));
    await brain.importFolderFiles([{ path: '.clinerules', data: new Blob(['Be brief.\n']) }], {
      name: single,
    });
    expect((await brain.listOtherAgentMemory()).map((o) => [o.path, o.agent])).toEqual([
      ['.clinerules', 'Cline'],
    ]);
  });
});
