/**
 * Issue 17, item 4 (pure parts): other agents' memory files recognised by path, each with its agent named; the one
 * skip list a zip import shares with a folder import, and what each says it left out.
 */
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  describeSkipped,
  mergeSkipped,
  otherAgentConvention,
  otherAgentConventions,
  splitSkipped,
} from '../../src/core/formats';
import { filesFromZip } from '../../src/storage/agent-folder/zip';

describe('other agents’ memory files', () => {
  // Layouts as each agent's documentation gives them.
  it.each([
    ['CLAUDE.md', 'claude-md', 'Claude Code'],
    ['AGENTS.md', 'agents-md', 'Codex and other AGENTS.md agents'],
    ['.claude/skills/deploy/SKILL.md', 'claude-skill', 'Claude Code'],
    ['memory-bank/activeContext.md', 'memory-bank', 'Cline'],
    // Cline: one .clinerules file, or a .clinerules/ folder whose files are combined (numeric prefixes order them).
    ['.clinerules', 'clinerules', 'Cline'],
    ['.clinerules/01-coding.md', 'clinerules', 'Cline'],
    ['.clinerules/workflows/release.md', 'clinerules', 'Cline'],
    // Cursor: project rules are .mdc files under .cursor/rules (sub-folders allowed); .cursorrules is the old form.
    ['.cursor/rules/react-components.mdc', 'cursor-rule', 'Cursor'],
    ['.cursor/rules/frontend/forms.mdc', 'cursor-rule', 'Cursor'],
    ['.cursorrules', 'cursorrules', 'Cursor'],
    ['.windsurfrules', 'windsurfrules', 'Windsurf'],
    ['GEMINI.md', 'gemini-md', 'Gemini CLI'],
    ['.github/copilot-instructions.md', 'copilot-instructions', 'GitHub Copilot'],
  ] as const)('%s is %s (%s)', (path, convention, agent) => {
    expect(otherAgentConvention(path)).toBe(convention);
    expect(otherAgentConventions[convention].agent).toBe(agent);
  });

  it.each([
    '.cursor/rules/README.md',
    '.cursor/mcp.json',
    '.clinerules/.DS_Store',
    'docs/GEMINI.md',
    'src/CLAUDE.md',
    '.github/workflows/ci.yml',
    'memory-bank/nested/deep.md',
    'constructor',
    '.agent/MEMORY.md',
  ])('%s is nobody’s', (path) => {
    expect(otherAgentConvention(path)).toBeNull();
  });
});

describe('one skip list for every import', () => {
  const zip = () =>
    zipSync({
      '.git/': new Uint8Array(0),
      '.git/HEAD': strToU8('ref: refs/heads/main\n'),
      '.git/config': strToU8('[core]\n\tbare = false\n'),
      'node_modules/left-pad/index.js': strToU8('module.exports = 1;\n'),
      'node_modules/left-pad/package.json': strToU8('{"name":"left-pad"}\n'),
      'packages/web/node_modules/x/index.js': strToU8('x\n'),
      'packages/web/src/': new Uint8Array(0),
      'packages/web/src/app.ts': strToU8('export {};\n'),
      '.agent/MEMORY.md': strToU8('# Memory\n'),
      'src/a.ts': strToU8('export const a = 1;\n'),
      '.gitignore': strToU8('node_modules\n'),
    });

  it('a zip leaves out .git and node_modules wherever they are, and says which with counts', () => {
    const { files, directories, skipped } = filesFromZip(zip());
    expect(files.map((f) => f.path).sort()).toEqual([
      '.agent/MEMORY.md',
      '.gitignore',
      'packages/web/src/app.ts',
      'src/a.ts',
    ]);
    expect(directories).toEqual(['packages/web/src']);
    expect(skipped).toEqual([
      { path: '.git', files: 2 },
      { path: 'node_modules', files: 2 },
      { path: 'packages/web/node_modules', files: 1 },
    ]);
  });

  it('a name escaping the project still refuses the whole zip, even inside a skipped folder', () => {
    const bad = zipSync({ 'node_modules/../../evil.txt': strToU8('x') });
    expect(() => filesFromZip(bad)).toThrow(expect.objectContaining({ code: 'PathEscapes' }));
  });

  it('splits paths the way a folder import does, merges two reports and says them in a sentence', () => {
    const { kept, skipped } = splitSkipped(
      ['src/a.ts', '.git/HEAD', 'lib/node_modules/y/z.js', '.git/refs/heads/main', 'gitlab.md'],
      (p) => p,
    );
    expect(kept).toEqual(['src/a.ts', 'gitlab.md']);
    expect(skipped).toEqual([
      { path: '.git', files: 2 },
      { path: 'lib/node_modules', files: 1 },
    ]);
    expect(mergeSkipped([{ path: 'node_modules', files: null }], skipped)).toEqual([
      { path: '.git', files: 2 },
      { path: 'lib/node_modules', files: 1 },
      { path: 'node_modules', files: null },
    ]);
    // The same files in another order give the same report.
    expect(
      splitSkipped(['lib/node_modules/y/z.js', '.git/HEAD', '.git/refs/heads/main'], (p) => p).skipped,
    ).toEqual(skipped);
    expect(mergeSkipped([{ path: '.git', files: 1 }], [{ path: '.git', files: 2 }])).toEqual([
      { path: '.git', files: 3 },
    ]);
    expect(describeSkipped([])).toBe('');
    expect(describeSkipped([{ path: '.git', files: 1 }])).toBe(
      'Left out .git/ (1 file): version control and dependency folders are never imported.',
    );
    expect(
      describeSkipped([
        { path: '.git', files: 12 },
        { path: 'node_modules', files: null },
        { path: 'a/node_modules', files: 3 },
        { path: 'b/node_modules', files: 4 },
      ]),
    ).toBe(
      'Left out .git/ (12 files), node_modules/, a/node_modules/ (3 files) and 1 more such folder: version control and dependency folders are never imported.',
    );
  });
});
