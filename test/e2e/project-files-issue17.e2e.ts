import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { createProfile, openApp, watchErrors } from './harness';
import { expectAccessible, saveScreenshot } from './ui-helpers';

// Issue 17, items 3 and 4, in the built app: a real folder and a zip of the same project are imported with .git and
// node_modules left out and said so; other agents' files are listed with their agent; Plan & progress shows the
// project's own PLAN.md (5 steps, 2 done) and PROGRESS.md; "Compress the context now" says why it cannot run.

const files: Record<string, string> = {
  '.agent/MEMORY.md': '# Memory\n\n- Run `npm test` before a commit.\n',
  '.agent/plan/PLAN.md': `# Plan: Every page shows one item too many

## Goal

Page 3 shows the last item of page 2. Fix it without changing the public API.

## Steps

- [x] Reproduce with a failing test {#reproduce}
- [x] Find the boundary in paginate() {#find}
- [/] Change the loop bound from <= to < {#fix}
- [ ] Run the whole suite {#validate}
- [ ] Note the fix in the changelog {#changelog}
`,
  '.agent/plan/PROGRESS.md': `# Progress

- 2026-11-30T14:02:11.000Z started #reproduce: Writing a failing test for page 3.
- 2026-11-30T14:05:40.000Z done #reproduce: paginate.test.ts fails as expected (1 failed, 6 passed).
- 2026-11-30T14:06:02.000Z next #fix: Change the loop bound in paginate().
`,
  'GEMINI.md': '# Project context\n\nUse pnpm.\n',
  '.cursor/rules/typescript.mdc': '---\ndescription: TypeScript\nglobs: src/**/*.ts\n---\n\n- Strict mode.\n',
  '.clinerules': 'Be brief.\n',
  '.github/copilot-instructions.md': 'This repository uses Vitest.\n',
  'src/paginate.ts': 'export const pageSize = 10;\n',
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.git/config': '[core]\n',
  'node_modules/left-pad/index.js': 'module.exports = 1;\n',
  'node_modules/left-pad/package.json': '{"name":"left-pad"}\n',
};
const kept = Object.keys(files).filter((p) => !p.startsWith('.git/') && !p.startsWith('node_modules/'));
const leftOut =
  'Left out .git/ (2 files) and node_modules/ (2 files): version control and dependency folders are never imported.';

test('imports say what they left out; other agents’ files and the project’s own plan are shown', async () => {
  test.setTimeout(120_000);
  const dir = await mkdtemp(join(tmpdir(), 'agent-brain-issue17-'));
  const root = join(dir, 'paginate-fix');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const zipPath = join(dir, 'paginate-zip.zip');
  await writeFile(
    zipPath,
    zipSync(Object.fromEntries(Object.entries(files).map(([p, t]) => [p, strToU8(t)]))),
  );

  const profile = await createProfile();
  const context = await profile.launch();
  try {
    const page = await openApp(context, '/#/project');
    const errors = watchErrors(page);
    await expect(page.getByRole('heading', { name: 'Open a project' })).toBeVisible();

    // A zip of the project: the same folders left out as a folder import, and said so.
    await page.getByLabel('Import a zip…').setInputFiles(zipPath);
    await expect(page.getByTestId('project-name')).toContainText('paginate-zip');
    await expect(page.getByRole('status').filter({ hasText: 'Left out' })).toHaveText(
      `Imported ${kept.length} files into "paginate-zip". ${leftOut}`,
    );

    // The folder itself (a real directory through <input webkitdirectory>).
    await page.getByRole('button', { name: 'Close project' }).click();
    await page.getByLabel('Import a folder…').setInputFiles(root);
    await expect(page.getByTestId('project-name')).toContainText('paginate-fix');
    await expect(page.getByRole('status').filter({ hasText: 'Left out' })).toHaveText(
      `Imported ${kept.length} files into "paginate-fix". ${leftOut}`,
    );

    const others = page.getByTestId('other-memory');
    await expect(others.getByRole('listitem')).toHaveCount(4);
    await expect(others.getByRole('listitem').filter({ hasText: 'GEMINI.md' })).toContainText('Gemini CLI');
    await expect(
      others.getByRole('listitem').filter({ hasText: '.cursor/rules/typescript.mdc' }),
    ).toContainText('Cursor · project rule');
    await expect(others.getByRole('listitem').filter({ hasText: '.clinerules' })).toContainText('Cline');
    await expect(others.getByRole('listitem').filter({ hasText: 'copilot-instructions.md' })).toContainText(
      'GitHub Copilot',
    );
    await saveScreenshot(page, 'issue17-project-other-agents-light');

    // No session yet: the project's own plan is what Plan & progress shows.
    await page.goto('/#/plan');
    const filePlan = page.getByTestId('file-plan');
    await expect(filePlan).toContainText('from the file .agent/plan/PLAN.md');
    await expect(page.getByTestId('file-checklist').getByRole('listitem')).toHaveCount(5);
    await expect(filePlan).toContainText('2 of 5 steps finished');
    await expect(page.getByTestId('file-progress').getByRole('listitem')).toHaveCount(3);

    // An empty session: the banner names the file's next step, and compressing is off with the reason.
    await page.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      const { id } = await brain.startSession({ title: 'Pick up the pagination fix' });
      await brain.startTask({ sessionId: id, title: 'Continue' });
    });
    const banner = page.getByTestId('resume-point');
    await expect(banner).toContainText('Continue the step in progress (from .agent/plan/PLAN.md)');
    await expect(banner).toContainText('next: Change the loop bound from <= to <');
    await expect(banner).not.toContainText('Nothing recorded yet');
    await expect(page.getByTestId('file-checklist').getByRole('listitem')).toHaveCount(5);
    await expect(page.getByRole('button', { name: 'Compress the context now' })).toBeDisabled();
    await expect(page.getByTestId('compress-blocked')).toHaveText(
      'Nothing to compress: the session has recorded no events yet.',
    );
    await saveScreenshot(page, 'issue17-plan-from-file-light');
    await expectAccessible(page, 'plan & progress from the project’s files');
    expect(errors, 'console errors').toEqual([]);
  } finally {
    await context.close();
    await profile.dispose();
    await rm(dir, { recursive: true, force: true });
  }
});
