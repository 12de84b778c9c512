import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { expectAccessible, saveScreenshot } from './ui-helpers';

// One profile for the file: the demo project is opened once and the tests go on with it.
test.describe.configure({ mode: 'serial' });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];

test.beforeAll(async () => {
  profile = await createProfile();
  context = await profile.launch();
  page = await openApp(context, '/#/project');
  errors = watchErrors(page);
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test.afterEach(() => {
  expect(errors, 'console errors').toEqual([]);
});

const fileLink = (name: string | RegExp) =>
  page
    .getByRole('navigation', { name: 'Project files' })
    .getByRole('link', { name, exact: typeof name === 'string' });

test('a first visit offers the demo project; it opens with its memory, skills and other agents’ files', async () => {
  await expect(page.getByRole('heading', { name: 'Open a project' })).toBeVisible();
  await saveScreenshot(page, 'project-chooser-light');
  await expectAccessible(page, 'project chooser');
  await page.getByRole('button', { name: 'Open the demo project' }).click();
  await expect(page.getByTestId('project-name')).toContainText('the built-in demo project');
  const agentFiles = page.getByTestId('agent-files');
  for (const name of [
    'MEMORY.md',
    'PROJECT_MEMORY.md',
    'plan/PLAN.md',
    'plan/PROGRESS.md',
    'HISTORY.jsonl',
  ]) {
    await expect(agentFiles).toContainText(name);
  }
  await expect(page.getByTestId('skills')).toContainText('run-tests');
  await expect(page.getByTestId('other-memory')).toContainText('AGENTS.md');
  await expect(page.getByTestId('other-memory')).toContainText('CLAUDE.md');
});

test('a memory file reads as a document beside its source; an edit is marked unsaved until saved', async () => {
  await fileLink('MEMORY.md').click();
  const doc = page.getByTestId('document');
  await expect(doc.getByRole('heading', { name: '.agent/MEMORY.md' })).toBeVisible();
  const source = doc.getByLabel('Source');
  await expect(source).toHaveValue(/^# Memory/);
  await expect(doc.getByTestId('preview').getByRole('heading', { level: 1, name: 'Memory' })).toBeVisible();
  await expect(doc.getByTestId('unsaved')).toHaveCount(0);

  const original = await source.inputValue();
  await source.fill(`${original}\n## Added from the UI\n\n- Saved through the project view.\n`);
  await expect(doc.getByTestId('unsaved')).toBeVisible();
  await expect(fileLink(/^MEMORY\.md unsaved/)).toBeVisible();
  await expect(doc.getByTestId('preview').getByRole('heading', { name: 'Added from the UI' })).toBeVisible();
  await saveScreenshot(page, 'project-edit-light');
  await expectAccessible(page, 'project, editing');

  // Another file and back: the unsaved edit is still there.
  await fileLink('PROJECT_MEMORY.md').click();
  await expect(doc.getByRole('heading', { name: '.agent/PROJECT_MEMORY.md' })).toBeVisible();
  await fileLink(/^MEMORY\.md unsaved/).click();
  await expect(source).toHaveValue(/Added from the UI/);

  await source.press('Control+s');
  await expect(doc.getByTestId('unsaved')).toHaveCount(0);
  await expect(page.getByText('Saved .agent/MEMORY.md.')).toBeVisible();
  const onDisk = await page.evaluate(
    async () => (await globalThis.agentBrain!.readAgentFile('.agent/MEMORY.md')).text,
  );
  expect(onDisk).toContain('- Saved through the project view.');
  expect(onDisk.startsWith(original)).toBe(true);
});

test('a file changed behind the editor is a conflict to resolve, never a silent overwrite', async () => {
  const doc = page.getByTestId('document');
  const source = doc.getByLabel('Source');
  await source.fill('# Memory\n\nMy version.\n');
  // The agent writes the same file meanwhile.
  await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const file = await brain.readAgentFile('.agent/MEMORY.md');
    await brain.writeAgentFile('.agent/MEMORY.md', '# Memory\n\nTheir version.\n', {
      expectedVersion: file.version,
    });
  });
  await expect(doc.getByText('This file changed in the folder while you were editing it.')).toBeVisible();
  await doc.getByRole('button', { name: 'Save' }).click();
  const conflict = page.getByTestId('conflict');
  await expect(conflict).toContainText('Not saved: the file changed since you opened it');
  await saveScreenshot(page, 'project-conflict-light');
  await expectAccessible(page, 'project, conflict');
  expect(
    await page.evaluate(async () => (await globalThis.agentBrain!.readAgentFile('.agent/MEMORY.md')).text),
  ).toBe('# Memory\n\nTheir version.\n');

  await conflict.getByRole('button', { name: 'Keep theirs (discard my edits)' }).click();
  await expect(source).toHaveValue('# Memory\n\nTheir version.\n');
  await expect(doc.getByTestId('unsaved')).toHaveCount(0);

  // Again, and this time keep mine.
  await source.fill('# Memory\n\nMine wins.\n');
  await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const file = await brain.readAgentFile('.agent/MEMORY.md');
    await brain.writeAgentFile('.agent/MEMORY.md', '# Memory\n\nTheirs again.\n', {
      expectedVersion: file.version,
    });
  });
  await doc.getByRole('button', { name: 'Save' }).click();
  await conflict.getByRole('button', { name: 'Keep mine (overwrite theirs)' }).click();
  await expect(conflict).toHaveCount(0);
  await expect(doc.getByTestId('unsaved')).toHaveCount(0);
  expect(
    await page.evaluate(async () => (await globalThis.agentBrain!.readAgentFile('.agent/MEMORY.md')).text),
  ).toBe('# Memory\n\nMine wins.\n');
});

test('hostile markdown in the project renders inert', async () => {
  await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const hostile = [
      '# Notes',
      '<script>globalThis.__pwned = "script"</script>',
      '<img src="x" onerror="globalThis.__pwned = \'onerror\'">',
      "[click me](javascript:globalThis.__pwned='link')",
      '<svg><script>globalThis.__pwned = "svg"</script></svg>',
      '',
    ].join('\n');
    await brain.writeAgentFile('.agent/NOTES.md', hostile, { expectedVersion: null });
  });
  await fileLink('NOTES.md').click();
  const preview = page.getByTestId('document').getByTestId('preview');
  await expect(preview.getByRole('heading', { name: 'Notes' })).toBeVisible();
  await expect(preview.locator('script')).toHaveCount(0);
  await expect(preview.locator('[onerror]')).toHaveCount(0);
  await expect(preview.locator('svg')).toHaveCount(0);
  const link = preview.getByText('click me');
  expect(await link.evaluate((a) => a.getAttribute('href'))).toBeNull();
  await link.click();
  expect(await page.evaluate(() => (globalThis as { __pwned?: string }).__pwned ?? null)).toBeNull();
});

test('skills, other agents’ memory (read-only) and the history log', async () => {
  await page
    .getByTestId('skills')
    .getByRole('link', { name: /run-tests/ })
    .click();
  const doc = page.getByTestId('document');
  await expect(doc.getByRole('heading', { name: '.agent/skills/run-tests/SKILL.md' })).toBeVisible();
  await expect(doc.getByLabel('Source')).toHaveValue(/name: run-tests/);

  await fileLink(/CLAUDE\.md/).click();
  await expect(doc.getByText('read-only')).toBeVisible();
  await expect(doc.getByLabel('Source')).toHaveCount(0);
  await expect(doc.getByTestId('preview')).toContainText('CLAUDE.md');

  await fileLink('HISTORY.jsonl').click();
  await expect(doc.getByText('append-only log')).toBeVisible();
  const rows = doc.getByRole('row');
  await expect(rows.filter({ hasText: 'Page numbers are 1-based in the public API.' })).toContainText(
    'decision',
  );
  await expect(rows.filter({ hasText: '1 failed, 4 passed' })).toContainText('validation');
  await saveScreenshot(page, 'project-log-light');
  await expectAccessible(page, 'project, history log');
});

test('after a reload the project reopens by itself, on the same file', async () => {
  await fileLink('plan/PLAN.md').click();
  await expect(fileLink('plan/PLAN.md')).toHaveAttribute('aria-current', 'page');
  await page.reload();
  await page.waitForFunction(() => globalThis.agentBrain !== undefined);
  await expect(page.getByTestId('project-name')).toContainText('demo');
  await expect(
    page.getByTestId('document').getByRole('heading', { name: '.agent/plan/PLAN.md' }),
  ).toBeVisible();
  await expect(page.getByTestId('document').getByLabel('Source')).toHaveValue(/\[x\]|\[ \]/);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as zip' }).click();
  expect((await download).suggestedFilename()).toMatch(/\.zip$/);
});

test('checkpoints: the files a task changed, a highlighted diff, and a rollback with its confirmation and conflict flow', async () => {
  const ids = await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    await brain.setAutoCleanup({ enabled: false });
    const { id: sessionId } = await brain.startSession({ title: 'Fix pagination' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 'Fix the page size bug' });
    const change = async (path: string, edit: (text: string) => string) => {
      const file = await brain.readProjectFile(path);
      const after = edit(file.text);
      await brain.writeProjectFile(path, after, { expectedVersion: file.version });
      return (await brain.checkpointFile({ taskId, path, before: file.text, after })).id;
    };
    const code = await change(
      'src/paginate.ts',
      (t) => t.replace('<=', '<') + '\n// Checked: pages hold exactly pageSize items.\n',
    );
    const test = await change('test/paginate.test.ts', (t) => `${t}\n// regression: one item too many\n`);
    const readme = await change('README.md', (t) => `${t}\nFixed in 1.0.1.\n`);
    return { sessionId, taskId, code, test, readme };
  });
  await page.goto(`/#/checkpoints?session=${ids.sessionId}`);
  const entries = page.getByTestId('entries').getByRole('link');
  await expect(entries).toHaveCount(3);
  await expect(entries.first()).toContainText('src/paginate.ts');
  const diff = page.getByTestId('diff');
  await expect(diff).toContainText('+3 −1 lines');
  await expect(diff.locator('.d2h-ins').first()).toBeVisible();
  await expect(diff.locator('.hljs-comment').first()).toContainText(
    'Checked: pages hold exactly pageSize items.',
  );
  await expect(diff.locator('.hljs-keyword').first()).toBeVisible();
  await saveScreenshot(page, 'checkpoints-light');
  await expectAccessible(page, 'checkpoints');
  await diff.getByLabel('Unified').check();
  await expect(diff.locator('.d2h-file-diff')).toBeVisible();

  // Roll back the whole task, but the README changed again since: it is flagged and left alone unless chosen.
  await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const file = await brain.readProjectFile('README.md');
    await brain.writeProjectFile('README.md', `${file.text}A person edited this afterwards.\n`, {
      expectedVersion: file.version,
    });
  });
  await page.getByRole('button', { name: 'Roll back the whole task…' }).click();
  const dialog = page.getByTestId('rollback-dialog');
  await expect(dialog.getByRole('heading', { name: 'Roll back the whole task?' })).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveCount(3);
  await expect(dialog.getByRole('listitem').filter({ hasText: 'src/paginate.ts' })).toContainText(
    'will be restored',
  );
  await expect(dialog.getByRole('listitem').filter({ hasText: 'README.md' })).toContainText(
    'changed since the checkpoint',
  );
  await expect(dialog.getByRole('button', { name: 'Roll back 2 files' })).toBeEnabled();
  await saveScreenshot(page, 'checkpoints-rollback-light');
  await expectAccessible(page, 'rollback confirmation');
  await dialog.getByRole('button', { name: 'Roll back 2 files' }).click();
  await expect(page.getByTestId('rollback-done')).toContainText('Rolled back 2 files.');
  const after = await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const read = async (p: string) => (await brain.readProjectFile(p)).text;
    return { code: await read('src/paginate.ts'), readme: await read('README.md') };
  });
  expect(after.code).toContain('<=');
  expect(after.code).not.toContain('Checked: pages hold');
  expect(after.readme).toContain('A person edited this afterwards.');

  // The rollback is its own task: undoing it puts the fix back.
  await page.getByRole('link', { name: 'see it, or undo it from there' }).click();
  const tasks = page.getByRole('navigation', { name: 'Tasks and the files they changed' });
  // Wait until the restore task is the selected one (its link is current), not merely listed.
  await expect(tasks.getByRole('link', { name: /^Restore:/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('entries').getByRole('link')).toHaveCount(2);
  await page.getByRole('button', { name: 'Roll back the whole task…' }).click();
  await expect(dialog.getByRole('listitem')).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Roll back 2 files' }).click();
  await expect(page.getByTestId('rollback-done')).toContainText('Rolled back 2 files.');
  await expect
    .poll(() =>
      page.evaluate(async () => (await globalThis.agentBrain!.readProjectFile('src/paginate.ts')).text),
    )
    .toContain('Checked: pages hold exactly pageSize items.');
});
