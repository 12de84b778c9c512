import { describe, expect, it } from 'vitest';
import { checkSqliteHeader } from '../../src/storage/sqlite/database';
import { demoProjectFiles } from '../../src/storage/agent-folder/demo-project';
import { demoProjectName } from '../../src/storage/agent-folder/opfs-projects';
import { defaultDocument } from '../../src/ui/default-document';
import { demoProjectTitle, projectTitle } from '../../src/ui/labels';
import { refusalReason } from '../../src/ui/refusal';

describe('a refused file is said to change nothing once', () => {
  it("drops the engine's closing clause, keeps its reason", () => {
    let message = '';
    try {
      checkSqliteHeader(new Uint8Array(600));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/nothing was changed/i);
    expect(refusalReason(message)).toBe('This file is not an SQLite database (its header is missing).');
    expect(
      refusalReason('This is an SQLite file, but not an agent-brain database. Nothing was changed.'),
    ).toBe('This is an SQLite file, but not an agent-brain database.');
    // A reason without the clause is kept whole; one that is only the clause too.
    expect(refusalReason('The file is not an SQLite database.')).toBe('The file is not an SQLite database.');
    expect(refusalReason('Nothing was changed.')).toBe('Nothing was changed.');
  });
});

describe('the demo project has one name', () => {
  it("is its package's name wherever it is shown, whatever folder it is kept under", () => {
    const pkg = JSON.parse(demoProjectFiles['package.json'] ?? '{}') as { name?: string };
    expect(demoProjectTitle).toBe(pkg.name);
    expect(projectTitle({ kind: 'demo', name: demoProjectName })).toBe('tiny-paginate');
    // An import result names the project only by its folder name.
    expect(projectTitle({ name: demoProjectName })).toBe('tiny-paginate');
    expect(projectTitle({ kind: 'opfs', name: 'realproj' })).toBe('realproj');
  });
});

describe('the Project view opens a document', () => {
  it("opens the project's memory, else the plan, else the first file, never a skill first", () => {
    const demoFiles = Object.keys(demoProjectFiles)
      .filter((p) => p.startsWith('.agent/'))
      .map((path) => ({ path, kind: path.includes('/skills/') ? 'skill' : 'memory' }));
    expect(demoFiles.length).toBeGreaterThan(0);
    expect(defaultDocument(demoFiles)).toBe('.agent/PROJECT_MEMORY.md');
    expect(defaultDocument([{ path: '.agent/SESSION.jsonl' }, { path: '.agent/plan/PLAN.md' }])).toBe(
      '.agent/plan/PLAN.md',
    );
    expect(
      defaultDocument([
        { path: '.agent/skills/x/SKILL.md', kind: 'skill' },
        { path: '.agent/notes.md', kind: 'other' },
      ]),
    ).toBe('.agent/notes.md');
    expect(defaultDocument([])).toBeNull();
  });
});
