/**
 * Each layer rule of test/lint/layers.js fires: a violation planted in a file of each layer is refused by ESLint
 * with this repository's own config, and the allowed import beside it passes (so the rule is not just refusing
 * everything).
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function messages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith('layers/'))
    .map((m) => `${m.ruleId}: ${m.message}`);
}

// A .svelte case lints the text under an existing component's name: typed linting needs a file in the project.
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
