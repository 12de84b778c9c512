/**
 * An imported session rolled back into a project folder opened in the app. A Claude-Code-shaped project folder
 * (test/fixtures/transcripts/claude-code.ts: its paths are absolute, under the agent's cwd
 * `/home/dev/projects/ledger`) is dropped on "Open an agent's history"; then "Open a folder…" opens the person's
 * checkout of that project — a folder in the origin's private file system standing in for the picked one
 * (`showDirectoryPicker` cannot be driven by automation; it returns the same `FileSystemDirectoryHandle`), holding
 * the file as the agent left it. One edit's diff is opened and that file rolled back: the folder's bytes (read
 * straight from the OPFS directory, not through the brain) are then the body the transcript itself recorded before
 * the edit (`toolUseResult.originalFile`). Then the handoff with the pointer box ticked: AGENTS.md keeps its own
 * CRLF bytes and gains the pointer line once; `.agent/SESSION_SUMMARY.md` holds the handoff.
 */
import { expect, test } from '@playwright/test';
import { decodeLines, generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
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
const folderName = 'ledger-checkout';
const pointer = 'See .agent/SESSION_SUMMARY.md for where the last session stopped and what to do next.';
const agentsMd = '# Ledger\r\n\r\nUse `pnpm test`; amounts are integer cents.\r\n';

/** The first main-thread Edit in the transcript: its file, the body it found and the body it left. */
function firstEdit() {
  for (const line of decodeLines(fixture.main.bytes).lines) {
    let record: {
      type?: string;
      isSidechain?: boolean;
      toolUseResult?: { filePath?: string; oldString?: string; originalFile?: unknown };
      message?: { content?: { tool_use_id?: string }[] };
    };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    const result = record.toolUseResult;
    const id = record.message?.content?.[0]?.tool_use_id;
    if (
      record.type !== 'user' ||
      record.isSidechain === true ||
      typeof result?.oldString !== 'string' ||
      typeof result.originalFile !== 'string' ||
      id === undefined ||
      truth.afterBodies[id] === undefined
    )
      continue;
    const path = result.filePath!.slice(`${truth.cwd}/`.length);
    return { path, before: result.originalFile, after: truth.afterBodies[id] };
  }
  throw new Error('the fixture has no Edit with its original file');
}

test('an imported session’s edit rolled back into an opened project folder; the handoff and its pointer line there', async () => {
  const edit = firstEdit();
  expect(edit.path).toMatch(/^src\/[\w-]+\.ts$/);
  expect(edit.before).not.toBe(edit.after);

  const context = await profile.launch();
  // The picker returns an OPFS folder: the same FileSystemDirectoryHandle a picked folder is.
  await context.addInitScript((name) => {
    Object.defineProperty(window, 'showDirectoryPicker', {
      configurable: true,
      value: async () => (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true }),
    });
  }, folderName);
  try {
    const page = await openApp(context, '/');
    const errors = watchErrors(page);

    // The person's checkout: the edited file as the agent left it, and their own AGENTS.md (CRLF).
    await page.evaluate(
      async ({ name, files }) => {
        const root = await (
          await navigator.storage.getDirectory()
        ).getDirectoryHandle(name, { create: true });
        for (const [path, text] of Object.entries(files)) {
          const parts = path.split('/');
          let dir = root;
          for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
          const writable = await (await dir.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
          await writable.write(text);
          await writable.close();
        }
      },
      { name: folderName, files: { [edit.path]: edit.after, 'AGENTS.md': agentsMd } },
    );
    /** A file's bytes as they are in the folder (base64), straight from OPFS; null when absent. */
    const folderBytes = (path: string) =>
      page.evaluate(
        async ({ name, path }) => {
          try {
            let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
            const parts = path.split('/');
            for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
            const bytes = new Uint8Array(
              await (await (await dir.getFileHandle(parts.at(-1)!)).getFile()).arrayBuffer(),
            );
            let binary = '';
            for (const b of bytes) binary += String.fromCharCode(b);
            return btoa(binary);
          } catch (error) {
            if (error instanceof DOMException && error.name === 'NotFoundError') return null;
            throw error;
          }
        },
        { name: folderName, path },
      );
    const folderText = async (path: string) => {
      const b64 = await folderBytes(path);
      return b64 === null ? null : Buffer.from(b64, 'base64').toString('utf8');
    };

    // The agent's history, dropped.
    const panel = page.getByTestId('open-history');
    expect(
      await dropFolder(page, 'ledger', {
        [fixture.main.name]: base64(fixture.main.bytes),
        [fixture.subagent.name]: base64(fixture.subagent.bytes),
      }),
    ).toBe(true);
    await expect(
      panel.getByTestId('history-result').getByRole('link', { name: `Claude Code · ${truth.title}` }),
    ).toBeVisible();
    const [imported] = await page.evaluate(() => globalThis.agentBrain!.listImportedSessions());
    const sessionId = imported!.sessionId;

    // The project folder, opened through the picker.
    await page.goto('/#/project');
    await page.getByRole('button', { name: 'Open a folder…' }).click();
    await expect(page.getByTestId('project-name')).toContainText(`${folderName} · a folder on this computer`);

    // The folder is not named as the agent's (ledger): until the person says it is that project, nothing of the
    // session goes into it. Asked from the handoff, both named.
    await page.goto('/#/sessions');
    const imports = page.getByTestId('history-imported');
    await imports.locator('summary').click();
    await expect(imports.getByTestId('handoff-project')).toHaveText(
      `Project: ledger — the agent worked in ${truth.cwd}.`,
    );
    await imports.getByTestId('handoff-write').click();
    const asked = imports.getByTestId('handoff-ask');
    await expect(asked).toContainText(
      `The open project, ${folderName}, is not it: nothing is written there.`,
    );
    expect(await folderText('.agent/SESSION_SUMMARY.md')).toBeNull();
    await asked.getByRole('button', { name: `${folderName} is ledger (a checkout of it)` }).click();
    await expect(asked).toContainText(`into ${folderName}, this session's project`);

    // The checkpoint entry of that edit (found by what the transcript says it left), its diff, its rollback.
    const entry = await page.evaluate(
      async ({ sessionId, path, after }) => {
        const brain = globalThis.agentBrain!;
        for (const task of await brain.listTasks(sessionId)) {
          for (const e of await brain.listCheckpoints(task.id)) {
            if (e.path !== path) continue;
            if ((await brain.readCheckpoint(e.id)).after === after) return { id: e.id, taskId: task.id };
          }
        }
        return null;
      },
      { sessionId, path: edit.path, after: edit.after },
    );
    expect(entry, `a checkpoint entry of ${edit.path}`).not.toBeNull();
    await page.goto(`/#/checkpoints?session=${sessionId}&task=${entry!.taskId}&entry=${entry!.id}`);
    await expect(page.locator('#entry-heading')).toHaveText(edit.path);
    await expect(page.getByTestId('diff').locator('.d2h-ins, .d2h-del').first()).toBeVisible();
    await page.getByRole('button', { name: 'Roll back this file…' }).click();
    const dialog = page.getByTestId('rollback-dialog');
    await expect(dialog.getByRole('listitem')).toHaveCount(1);
    await expect(dialog.getByRole('listitem')).toContainText(edit.path);
    await expect(dialog.getByRole('listitem')).toContainText('as the agent left it: will be restored');
    await dialog.getByRole('button', { name: 'Roll back 1 file' }).click();
    await expect(page.getByTestId('rollback-done')).toContainText('Rolled back 1 file.');
    // The folder holds the body from before the edit, byte for byte.
    const restored = await folderBytes(edit.path);
    expect(restored).not.toBeNull();
    expect(Buffer.from(restored!, 'base64').equals(Buffer.from(edit.before, 'utf8'))).toBe(true);

    // The handoff, written into the same folder with the pointer line (box ticked), twice: the line once.
    await page.goto('/#/sessions');
    const kept = page.getByTestId('history-imported');
    await kept.locator('summary').click();
    // Asked first, the folder named: the open folder is this session's project.
    await kept.getByTestId('handoff-write').click();
    const ask = kept.getByTestId('handoff-ask');
    await expect(ask).toContainText(`into ${folderName}, this session's project`);
    await ask.getByLabel(`also add a pointer line to AGENTS.md (or CLAUDE.md) in ${folderName}`).check();
    await ask.getByRole('button', { name: `Write into ${folderName}` }).click();
    await expect(kept.getByRole('status')).toHaveText(
      `Written into ${folderName}: .agent/SESSION_SUMMARY.md; pointer line added to AGENTS.md.`,
    );
    const expectedAgents = `${agentsMd}\r\n${pointer}\r\n`;
    expect(await folderText('AGENTS.md')).toBe(expectedAgents);
    const handoff = await folderText('.agent/SESSION_SUMMARY.md');
    expect(handoff).toMatch(/^# Picking up where an agent stopped: /);
    expect(handoff).toContain('**Goal:**');
    expect(handoff).toContain(edit.path);
    await kept.getByTestId('handoff-write').click();
    await ask.getByLabel(`also add a pointer line to AGENTS.md (or CLAUDE.md) in ${folderName}`).check();
    await ask.getByRole('button', { name: `Write into ${folderName}` }).click();
    await expect(kept.getByRole('status')).toHaveText(
      `Written into ${folderName}: .agent/SESSION_SUMMARY.md; the pointer line was already in AGENTS.md.`,
    );
    expect(await folderText('AGENTS.md')).toBe(expectedAgents);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
