import { describe, expect, it } from 'vitest';
import {
  archiveFileName,
  describeArchiveProgress,
  fileChanges,
  projectNameFromArchive,
  projectNameProblem,
} from '../../src/ui/archive';

describe('whole-brain archive panel helpers', () => {
  it('names an export after the project and the local time, and reads the project back from that name', () => {
    const at = new Date(2026, 11, 1, 9, 5).getTime();
    expect(archiveFileName('tiny paginate', at)).toBe('tiny-paginate-brain-2026-12-01-0905.zip');
    expect(archiveFileName('agent', at)).toBe('agent-brain-2026-12-01-0905.zip');
    expect(archiveFileName('../..', at)).toBe('..-..-brain-2026-12-01-0905.zip');
    expect(projectNameFromArchive('tiny-paginate-brain-2026-12-01-0905.zip')).toBe('tiny-paginate');
    expect(projectNameFromArchive('tiny-paginate-brain-2026-12-01-0905 (1).zip')).toBe('tiny-paginate');
    // The built-in demo's name is not a target: its files would land in the demo project itself.
    expect(projectNameFromArchive('demo-brain-2026-12-01-0905.zip')).toBe('demo-imported');
    expect(projectNameFromArchive('backup.zip')).toBe('imported');
    expect(projectNameFromArchive('.hidden-brain-2026-12-01-0905.zip')).toBe('imported');
  });

  it('says why a project name cannot receive an import', () => {
    expect(projectNameProblem('restored brain')).toBeNull();
    expect(projectNameProblem('demo')).toMatch(/built-in demo/);
    expect(projectNameProblem('')).toMatch(/1–64 letters/);
    expect(projectNameProblem('a/b')).toMatch(/1–64 letters/);
    expect(projectNameProblem('trailing.')).toMatch(/1–64 letters/);
    expect(projectNameProblem('x'.repeat(65))).toMatch(/1–64 letters/);
  });

  it('tells replaced, added and kept files apart, or nothing without a preview (the engine refused the archive)', () => {
    const preview = {
      createdAt: 0,
      databaseBytes: 1,
      schemaVersion: 1,
      files: [
        { path: '.agent/A.md', bytes: 1 },
        { path: '.agent/new.md', bytes: 2 },
      ],
    };
    expect(fileChanges(preview, ['.agent/A.md', '.agent/mine.md'])).toEqual({
      replaced: ['.agent/A.md'],
      added: ['.agent/new.md'],
      kept: ['.agent/mine.md'],
    });
    expect(fileChanges(null, ['.agent/A.md'])).toBeNull();
  });

  it('puts the engine progress into words, with counts only where the phase has them', () => {
    expect(describeArchiveProgress({ phase: 'files', done: 2, total: 6 })).toEqual({
      phase: 'Reading the .agent files',
      done: 2,
      total: 6,
      unit: 'items',
    });
    expect(describeArchiveProgress({ phase: 'writing', done: 0, total: 0 }).total).toBeNull();
    expect(describeArchiveProgress({ phase: 'installing', done: 0, total: 4096 }).total).toBeNull();
    expect(describeArchiveProgress({ phase: 'validating', done: 0, total: 2 }).phase).toMatch(/^Checking/);
  });
});
