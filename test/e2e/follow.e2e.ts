/**
 * Following a running agent (issue 30) on the built app: an OPFS folder stands in for the picked one (the picker
 * returns its handle), and the test writes a Claude-Code-shaped session into it as an agent would — in pieces, a
 * line torn and finished later, a compaction with the agent's own summary. The page shows the session, its next
 * action and the compaction notice with what the summary left out, updating as lines come; a reload goes on
 * following without reading anything twice (no duplicate steps); a file rewritten under the same name is read
 * again whole, still without duplicates. Screenshots at 390 and 1280 px in both themes.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { expectAccessible, expectNoSidewaysOverflow, saveScreenshot, screenshotDir } from './ui-helpers';

test.describe.configure({ mode: 'serial' });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];

const fixture = generateClaudeCodeSession();
const fileName = fixture.main.name;
const text = new TextDecoder().decode(fixture.main.bytes);
// The first cut ends mid-line (torn); the second before the compaction; the rest holds it.
const compactAt = text.indexOf('"compact_boundary"');
const lineBefore = (at: number) => text.lastIndexOf('\n', at) + 1;
const cuts = [lineBefore(compactAt) - 40, lineBefore(compactAt), text.length] as const;

/** Appends `chunk` to the followed file in OPFS, as an agent appends to its transcript. */
async function append(chunk: string, rewrite = false) {
  for (let at = 0; at < Math.max(chunk.length, 1); at += 4_000_000) {
    await page.evaluate(
      async ({ name, part, truncate }) => {
        const root = await navigator.storage.getDirectory();
        const dir = await root.getDirectoryHandle('followed-agent', { create: true });
        const file = await dir.getFileHandle(name, { create: true });
        const writable = await file.createWritable({ keepExistingData: !truncate });
        if (!truncate) await writable.seek((await file.getFile()).size);
        await writable.write(part);
        await writable.close();
      },
      { name: fileName, part: chunk.slice(at, at + 4_000_000), truncate: rewrite && at === 0 },
    );
  }
}

async function followedSession(): Promise<number | null> {
  return page.evaluate(async () => {
    const [folder] = await globalThis.agentBrain!.listFollowedFolders();
    return folder?.files.find((f) => f.sessionId !== null)?.sessionId ?? null;
  });
}

async function stepCount(): Promise<number> {
  return page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const [folder] = await brain.listFollowedFolders();
    const sessionId = folder!.files.find((f) => f.sessionId !== null)!.sessionId!;
    let n = 0;
    for (const task of await brain.listTasks(sessionId)) n += (await brain.listSteps(task.id)).length;
    return n;
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  profile = await createProfile();
  context = await profile.launch();
  // The picker a person would use gives an OPFS folder's handle here (an automated browser cannot pick one).
  await context.addInitScript(() => {
    Object.defineProperty(window, 'showDirectoryPicker', {
      configurable: true,
      value: async () =>
        (await navigator.storage.getDirectory()).getDirectoryHandle('followed-agent', { create: true }),
    });
  });
  page = await openApp(context, '/#/sessions');
  errors = watchErrors(page);
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test('a followed folder: the session, its next action and the compaction notice update as lines are written', async () => {
  test.setTimeout(180_000);
  // The agent's project (its cwd is /home/dev/projects/ledger) is open: the handoff goes there.
  await page.evaluate(() =>
    globalThis.agentBrain!.openProject({ kind: 'opfs', name: 'ledger', create: true }),
  );
  await page.getByTestId('follow-pick').click();
  const folder = page.getByTestId('followed-folder');
  await expect(folder).toHaveCount(1);
  await expect(folder.getByTestId('follow-pace')).toContainText(/watching for changes|checking every/);

  await append(text.slice(0, cuts[0]));
  await expect(page.getByTestId('follow-live')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('follow-next')).toContainText('Next:');
  await expect(page.getByTestId('follow-compaction')).toHaveCount(0);
  const before = await stepCount();
  expect(before).toBeGreaterThan(0);
  // Opt in: the handoff is written into the session's project after each compaction.
  await page.getByTestId('follow-auto-handoff').check();
  const handoff = () =>
    page.evaluate(() =>
      globalThis.agentBrain!.readAgentFile('.agent/SESSION_SUMMARY.md').then(
        (f) => f.text,
        () => null,
      ),
    );
  expect(await handoff()).toBeNull();

  // The torn line finished; then the compaction and the rest.
  await append(text.slice(cuts[0], cuts[1]));
  await append(text.slice(cuts[1]));
  await expect(page.getByTestId('follow-compaction')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('follow-left-out').locator('li').first()).toBeVisible();
  await expect.poll(stepCount, { timeout: 20_000 }).toBeGreaterThan(before);
  // The compaction wrote the any-agent handoff into ledger, and the page says where.
  await expect.poll(handoff, { timeout: 20_000 }).toContain('Ledger');
  await expect(page.getByTestId('follow-handoff-note')).toContainText('Written into ledger');

  // The pointer line, when asked: added once however often the handoff is written, removed with one click.
  const live = page.getByTestId('follow-live');
  const agentsMd = () =>
    page.evaluate(() =>
      globalThis.agentBrain!.readProjectBytes('AGENTS.md').then(
        (f) => new TextDecoder().decode(f.bytes),
        () => null,
      ),
    );
  for (let i = 0; i < 2; i++) {
    await live.getByTestId('handoff-write').click();
    await live.getByLabel(/also add a pointer line/).check();
    await live.getByRole('button', { name: 'Write into ledger' }).click();
    await expect(
      live.getByTestId('resume-handoff').getByRole('status').filter({ hasText: 'Written into ledger' }),
    ).toBeVisible();
  }
  expect((await agentsMd())!.match(/SESSION_SUMMARY\.md/g)).toHaveLength(1);
  await live.getByRole('button', { name: 'Remove the pointer line from ledger' }).click();
  await expect(live.getByText('Pointer line removed from AGENTS.md.')).toBeVisible();
  expect(await agentsMd()).not.toContain('SESSION_SUMMARY.md');

  // Read to the end of the last complete line: the fixture's last line is torn, and waits for its end.
  const offset = await page.evaluate(
    async () => (await globalThis.agentBrain!.listFollowedFolders())[0]!.files[0]!.offset,
  );
  expect(offset).toBe(new TextEncoder().encode(text.slice(0, text.lastIndexOf('\n') + 1)).length);

  for (const width of [390, 1280]) {
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      const html = page.locator('html');
      if ((await html.getAttribute('data-theme')) !== theme)
        await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
      await expect(html).toHaveAttribute('data-theme', theme);
      await expectNoSidewaysOverflow(page, `the live card at ${width} px, ${theme}`);
      await saveScreenshot(page, `follow/live-${width}-${theme}`);
      // The panel alone (the page is long): what a person looks at while the agent works.
      await page
        .getByTestId('follow')
        .screenshot({ path: `${screenshotDir}/follow/panel-${width}-${theme}.png` });
    }
  }
  await expectAccessible(page, 'the live view of a followed folder');
  expect(errors).toEqual([]);
});

test('a reload goes on following without duplicates; a rewritten file is read again whole', async () => {
  test.setTimeout(180_000);
  const steps = await stepCount();
  const sessionId = await followedSession();
  await page.reload();
  await page.waitForFunction(() => globalThis.agentBrain !== undefined);
  // The remembered handle is handed back to the brain: the folder is followed in this tab again.
  await expect(page.getByTestId('follow-pace')).toContainText(/watching for changes|checking every/, {
    timeout: 20_000,
  });
  // A new prompt appended after the reload is read; nothing before it is read twice.
  const tip = /"uuid":"([^"]+)"[^\n]*\n?$/.exec(text.slice(0, text.lastIndexOf('\n')))?.[1] ?? null;
  const prompt = {
    type: 'user',
    uuid: 'f0110w00-0000-4000-8000-000000000001',
    parentUuid: tip,
    sessionId: fixture.truth.sessionId,
    timestamp: '2026-12-05T10:00:00.000Z',
    cwd: '/home/dev/projects/ledger',
    message: { role: 'user', content: 'Followed after the reload: add a changelog entry.' },
  };
  // The torn last line of the fixture is dropped by a newline first, as a writer that died mid-line would leave it.
  // A person reading the page: focus on a control, scrolled down a little. The update must not move either.
  await page.setViewportSize({ width: 1280, height: 700 });
  await page.getByTestId('follow-pick').focus();
  await page.evaluate(() => window.scrollTo(0, 200));
  const scrolled = await page.evaluate(() => window.scrollY);
  await append(`\n${JSON.stringify(prompt)}\n`);
  await expect
    .poll(
      () =>
        page.evaluate(
          async (id) =>
            (await globalThis.agentBrain!.activeCheckpoint(id!)).checkpoint.latestInstruction?.text ?? '',
          sessionId as never,
        ),
      { timeout: 20_000 },
    )
    .toMatch(/changelog/);
  // The run that had ended goes on: its next action is no longer "done".
  await expect(page.getByTestId('follow-next')).not.toContainText('Everything is done');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('follow-pick');
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  expect(await stepCount()).toBe(steps);
  expect(await followedSession()).toBe(sessionId);

  // A call without its result yet: the card names it and when it was made; not a step until its result comes.
  const call = {
    type: 'assistant',
    uuid: 'f0110w00-0000-4000-8000-000000000002',
    parentUuid: prompt.uuid,
    sessionId: fixture.truth.sessionId,
    timestamp: '2026-12-05T10:00:05.000Z',
    cwd: '/home/dev/projects/ledger',
    message: {
      id: 'msg_01f0110w',
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-4-7',
      content: [
        {
          type: 'tool_use',
          id: 'toolu_01f0110wcall',
          name: 'Bash',
          input: { command: 'npm test -- changelog' },
        },
      ],
      stop_reason: 'tool_use',
    },
  };
  await append(`${JSON.stringify(call)}\n`);
  const waiting = page.getByTestId('follow-waiting-calls');
  await expect(waiting).toContainText('npm test -- changelog', { timeout: 20_000 });
  await expect(waiting).toContainText('Bash');
  expect(await stepCount()).toBe(steps);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysOverflow(page, `a call waiting at ${width} px`);
    await page.getByTestId('follow').screenshot({ path: `${screenshotDir}/follow/waiting-${width}.png` });
  }
  const result = {
    type: 'user',
    uuid: 'f0110w00-0000-4000-8000-000000000003',
    parentUuid: call.uuid,
    sessionId: fixture.truth.sessionId,
    timestamp: '2026-12-05T10:00:41.000Z',
    cwd: '/home/dev/projects/ledger',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01f0110wcall', content: '12 passed' }],
    },
    toolUseResult: { stdout: '12 passed', stderr: '', interrupted: false },
  };
  await append(`${JSON.stringify(result)}\n`);
  await expect(waiting).toHaveCount(0, { timeout: 20_000 });
  await expect.poll(stepCount, { timeout: 20_000 }).toBe(steps + 1);

  // Rewritten from scratch (shorter): read again whole, and dedupe keeps it exact.
  const bytesBefore = await page.evaluate(
    async () => (await globalThis.agentBrain!.listFollowedFolders())[0]!.bytesRead,
  );
  await append(text.slice(0, cuts[1]), true);
  await expect
    .poll(
      async () =>
        page.evaluate(async () => (await globalThis.agentBrain!.listFollowedFolders())[0]!.bytesRead),
      {
        timeout: 20_000,
      },
    )
    .toBeGreaterThanOrEqual(bytesBefore + cuts[1] - 100);
  expect(await stepCount()).toBe(steps + 1);
  expect(errors).toEqual([]);
});
