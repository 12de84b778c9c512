/**
 * The demo agent's task, as a fixed script against the built-in demo project (tiny-paginate): fix the off-by-one
 * every page has, then add cursor pagination. 8 plan steps, 60 actions, 7 files, a child agent, test runs that
 * fail and then pass, a decision later superseded, a blocker, a question, three compressions and a lookup in the
 * history. Pure data: the same script every time.
 */
import type { AgentAction } from './actions';

export interface DemoScript {
  readonly sessionTitle: string;
  readonly taskTitle: string;
  /** Before plan step 1: the user's instruction and the plan. */
  readonly setup: readonly AgentAction[];
  /** The actions of each plan step, between its start and its completion (both implicit). */
  readonly steps: readonly (readonly AgentAction[])[];
  /** After the last step. */
  readonly finish: readonly AgentAction[];
}

const CHILD = 'Child agent: survey cursor conventions';
const BLOCKER =
  'Should nextCursor be null or undefined on the last page? The new test and the type disagree.';
const QUESTION = 'Should cursors be plain item indexes or opaque strings?';
const INDEX_DECISION = 'Cursors are plain item indexes (numbers)';

const cursorModule = `/** Cursors are opaque to callers: the base64 text of the next item's index. */
export function encodeCursor(index: number): string {
  return btoa(String(index));
}

export function decodeCursor(cursor: string): number {
  const index = Number(atob(cursor));
  if (!Number.isInteger(index) || index < 0) throw new RangeError(\`Not a cursor: \${cursor}\`);
  return index;
}
`;

const cursorPage = `
export interface CursorPage<T> {
  readonly items: T[];
  /** Pass it back for the next page. */
  readonly nextCursor?: string;
}

/** The page after \`cursor\` (from the start without one), \`pageSize\` items long. */
export function paginateCursor<T>(items: readonly T[], cursor?: string, pageSize = 10): CursorPage<T> {
  const start = cursor === undefined ? 0 : decodeCursor(cursor);
  const end = Math.min(items.length, start + pageSize);
  return { items: items.slice(start, end), nextCursor: end < items.length ? encodeCursor(end) : undefined };
}
`;

const cursorTest = `import { describe, expect, it } from 'vitest';
import { paginateCursor } from '../src/paginate';

const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');

describe('paginateCursor', () => {
  it('walks every item once, in order', () => {
    const seen: string[] = [];
    let page = paginateCursor(letters, undefined, 10);
    seen.push(...page.items);
    while (page.nextCursor !== null) {
      page = paginateCursor(letters, page.nextCursor ?? undefined, 10);
      seen.push(...page.items);
    }
    expect(seen).toEqual(letters);
  });

  it('says null on the last page', () => {
    expect(paginateCursor(letters, undefined, 30).nextCursor).toBeNull();
  });
});
`;

const cursorNotes = `# Cursor conventions (survey)

- GitHub REST: \`Link\` header; no next link on the last page.
- Stripe: \`has_more: false\` on the last page.
- Relay GraphQL: \`pageInfo.endCursor\` is \`null\` when the connection is empty.
- JSON drops \`undefined\` fields: a client cannot tell "no next page" from "field forgotten".

Recommendation: \`nextCursor: null\` on the last page.
`;

const readmeSection = `
## Cursor pagination

For infinite scroll, walk the list with an opaque cursor:

\`\`\`ts
import { paginateCursor } from 'tiny-paginate';

let page = paginateCursor(items, undefined, 20);
while (page.nextCursor !== null) page = paginateCursor(items, page.nextCursor, 20);
\`\`\`

\`nextCursor\` is \`null\` on the last page. Cursors are opaque: pass them back as they are.
`;

const lesson = `- Cursor APIs: say "no next page" with \`null\`, not \`undefined\` — it survives JSON.
`;

export const demoScript: DemoScript = {
  sessionTitle: 'Demo agent: tiny-paginate',
  taskTitle: 'Fix the off-by-one and add cursor pagination',
  setup: [
    {
      kind: 'instruct',
      text: 'Every page of paginate() shows one item too many: fix it. Then add cursor pagination (paginateCursor) for infinite scroll. Keep the public API of paginate unchanged.',
    },
    {
      kind: 'plan',
      goal: 'paginate() returns exactly pageSize items, and paginateCursor() walks a list with opaque cursors; the public API of paginate is unchanged.',
      steps: [
        { what: 'Reproduce the off-by-one with the regression test', why: 'see it fail before fixing it' },
        { what: 'Fix the loop bound in paginate', why: 'each page includes the first item of the next one' },
        { what: 'Design the cursor API', why: 'infinite scroll needs positions that stay valid' },
        { what: 'Implement paginateCursor', why: 'the feature itself' },
        { what: 'Test paginateCursor', why: 'walking every page must yield every item once' },
        { what: 'Document cursor pagination in the README', why: 'users find features there' },
        { what: 'Check types and the build', why: 'a library must compile for its users' },
        { what: 'Write the lessons into MEMORY.md', why: 'the next session should not relearn them' },
      ],
    },
  ],
  steps: [
    [
      {
        kind: 'validate',
        name: 'npm test',
        result: 'failed',
        output: '1 failed, 4 passed — page 1 of 26 letters has 11 items',
      },
      { kind: 'note', text: 'The loop in paginate runs while i <= start + pageSize: one step too far.' },
    ],
    [
      {
        kind: 'decide',
        text: 'Change the loop bound from <= to <',
        why: 'the page ends before start + pageSize',
      },
      {
        kind: 'edit',
        path: 'src/paginate.ts',
        note: 'stop the loop before start + pageSize',
        edit: { op: 'replace', from: 'i <= start + pageSize', to: 'i < start + pageSize' },
      },
      { kind: 'validate', name: 'npm test', result: 'passed', output: '5 passed' },
      {
        kind: 'progress',
        text: 'Off-by-one fixed; the regression test passes.',
        next: 'design the cursor API',
      },
    ],
    [
      { kind: 'ask', text: QUESTION },
      { kind: 'decide', text: INDEX_DECISION, why: 'simplest to implement' },
      {
        kind: 'answer',
        question: QUESTION,
        text: 'Opaque strings: clients must not do arithmetic on cursors.',
      },
      {
        kind: 'decide',
        text: 'Cursors are opaque base64 strings',
        why: 'the user wants clients unable to compute them',
        supersedes: INDEX_DECISION,
      },
      {
        kind: 'edit',
        path: 'src/cursor.ts',
        note: 'encodeCursor/decodeCursor',
        edit: { op: 'create', content: cursorModule },
      },
      { kind: 'compress', keepTail: 6 },
    ],
    [
      {
        kind: 'edit',
        path: 'src/paginate.ts',
        note: 'add paginateCursor',
        edit: { op: 'append', text: cursorPage },
      },
      {
        kind: 'edit',
        path: 'src/index.ts',
        note: 'export paginateCursor',
        edit: {
          op: 'replace',
          from: 'export { paginate, type Page }',
          to: 'export { paginate, paginateCursor, type CursorPage, type Page }',
        },
      },
      {
        kind: 'validate',
        name: 'typecheck',
        command: 'npx tsc --noEmit',
        result: 'failed',
        output: "src/paginate.ts:28 TS2304: Cannot find name 'decodeCursor'.",
      },
      {
        kind: 'edit',
        path: 'src/paginate.ts',
        note: 'import the cursor helpers',
        edit: {
          op: 'replace',
          from: 'export interface Page<T> {',
          to: "import { decodeCursor, encodeCursor } from './cursor';\n\nexport interface Page<T> {",
        },
      },
      {
        kind: 'validate',
        name: 'typecheck',
        command: 'npx tsc --noEmit',
        result: 'passed',
        output: 'no errors',
      },
      { kind: 'progress', text: 'paginateCursor compiles.', next: 'test it' },
    ],
    [
      {
        kind: 'edit',
        path: 'test/cursor.test.ts',
        note: 'walk all pages; null on the last page',
        edit: { op: 'create', content: cursorTest },
      },
      {
        kind: 'validate',
        name: 'npm test',
        result: 'failed',
        output: "1 failed, 6 passed — 'says null on the last page': expected undefined to be null",
      },
      { kind: 'block', text: BLOCKER },
      { kind: 'spawn_child', title: CHILD },
      { kind: 'note', child: CHILD, text: 'Surveying how GitHub, Stripe and Relay mark the last page.' },
      {
        kind: 'edit',
        child: CHILD,
        path: 'docs/cursor-notes.md',
        note: 'survey of last-page conventions',
        edit: { op: 'create', content: cursorNotes },
      },
      {
        kind: 'validate',
        child: CHILD,
        name: 'markdown lint',
        command: 'npx markdownlint-cli2 docs/cursor-notes.md',
        result: 'passed',
        output: '1 file, no problems',
      },
      {
        kind: 'progress',
        child: CHILD,
        text: 'Recommendation: null on the last page (JSON drops undefined).',
      },
      { kind: 'finish_child', title: CHILD },
      {
        kind: 'unblock',
        blocker: BLOCKER,
        text: 'null: it survives JSON, undefined does not (see docs/cursor-notes.md).',
      },
      {
        kind: 'decide',
        text: 'nextCursor is null on the last page',
        why: 'JSON keeps null and drops undefined',
      },
      {
        kind: 'edit',
        path: 'src/paginate.ts',
        note: 'nextCursor: string | null, null on the last page',
        edit: {
          op: 'replace',
          from: 'readonly nextCursor?: string;\n}',
          to: 'readonly nextCursor: string | null;\n}',
        },
      },
      {
        kind: 'edit',
        path: 'src/paginate.ts',
        note: 'return null instead of undefined',
        edit: { op: 'replace', from: 'encodeCursor(end) : undefined', to: 'encodeCursor(end) : null' },
      },
      { kind: 'validate', name: 'npm test', result: 'passed', output: '7 passed' },
    ],
    [
      {
        kind: 'edit',
        path: 'README.md',
        note: 'document paginateCursor',
        edit: { op: 'append', text: readmeSection },
      },
      {
        kind: 'validate',
        name: 'doc examples',
        command: 'npx markdown-doctest',
        result: 'passed',
        output: '2 examples compiled and ran',
      },
      { kind: 'progress', text: 'README documents cursor pagination.', next: 'check types and the build' },
      { kind: 'compress', keepTail: 6 },
    ],
    [
      {
        kind: 'validate',
        name: 'typecheck',
        command: 'npx tsc --noEmit',
        result: 'passed',
        output: 'no errors',
      },
      {
        kind: 'validate',
        name: 'build',
        command: 'npx esbuild src/index.ts --bundle --format=esm --outfile=dist/index.js',
        result: 'passed',
        output: 'dist/index.js 1.3 kB',
      },
    ],
    [
      { kind: 'recall', query: 'decision loop bound', why: 'quote the off-by-one fix in the lesson' },
      {
        kind: 'edit',
        path: '.agent/MEMORY.md',
        note: 'lesson: null for "no next page"',
        edit: { op: 'append', text: lesson },
      },
      {
        kind: 'progress',
        text: 'All steps done: off-by-one fixed, cursor pagination added, tested and documented.',
      },
    ],
  ],
  finish: [{ kind: 'compress', keepTail: 10 }, { kind: 'finish' }],
};

/** Every action in order, with each step's start and completion. */
export function scriptActions(script: DemoScript): AgentAction[] {
  return [
    ...script.setup,
    ...script.steps.flatMap((actions, i): AgentAction[] => [
      { kind: 'start_step', n: i + 1 },
      ...actions,
      { kind: 'complete_step', n: i + 1 },
    ]),
    ...script.finish,
  ];
}
