/**
 * The public package's names and types stay what they were unless a change means to alter them: the surface
 * (api-surface.ts) is compared with the committed api-surface.txt. After a deliberate API change, regenerate it:
 * `UPDATE_API_SURFACE=1 npx vitest run --project node test/unit/api-surface.test.ts`, and review the diff.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSurface } from './api-surface';

const root = path.resolve(import.meta.dirname, '../..');
const snapshot = path.join(import.meta.dirname, 'api-surface.txt');

/** Checked before the walk, these files create the compiler's types in another order than the walk does. */
const checkFirst = ['src/core/compression/next-action.ts', 'src/engine/create-engine.ts'];

describe('the lib API surface', () => {
  let now = '';
  beforeAll(() => {
    now = apiSurface(root);
  }, 60_000);

  it('exports the same names with the same types as api-surface.txt', () => {
    if (process.env.UPDATE_API_SURFACE === '1') fs.writeFileSync(snapshot, now);
    const committed = fs.readFileSync(snapshot, 'utf8');
    expect(now.split('\n')).toEqual(committed.split('\n'));
  });

  it('sees a change of one member type (control)', () => {
    // A member's type as printed: changing it in the text must break equality, so the comparison is not vacuous.
    expect(now).toContain('\nexport openBrain: function (options?: OpenBrainOptions): Promise<Brain>\n');
    expect(now).toContain('\n  .recordStep: (input: RecordStepInput) => Promise<{ id: StepId; }>\n');
  });

  it('names no symbol ids, and does not change with the order the compiler met the types in', () => {
    expect(now).not.toMatch(/@\d/);
    expect(apiSurface(root, { checkFirst })).toBe(now);
    // Control: in the compiler's own order, the same warm-up does change the text.
    expect(apiSurface(root, { checkFirst, compilerOrder: true })).not.toBe(
      apiSurface(root, { compilerOrder: true }),
    );
  }, 90_000);
});
