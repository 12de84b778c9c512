/**
 * Each layer rule of test/lint/layers.js fires: a violation planted in a file of each layer is refused by ESLint
 * with this repository's own config, and the allowed import beside it passes (so the rule is not just refusing
 * everything).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/**
 * Typed linting parses only files its TypeScript project holds, so a planted `dir/planted.ts` is linted under the
 * name of an existing .ts file beside it (the layer rules judge by folder; the text is the planted one).
 */
function inProject(file: string): string {
  if (path.basename(file) !== 'planted.ts') return file;
  const dir = path.dirname(file);
  const beside = readdirSync(path.join(root, dir))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.svelte.ts'))
    .sort()[0];
  if (!beside) throw new Error(`No .ts file in ${dir} to plant the text under.`);
  return path.join(dir, beside);
}

async function messages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, inProject(file)) });
  const parsing = (result?.messages ?? []).filter((m) => m.fatal);
  // A text that did not parse was judged by no rule: that must fail the test, not pass as "nothing refused".
  expect(parsing.map((m) => m.message)).toEqual([]);
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith('layers/'))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

// A .svelte case lints the text under an existing component's name, for the same reason.
const cases: readonly [layer: string, file: string, refused: string, allowed: string][] = [
  ['core', 'src/core/planted.ts', '../storage/sqlite/driver', './errors'],
  ['core → engine', 'src/core/formats/planted.ts', '../../engine/context', '../errors'],
  ['core → package', 'src/core/planted.ts', 'fflate', 'yaml'],
  ['storage', 'src/storage/sqlite/planted.ts', '../../engine/context', '../../core/errors'],
  ['engine', 'src/engine/planted.ts', '../worker/host', '../storage/sqlite/driver'],
  ['worker', 'src/worker/planted.ts', '../storage/sqlite/database', '../engine/open-opfs'],
  ['lib → storage', 'src/lib/planted.ts', '../storage/sqlite/repos/tasks-repo', '../worker/protocol'],
  ['lib → engine', 'src/lib/planted.ts', '../engine/create-engine', '../core/errors'],
  ['ui → core', 'src/ui/planted.ts', '../core/errors', '../lib/index'],
  ['ui → worker', 'src/ui/components/SessionsView.svelte', '../../worker/protocol', '../../lib/index'],
];

describe('layer rules', () => {
  for (const [layer, file, refused, allowed] of cases) {
    it(`${layer}: refuses "${refused}" and allows "${allowed}"`, async () => {
      const wrap = (spec: string) =>
        file.endsWith('.svelte')
          ? `<script lang="ts">\n  import type { X } from '${spec}';\n  export const y: X | null = null;\n</script>\n`
          : `import type { X } from '${spec}';\nexport const y: X | null = null;\n`;
      expect(await messages(file, wrap(refused))).toEqual([expect.stringMatching(/^layers\/imports: /)]);
      expect(await messages(file, wrap(allowed))).toEqual([]);
    }, 30_000);
  }

  it('refuses SQL outside storage/sqlite and allows it there', async () => {
    const code = "export const q = 'SELECT id FROM tasks WHERE pinned = 1';\n";
    const template = 'export const q = (t: string) => `DELETE FROM ${t} WHERE id = ?`;\n';
    expect(await messages('src/engine/lifecycle/planted.ts', code)).toEqual([
      expect.stringMatching(/^layers\/sql: /),
    ]);
    expect(await messages('src/ui/planted.ts', template)).toEqual([expect.stringMatching(/^layers\/sql: /)]);
    expect(await messages('src/storage/sqlite/planted.ts', code)).toEqual([]);
    // Prose that merely starts with an SQL word is not SQL.
    expect(await messages('src/engine/planted.ts', "export const m = 'Rollback needs a store';\n")).toEqual(
      [],
    );
  }, 30_000);
});
