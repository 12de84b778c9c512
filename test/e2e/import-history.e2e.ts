/**
 * Opening another agent's history on the built app: a Claude-Code-shaped project folder (the generated session of
 * test/fixtures/transcripts/claude-code.ts and its subagent file) dropped on "Open an agent's history" on the first
 * screen; its session listed with its agent; the resume prompt copied (the clipboard holds it); a diff of one of its
 * edits opened; a corrupt file refused with its line named; a cancelled import leaves no session.
 * The folder drop: history-drop.ts.
 */
import { expect, test } from '@playwright/test';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { base64, dropFolder } from './history-drop';

let profile: Profile;
test.beforeAll(async () => {
  profile = await createProfile();
});
test.afterAll(async () => {
  await profile.dispose();
});

const fixture = generateClaudeCodeSession();
const { truth } = fixture;
const projectFolder = {
  [fixture.main.name]: base64(fixture.main.bytes),
  [fixture.subagent.name]: base64(fixture.subagent.bytes),
};
const title = `Claude Code · ${truth.title}`;

test('a dropped Claude Code project folder: its session, the resume prompt, a diff; corrupt and cancelled imports', async () => {
  const context = await profile.launch();
  try {
    const page = await openApp(context, '/');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(page.url()).origin,
    });
    const errors = watchErrors(page);
    const panel = page.getByTestId('open-history');
    await expect(panel.getByRole('heading', { name: "Open an agent's history" })).toBeVisible();

    // A cancelled import leaves no session. Four sessions of the same shape, so the import is still running.
    const many: Record<string, string> = {};
    for (let seed = 1; seed <= 4; seed++) {
      const g = generateClaudeCodeSession(100 + seed);
      many[`s${seed}/${fixture.main.name}`] = base64(g.main.bytes);
    }
    expect(await dropFolder(page, 'many', many)).toBe(true);
    await panel.getByRole('button', { name: 'Cancel import' }).click();
    await expect(panel.getByTestId('history-error')).toHaveText('Import cancelled: nothing was kept.');
    expect(await page.evaluate(() => globalThis.agentBrain!.listSessions())).toEqual([]);
    expect(await page.evaluate(() => globalThis.agentBrain!.listImportedSessions())).toEqual([]);

    // A corrupt file is refused, its line named.
    expect(
      await dropFolder(page, 'corrupt', {
        '0b0e7f35-3f6e-4ad6-9f39-0d5d0f1c2a11.jsonl': base64(
          new TextEncoder().encode('{"type":"user","uuid":\n<<x>>\n'),
        ),
      }),
    ).toBe(true);
    await expect(panel.getByTestId('history-error')).toContainText('line 1');
    // A file that is no transcript: refused, naming the formats known.
    expect(
      await dropFolder(page, 'notes', { 'notes.txt': base64(new TextEncoder().encode('hello\n')) }),
    ).toBe(true);
    await expect(panel.getByTestId('history-error')).toContainText('Known formats: Claude Code session');
    expect(await page.evaluate(() => globalThis.agentBrain!.listSessions())).toEqual([]);

    // The project folder: one session, marked with its agent; the malformed line named; the rest imported.
    expect(await dropFolder(page, 'ledger', projectFolder)).toBe(true);
    const result = panel.getByTestId('history-result');
    await expect(result.getByRole('link', { name: title })).toBeVisible();
    await expect(result).toContainText(`${truth.prompts.length + 2} prompts`);
    await expect(result).toContainText(
      `${truth.toolCalls.length + truth.subagentToolCalls.length} tool calls`,
    );
    await expect(result).toContainText(`line ${truth.malformedLines[0]}:`);
    const [imported] = await page.evaluate(() => globalThis.agentBrain!.listImportedSessions());
    expect(imported?.agent).toBe('claude-code');
    expect(imported?.sourceSessionId).toBe(truth.sessionId);

    // The resume prompt, on the clipboard.
    await result.getByRole('button', { name: 'Copy resume prompt' }).click();
    await expect(result.getByRole('status')).toContainText('Resume prompt copied');
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    expect(clip).toMatch(/^# Picking up where an agent stopped: /);
    expect(clip).not.toContain('search_history');
    expect(clip).toContain('**Goal:**');

    // It is in Sessions, marked with its agent.
    await result.getByRole('link', { name: title }).click();
    await expect(page.getByRole('main')).toContainText(title);
    // Its conversation as the task's messages: the person's prompts and the agent's replies, each at its own time.
    const messages = page.getByTestId('messages').locator('li');
    await expect(messages.first()).toContainText(truth.prompts[0]!);
    await expect(messages).toHaveCount(truth.messages.length);
    await expect(messages.nth(1)).toContainText(truth.messages[1]!.text);
    await expect(messages.first().locator('.role')).toHaveText('user');
    await expect(messages.nth(1).locator('.role')).toHaveText('assistant');

    // A diff of one of its edits.
    await page.goto(`/#/checkpoints?session=${imported!.sessionId}`);
    const entries = page.getByTestId('entries').getByRole('link');
    await expect(entries.first()).toBeVisible();
    await entries.first().click();
    await expect(page.getByTestId('diff').locator('.d2h-ins, .d2h-del').first()).toBeVisible();

    // Imported again: nothing added.
    const before = await page.evaluate(
      async (id) => (await globalThis.agentBrain!.listEvents(id)).length,
      imported!.sessionId,
    );
    await page.goto('/#/demo');
    expect(await dropFolder(page, 'ledger', projectFolder)).toBe(true);
    await expect(page.getByTestId('history-result')).toContainText('updated: 0 prompts, 0 tool calls');
    expect(
      await page.evaluate(
        async (id) => (await globalThis.agentBrain!.listEvents(id)).length,
        imported!.sessionId,
      ),
    ).toBe(before);

    // With the demo project open, the session is still its own project (ledger, the agent's cwd): writing the
    // handoff asks, names that folder and writes nothing into the demo, whose files stay byte for byte.
    await page.goto('/#/project');
    await page.getByRole('button', { name: 'Open the demo project' }).click();
    await expect(page.getByTestId('project-name')).toBeVisible();
    const demoFiles = () =>
      page.evaluate(async () => {
        const brain = globalThis.agentBrain!;
        const paths = [
          '.agent/SESSION_SUMMARY.md',
          '.agent/plan/PLAN.md',
          '.agent/SESSION.jsonl',
          'AGENTS.md',
        ];
        return Promise.all(
          paths.map((path) =>
            brain.readProjectBytes(path).then(
              (f) => [path, Array.from(f.bytes).join(',')],
              () => [path, null],
            ),
          ),
        );
      });
    const demoBefore = await demoFiles();
    await page.goto('/#/sessions');
    const kept = page.getByTestId('history-imported');
    await kept.locator('summary').click();
    await expect(kept.getByTestId('handoff-project')).toHaveText(
      `Project: ledger — the agent worked in ${truth.cwd}.`,
    );
    await kept.getByTestId('handoff-write').click();
    const ask = kept.getByTestId('handoff-ask');
    await expect(ask).toContainText("This session's project is ledger");
    await expect(ask).toContainText('The open project, demo, is not it: nothing is written there.');
    await expect(ask.getByRole('button', { name: 'Open the folder ledger…' })).toBeVisible();
    await expect(ask.getByRole('button', { name: /^Write into/ })).toHaveCount(0);
    // Its plan, resume point and rollback use none of the demo's files either.
    const point = await page.evaluate((id) => globalThis.agentBrain!.resumePoint(id), imported!.sessionId);
    expect(point.load.files).toEqual([]);
    const [firstTask] = await page.evaluate(
      (id) => globalThis.agentBrain!.listTasks(id),
      imported!.sessionId,
    );
    const refused = await page.evaluate(
      (taskId) =>
        globalThis.agentBrain!.planRestore({ taskId }).then(
          () => null,
          (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }),
        ),
      firstTask!.id,
    );
    expect(refused).toMatchObject({ code: 'PermissionDenied' });
    expect(refused?.message).toContain('"ledger"');
    expect(await demoFiles()).toEqual(demoBefore);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
