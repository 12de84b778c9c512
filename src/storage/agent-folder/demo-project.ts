/**
 * The built-in demo project: a tiny TypeScript library with a real bug (each page shows one item too many) and
 * an `.agent` folder an agent has already filled — memory, project memory, a plan half done with its progress
 * log, a skill, some history — plus other agents' memory files (AGENTS.md, CLAUDE.md). It lives in OPFS, so a
 * first-time visitor sees everything with no folder picker and no install.
 */
import type { AgentFolder } from './folder';
import { encodeText } from './text';

const at = (iso: string) => Date.parse(iso);

const history = [
  {
    v: 1,
    ts: at('2026-11-28T09:00:00Z'),
    kind: 'instruction',
    id: 1,
    session: 1,
    text: 'Set up tiny-paginate: a paginate() helper with tests.',
  },
  {
    v: 1,
    ts: at('2026-11-28T09:02:00Z'),
    kind: 'decision',
    id: 2,
    session: 1,
    text: 'Page numbers are 1-based in the public API.',
    why: 'Matches how UIs label pages.',
  },
  {
    v: 1,
    ts: at('2026-11-28T09:20:00Z'),
    kind: 'file_change',
    id: 3,
    session: 1,
    text: 'Added paginate()',
    path: 'src/paginate.ts',
    change: 'created',
  },
  {
    v: 1,
    ts: at('2026-11-28T09:25:00Z'),
    kind: 'validation',
    id: 4,
    session: 1,
    text: '4 passed',
    name: 'npm test',
    result: 'passed',
  },
  {
    v: 1,
    ts: at('2026-11-29T16:40:00Z'),
    kind: 'instruction',
    id: 5,
    session: 2,
    text: 'A user reports that every page shows one item too many. Fix it and add a regression test.',
  },
  {
    v: 1,
    ts: at('2026-11-29T16:48:00Z'),
    kind: 'file_change',
    id: 6,
    session: 2,
    text: 'Regression test for the page size',
    path: 'test/paginate.test.ts',
    change: 'modified',
  },
  {
    v: 1,
    ts: at('2026-11-29T16:50:00Z'),
    kind: 'validation',
    id: 7,
    session: 2,
    text: '1 failed, 4 passed: page 1 has 11 items',
    name: 'npm test',
    result: 'failed',
  },
];

/** Path → text of every file in the demo project. */
export const demoProjectFiles: Readonly<Record<string, string>> = {
  'package.json': `{
  "name": "tiny-paginate",
  "version": "0.2.0",
  "description": "Split a list into pages.",
  "type": "module",
  "main": "src/index.ts",
  "scripts": {
    "test": "vitest run"
  },
  "devDependencies": {
    "vitest": "^4.1.0"
  }
}
`,
  'README.md': `# tiny-paginate

Split a list into pages.

\`\`\`ts
import { paginate } from 'tiny-paginate';

paginate(['a', 'b', 'c', 'd', 'e'], 2, 2);
// → { items: ['c', 'd'], page: 2, pageCount: 3, total: 5 }
\`\`\`

Pages are numbered from 1. A page number past the end gives the last page.
`,
  'src/index.ts': `export { paginate, type Page } from './paginate';
`,
  'src/paginate.ts': `export interface Page<T> {
  readonly items: T[];
  /** 1-based. */
  readonly page: number;
  readonly pageCount: number;
  readonly total: number;
}

/** Page \`page\` (1-based) of \`items\`, \`pageSize\` items per page; out-of-range pages are clamped. */
export function paginate<T>(items: readonly T[], page: number, pageSize = 10): Page<T> {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError('pageSize must be a positive integer');
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(Math.max(1, Math.trunc(page)), pageCount);
  const start = (current - 1) * pageSize;
  const out: T[] = [];
  for (let i = start; i <= start + pageSize && i < items.length; i++) out.push(items[i] as T);
  return { items: out, page: current, pageCount, total: items.length };
}
`,
  'test/paginate.test.ts': `import { describe, expect, it } from 'vitest';
import { paginate } from '../src/paginate';

const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');

describe('paginate', () => {
  it('counts pages', () => {
    expect(paginate(letters, 1, 10).pageCount).toBe(3);
    expect(paginate([], 1).pageCount).toBe(1);
  });

  it('clamps the page number', () => {
    expect(paginate(letters, 0, 10).page).toBe(1);
    expect(paginate(letters, 99, 10).page).toBe(3);
  });

  it('rejects a bad page size', () => {
    expect(() => paginate(letters, 1, 0)).toThrow(RangeError);
  });

  it('returns the last, short page', () => {
    expect(paginate(letters, 3, 10).items).toEqual(['u', 'v', 'w', 'x', 'y', 'z']);
  });

  // Regression: every page showed one item too many (the first item of the next page).
  it('returns exactly pageSize items on a full page', () => {
    expect(paginate(letters, 1, 10).items).toEqual(letters.slice(0, 10));
    expect(paginate(letters, 2, 10).items).toEqual(letters.slice(10, 20));
  });
});
`,
  'AGENTS.md': `# AGENTS.md

- Install with \`npm install\`, test with \`npm test\`.
- Keep the public API of \`paginate\` unchanged; it is used by other packages.
- TypeScript strict mode; no \`any\`.
`,
  'CLAUDE.md': `# CLAUDE.md

See AGENTS.md for commands. Prefer small, reviewed changes; explain every change in the commit message.
`,
  '.agent/MEMORY.md': `# Memory

## Preferences
- Small commits with clear messages.
- Run \`npm test\` before saying a change works; quote the summary line.

## Standing instructions
- Never change the public API of \`paginate\` without asking.

## Lessons
- Off-by-one bugs hide in loop bounds: check \`<\` against \`<=\` first.
`,
  '.agent/PROJECT_MEMORY.md': `---
version: 1
---

# Project memory: tiny-paginate

## Architecture
- \`src/paginate.ts\` holds the one function; \`src/index.ts\` re-exports it.
- No runtime dependencies.

## Commands
- Test: \`npm test\` (vitest)

## Conventions
- Page numbers are 1-based in the public API; out-of-range pages are clamped, never an error.
`,
  '.agent/plan/PLAN.md': `---
version: 1
---

# Plan: Every page shows one item too many

## Goal

A user reports that page 1 of 26 letters with pageSize 10 shows 11 items. Fix it without changing the public
API, and keep a regression test.

## Steps

- [x] Reproduce with a failing regression test {#reproduce}
- [ ] Fix the loop bound in paginate {#fix}
- [ ] Run the whole suite {#validate}
- [ ] Write the lesson into MEMORY.md {#lesson}
`,
  '.agent/plan/PROGRESS.md': `# Progress

- 2026-11-29T16:45:00.000Z started #reproduce: Writing a regression test for a full page.
- 2026-11-29T16:50:00.000Z done #reproduce: npm test: 1 failed, 4 passed — page 1 has 11 items.
- 2026-11-29T16:51:00.000Z next #fix: The loop in paginate runs while \`i <= start + pageSize\`; it should stop at \`<\`.
`,
  '.agent/skills/run-tests/SKILL.md': `---
name: run-tests
description: Run the project's test suite and read the result. Use after any code change, before saying it works.
license: MIT
---

# Run the tests

1. Run \`npm test\`.
2. Read the summary line: \`N passed, M failed\`.
3. If anything failed, open the first failure and read its diff before changing more code.
4. Record the run (command and summary line) so it is not repeated needlessly.
`,
  '.agent/HISTORY.jsonl': history.map((record) => JSON.stringify(record) + '\n').join(''),
};

/** Writes every demo file into `folder` (replacing files of the same name). */
export async function seedDemoProject(folder: AgentFolder): Promise<void> {
  for (const [path, text] of Object.entries(demoProjectFiles)) await folder.write(path, encodeText(text));
}
