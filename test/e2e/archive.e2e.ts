import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { readFile } from 'node:fs/promises';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { expectAccessible, saveScreenshot } from './ui-helpers';

// Whole-brain archives through the Storage view: export from one browser, import into the same brain after it
// moved on and into a fresh browser (the brain wiped), and tampered archives refused with nothing changed.
test.describe.configure({ mode: 'serial' });

interface Archive {
  readonly name: string;
  readonly mimeType: string;
  readonly buffer: Buffer;
}

/** Everything an archive must bring back, read through the public API; files and bodies as SHA-256 + bytes. */
interface BrainSnapshot {
  readonly sessions: { readonly title: string; readonly tasks: string[] }[];
  readonly steps: number;
  readonly checkpoint: { readonly path: string; readonly before: number[]; readonly after: string };
  readonly project: string | null;
  readonly files: Record<string, string>;
  readonly integrity: string[];
}

const agentFilesOfTheDemo = [
  '.agent/HISTORY.jsonl',
  '.agent/MEMORY.md',
  '.agent/PROJECT_MEMORY.md',
  '.agent/plan/PLAN.md',
  '.agent/plan/PROGRESS.md',
  '.agent/skills/run-tests/SKILL.md',
];

let first: Profile;
let second: Profile;
let contextA: BrowserContext;
let contextB: BrowserContext;
let pageA: Page;
let pageB: Page;
let errors: string[] = [];
let exported: Archive;
let original: BrainSnapshot;
let entryId: number;

test.beforeAll(async () => {
  first = await createProfile();
  second = await createProfile();
  contextA = await first.launch();
  pageA = await openApp(contextA);
  errors = watchErrors(pageA);
});

test.afterAll(async () => {
  await contextA?.close();
  await contextB?.close();
  await first?.dispose();
  await second?.dispose();
});

test.afterEach(() => {
  expect(errors, 'console errors').toEqual([]);
});

function snapshot(page: Page, checkpointId: number): Promise<BrainSnapshot> {
  return page.evaluate(async (id) => {
    const brain = globalThis.agentBrain!;
    const hex = async (bytes: Uint8Array) =>
      [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))]
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('');
    const sessions = [];
    let steps = 0;
    for (const session of [...(await brain.listSessions())].sort((a, b) => a.id - b.id)) {
      const tasks = [...(await brain.listTasks(session.id))].sort((a, b) => a.id - b.id);
      for (const task of tasks) steps += (await brain.listSteps(task.id)).length;
      sessions.push({ title: session.title, tasks: tasks.map((t) => `${t.title} (${t.state})`) });
    }
    const entry = await brain.readCheckpoint(id as never);
    const project = await brain.projectInfo();
    const files: Record<string, string> = {};
    for (const file of project ? await brain.listAgentFiles() : []) {
      files[file.path] = await hex((await brain.readProjectBytes(file.path)).bytes);
    }
    return {
      sessions,
      steps,
      checkpoint: {
        path: entry.path,
        before: entry.before instanceof Uint8Array ? [...entry.before] : [],
        after: String(entry.after),
      },
      project: project?.name ?? null,
      files,
      integrity: await brain.integrityCheck(),
    };
  }, checkpointId);
}

/** Records every text the archive panel's progress bar shows (the engine reports faster than a poll sees). */
async function recordProgress(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (globalThis as unknown as { progressSeen: string[] }).progressSeen = seen;
    const panel = document.querySelector('[data-testid="archive-panel"]')!;
    new MutationObserver(() => {
      const bar = panel.querySelector('[data-testid="progress"]');
      const text = bar?.textContent?.replace(/\s+/g, ' ').trim();
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(panel, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (globalThis as unknown as { progressSeen: string[] }).progressSeen);
}

/** Picks `archive` in the Storage view; resolves with the confirmation dialog. */
async function pickArchive(page: Page, archive: Archive) {
  await page.getByLabel('Import a brain…').setInputFiles(archive);
  const dialog = page.getByRole('dialog', { name: /^Replace this brain with/ });
  await expect(dialog).toBeVisible();
  return dialog;
}

function rezip(change: (entries: Record<string, Uint8Array>) => void): Buffer {
  const entries = unzipSync(new Uint8Array(exported.buffer));
  change(entries);
  return Buffer.from(zipSync(entries));
}

function withManifest(
  change: (manifest: { database: { schemaVersion: number }; files: { path: string }[] }) => void,
) {
  return rezip((entries) => {
    const manifest = JSON.parse(strFromU8(entries['manifest.json']!));
    change(manifest);
    entries['manifest.json'] = strToU8(JSON.stringify(manifest));
  });
}

test('the whole brain exports from the Storage view: one zip of agent.db and the .agent folder, with progress', async () => {
  // The demo project (kept in this browser, no folder picked) is the open project.
  await pageA.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Project' }).click();
  await pageA.getByRole('button', { name: 'Open the demo project' }).click();
  await expect(pageA.getByTestId('project-name')).toContainText('demo');
  entryId = await pageA.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const first = await brain.startSession({ title: 'Archive: the parser session' });
    const parent = await brain.startTask({ sessionId: first.id, title: 'Rewrite the parser' });
    const child = await brain.startTask({
      sessionId: first.id,
      title: 'Child: the lexer',
      parentTaskId: parent.id,
    });
    await brain.recordStep({
      taskId: child.id,
      tool: 'grep',
      params: { pattern: 'TOKEN_' },
      result: { hits: 7 },
      status: 'ok',
    });
    await brain.recordStep({ taskId: parent.id, tool: 'edit', result: 'x'.repeat(20_000), status: 'ok' });
    await brain.setTaskState(child.id, 'done');
    // A binary body with every byte value: byte-exactness is visible.
    const before = new Uint8Array(70_000).map((_, i) => (i * 131 + (i >> 8)) % 256);
    const { id } = await brain.checkpointFile({
      taskId: parent.id,
      path: 'src/parser.bin',
      before,
      after: 'parsed ✓\n',
    });
    const second = await brain.startSession({ title: 'Archive: the docs session' });
    await brain.startTask({ sessionId: second.id, title: 'Document the grammar' });
    return id as number;
  });
  original = await snapshot(pageA, entryId);
  expect(Object.keys(original.files).sort()).toEqual(agentFilesOfTheDemo);
  expect(original.sessions.map((s) => s.title)).toEqual([
    'Archive: the parser session',
    'Archive: the docs session',
  ]);

  await pageA.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Storage' }).click();
  const panel = pageA.getByTestId('archive-panel');
  await expect(panel.getByTestId('archive-contents')).toContainText(
    '6 files of .agent in the project “tiny-paginate”',
  );
  const progress = await recordProgress(pageA);
  const download = pageA.waitForEvent('download');
  await panel.getByRole('button', { name: 'Export the whole brain' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^demo-brain-\d{4}-\d{2}-\d{2}-\d{4}\.zip$/);
  exported = {
    name: file.suggestedFilename(),
    mimeType: 'application/zip',
    buffer: await readFile(await file.path()),
  };
  await expect(panel.getByTestId('archive-export-done')).toContainText(
    `as ${exported.name} (agent.db and 6 .agent files)`,
  );
  const seen = await progress();
  expect(
    seen.some((text) => /^Reading the \.agent files….*\d of 6/.test(text)),
    seen.join(' | '),
  ).toBe(true);
  expect(
    seen.some((text) => /^Preparing the download….* of .*\(\d+ %\)/.test(text)),
    seen.join(' | '),
  ).toBe(true);

  const entries = unzipSync(new Uint8Array(exported.buffer));
  const manifest = JSON.parse(strFromU8(entries['manifest.json']!)) as { files: { path: string }[] };
  expect(manifest.files.map((f) => f.path).sort()).toEqual(agentFilesOfTheDemo);
  expect(strFromU8(entries['agent.db']!.subarray(0, 15))).toBe('SQLite format 3');
  await saveScreenshot(pageA, 'archive-exported-light');
  await expectAccessible(pageA, 'storage with the archive panel');
});

test('importing into a brain that moved on says what it replaces, then every view shows the archived brain', async () => {
  await pageA.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    await brain.startSession({ title: 'Made after the export' });
    const memory = await brain.readAgentFile('.agent/MEMORY.md');
    await brain.writeAgentFile('.agent/MEMORY.md', `${memory.text}\n- Changed after the export.\n`, {
      expectedVersion: memory.version,
    });
    await brain.writeAgentFile('.agent/notes.md', '# Notes made after the export\n', {
      expectedVersion: null,
    });
  });
  const dialog = await pickArchive(pageA, exported);
  await expect(dialog.getByTestId('archive-peek')).toContainText(
    /agent\.db of .* \(schema version \d+\) and 6 \.agent files/,
  );
  await expect(dialog.getByTestId('replace-database')).toContainText('3 sessions and everything in them');
  await expect(dialog.getByTestId('replace-files')).toContainText(
    '.agent files in the project “tiny-paginate” (kept in this browser): 6 files replaced and 0 added; 1 file not in the archive stays as it is.',
  );
  await saveScreenshot(pageA, 'archive-confirm-light');
  await expectAccessible(pageA, 'the import confirmation');

  const progress = await recordProgress(pageA);
  await dialog.getByRole('button', { name: 'Replace this brain' }).click();
  const done = pageA.getByTestId('archive-import-done');
  await expect(done).toContainText(`Imported ${exported.name}: the database (schema version`);
  await expect(done).toContainText(
    'and 6 .agent files into the project “tiny-paginate”. 1 file of the project',
  );
  const seen = await progress();
  expect(
    seen.some((text) => /^Writing the \.agent files….*\d of 6/.test(text)),
    seen.join(' | '),
  ).toBe(true);

  const after = await snapshot(pageA, entryId);
  expect(after).toEqual({ ...original, files: { ...original.files, '.agent/notes.md': expect.any(String) } });

  // The views follow without a reload: the session made after the export is gone, the archived ones are back.
  await pageA
    .getByRole('navigation', { name: 'Views' })
    .getByRole('link', { name: 'Sessions & tasks' })
    .click();
  await expect(pageA.getByRole('button', { name: /Archive: the parser session/ })).toBeVisible();
  await expect(pageA.getByRole('button', { name: /Made after the export/ })).toHaveCount(0);
  await pageA.goto('/#/project?file=.agent/MEMORY.md');
  await expect(pageA.getByTestId('document').getByTestId('preview')).not.toContainText(
    'Changed after the export',
  );
  await expect(pageA.getByTestId('document').getByTestId('preview')).toContainText('Memory');
});

test('a fresh browser (the brain wiped) gets every session, task, checkpoint body and .agent file back', async () => {
  contextB = await second.launch();
  pageB = await openApp(contextB, '/#/storage');
  errors = watchErrors(pageB);
  const dialog = await pickArchive(pageB, exported);
  await expect(dialog.getByTestId('replace-database')).toContainText('0 sessions and everything in them');
  await expect(dialog.getByTestId('replace-files')).toContainText('No project is open');
  const name = dialog.getByLabel('Project name');
  await expect(name).toHaveValue('demo-imported');
  await name.fill('demo');
  await expect(dialog.getByRole('alert')).toContainText('built-in demo project');
  await expect(dialog.getByRole('button', { name: 'Replace this brain' })).toBeDisabled();
  await name.fill('restored brain');
  await dialog.getByRole('button', { name: 'Replace this brain' }).click();
  await expect(pageB.getByTestId('archive-import-done')).toContainText(
    '6 .agent files into the project “restored brain”',
  );

  const restored = await snapshot(pageB, entryId);
  expect(restored).toEqual({ ...original, project: 'restored brain' });
  expect(restored.checkpoint.before.length).toBe(70_000);

  // The next visit reopens the project the files went into, and the Sessions view shows the brain.
  await pageB.goto('/#/sessions');
  await pageB.reload();
  await pageB.waitForFunction(() => globalThis.agentBrain !== undefined);
  await expect(pageB.getByRole('button', { name: /Archive: the docs session/ })).toBeVisible();
  await pageB.goto('/#/project');
  await expect(pageB.getByTestId('project-name')).toContainText('restored brain');
  await saveScreenshot(pageB, 'archive-restored-project-light');
});

test('tampered archives are refused with a clear message and nothing changes', async () => {
  await pageB.goto('/#/storage');
  const before = await snapshot(pageB, entryId);
  const middle = Math.floor(exported.buffer.length / 2);
  const flipped = Buffer.from(exported.buffer);
  flipped[middle] = flipped[middle]! ^ 0xff;
  const tampered = (buffer: Buffer): Archive => ({
    name: `tampered-brain-2026-01-01-0000.zip`,
    mimeType: 'application/zip',
    buffer,
  });
  // The engine reads the manifest ahead: what it refuses there is said in the confirmation, with the import off.
  const refusedAhead: [string, Buffer, RegExp][] = [
    [
      'a truncated zip',
      exported.buffer.subarray(0, exported.buffer.length - 300),
      /^This archive cannot be imported: the zip is damaged or truncated/,
    ],
    [
      'a path escaping the folder',
      withManifest((m) => (m.files[0]!.path = '.agent/../../outside.md')),
      /"\.agent\/\.\.\/\.\.\/outside\.md" is refused: "\.\." leaves the project folder\.$/,
    ],
    [
      'a newer schema',
      withManifest((m) => (m.database.schemaVersion = 999)),
      /schema version 999; this build knows up to \d+\. Update the app to import it\. Nothing was changed\.$/,
    ],
  ];
  for (const [what, buffer, message] of refusedAhead) {
    const dialog = await pickArchive(pageB, tampered(buffer));
    await expect(dialog.getByTestId('archive-peek'), what).toContainText(message);
    const replace = dialog.getByRole('button', { name: 'Replace this brain' });
    await expect(replace, what).toBeDisabled();
    await expect(replace, what).toHaveAccessibleDescription(message);
    await expect(dialog.getByTestId('replace-database'), what).toHaveCount(0);
    if (what === 'a newer schema') {
      await saveScreenshot(pageB, 'archive-refused-light');
      await expectAccessible(pageB, 'a refused archive');
    }
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await snapshot(pageB, entryId), `${what}: nothing changed`).toEqual(before);
  }
  // What only the whole archive tells (bytes inside agent.db, a file's hash): refused by the import.
  const refusedByImport: [string, Buffer, RegExp][] = [
    ['one byte changed inside the zip', flipped, /This archive cannot be imported: .*Nothing was changed\.$/],
    [
      'a file that does not match its hash',
      // Same size, one letter changed: only the hash can tell.
      rezip(
        (e) =>
          (e['project/.agent/MEMORY.md'] = strToU8(
            strFromU8(e['project/.agent/MEMORY.md']!).replace('M', 'm'),
          )),
      ),
      /\.agent\/MEMORY\.md does not match its SHA-256 in the manifest\. Nothing was changed\.$/,
    ],
  ];
  for (const [what, buffer, message] of refusedByImport) {
    const dialog = await pickArchive(pageB, tampered(buffer));
    await expect(dialog.getByTestId('archive-peek'), what).toContainText(/^The archive was made /);
    await dialog.getByRole('button', { name: 'Replace this brain' }).click();
    const error = pageB.getByTestId('archive-import-error');
    await expect(error, what).toContainText(/^Import refused\. /);
    await expect(error, what).toContainText(message);
    expect(await snapshot(pageB, entryId), `${what}: nothing changed`).toEqual(before);
  }
  // Cancelling the confirmation changes nothing either.
  const dialog = await pickArchive(pageB, exported);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await snapshot(pageB, entryId)).toEqual(before);
});
