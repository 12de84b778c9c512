/**
 * The public package's names and types stay what they were unless a change means to alter them: the surface
 * (api-surface.ts) is compared with the committed api-surface.txt. After a deliberate API change, regenerate it:
 * `UPDATE_API_SURFACE=1 npx vitest run --project node test/unit/api-surface.test.ts`, and review the diff.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiSurface } from './api-surface';

const root = path.resolve(import.meta.dirname, '../..');
const snapshot = path.join(import.meta.dirname, 'api-surface.txt');

describe('the lib API surface', () => {
  it('exports the same names with the same types as api-surface.txt', () => {
    const now = apiSurface(root);
    if (process.env.UPDATE_API_SURFACE === '1') fs.writeFileSync(snapshot, now);
    const committed = fs.readFileSync(snapshot, 'utf8');
    expect(now.split('\n')).toEqual(committed.split('\n'));
  }, 60_000);

  it('sees a change of one member type (control)', () => {
    const now = apiSurface(root);
    // A member's type as printed: changing it in the text must break equality, so the comparison is not vacuous.
    expect(now).toContain('export openBrain → openBrain:');
    expect(now).toMatch(/\n {2}\.recordStep: \(input: RecordStepInput\) => Promise<\{ id: StepId; \}>/);
  }, 60_000);
});
