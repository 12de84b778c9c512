import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { createProfile, openApp, watchErrors } from './harness';
import { saveScreenshot } from './ui-helpers';

// The project chooser's "Import a folder…" takes a copy of a real directory; "Export as zip" gives it back.
// The zip must hold every file byte for byte, and importing that zip must give back the same files again.

/** A small project with the awkward cases: CRLF, no final newline, a torn JSONL tail, binary, unicode, nesting. */
const project: Record<string, Uint8Array> = {
  '.agent/MEMORY.md': utf8('# Memory\r\n\r\n- Prefers `pnpm`; never force-push.\r\n'),
  '.agent/PROJECT_MEMORY.md': utf8('# Project\n\nBuild: `npm run build` (no trailing newline)'),
  '.agent/SESSION_SUMMARY.md': utf8('# Session summary\n\n## Next action\n\nRun the tests again.\n'),
  '.agent/HISTORY.jsonl': utf8('{"kind":"decision","text":"use fflate"}\n{"kind":"file_change","pa'),
  '.agent/plan/PLAN.md': utf8('# Plan\n\n- [x] 1. Read the code\n- [ ] 2. Fix the bug\n'),
  '.agent/skills/run-tests/SKILL.md': utf8(
    '---\nname: run-tests\n---\n\n# Run the tests\n\nÜbung macht den Meister — テスト.\n',
  ),
  'src/index.ts': utf8('export const answer = 42;\n'),
  'assets/logo.bin': Uint8Array.from({ length: 777 }, (_, i) => (i * 37 + 11) % 256),
};

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

async function downloadedZip(page: Page): Promise<{ zip: Uint8Array; files: Record<string, Uint8Array> }> {
  const download: Promise<Download> = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as zip' }).click();
  const zip = new Uint8Array(await readFile(await (await download).path()));
  // Directories show up as empty entries ending in '/': only files are compared.
  const files = Object.entries(unzipSync(zip)).filter(([path]) => !path.endsWith('/'));
  return { zip, files: relativeTo(Object.fromEntries(files)) };
}

/** The zip may put the files under the project's name: compare paths relative to the folder root. */
function relativeTo(entries: Record<string, Uint8Array>): Record<string, Uint8Array> {
  const paths = Object.keys(entries);
  const first = paths[0]?.split('/')[0];
  const prefixed =
    first !== undefined && !first.startsWith('.') && paths.every((p) => p.startsWith(`${first}/`));
  if (!prefixed || Object.keys(project).some((p) => p.startsWith(`${first}/`))) return entries;
  return Object.fromEntries(Object.entries(entries).map(([p, bytes]) => [p.slice(first.length + 1), bytes]));
}

function expectSameFiles(actual: Record<string, Uint8Array>, expected: Record<string, Uint8Array>) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [path, bytes] of Object.entries(expected)) {
    expect(Buffer.from(actual[path]!).equals(Buffer.from(bytes)), `${path} byte for byte`).toBe(true);
  }
}

test('an imported folder exports as a zip that round-trips byte for byte', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'agent-brain-project-'));
  const root = join(folder, 'zip-roundtrip');
  for (const [path, bytes] of Object.entries(project)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), bytes);
  }
  const profile = await createProfile();
  const context = await profile.launch();
  try {
    const page = await openApp(context, '/#/project');
    const errors = watchErrors(page);
    await expect(page.getByRole('heading', { name: 'Open a project' })).toBeVisible();

    await page.getByLabel('Import a folder…').setInputFiles(root);
    await expect(page.getByTestId('project-name')).toContainText('zip-roundtrip');
    await expect(page.getByTestId('agent-files')).toContainText('HISTORY.jsonl');
    const first = await downloadedZip(page);
    expectSameFiles(first.files, project);

    // The exported zip, imported under another name, exports the same files again.
    await page.getByRole('button', { name: 'Close project' }).click();
    await page.getByLabel('Name in this browser (optional)').fill('zip-roundtrip-again');
    const zipPath = join(folder, 'exported.zip');
    await writeFile(zipPath, first.zip);
    await page.getByLabel('Import a zip…').setInputFiles(zipPath);
    await expect(page.getByTestId('project-name')).toContainText('zip-roundtrip-again');
    expectSameFiles((await downloadedZip(page)).files, project);

    expect(errors, 'console errors').toEqual([]);
  } finally {
    await context.close();
    await profile.dispose();
    await rm(folder, { recursive: true, force: true });
  }
});

/**
 * Drag and drop. Playwright cannot drag a real directory from the desktop, so the folder drop hands the page the
 * same shape Chromium gives a drop handler (`webkitGetAsEntry()` entries whose readers return batches, ending with
 * an empty one), built over real File objects. The zip drop is a real DataTransfer holding a real File.
 */
test('a folder or a zip dropped on the chooser is imported as a copy, and exports back byte for byte', async () => {
  const profile = await createProfile();
  const context = await profile.launch();
  try {
    const page = await openApp(context, '/#/project');
    const errors = watchErrors(page);
    const chooser = page.getByTestId('project-chooser');
    await expect(chooser).toContainText('drop a folder or a .zip here');

    const withSkipped = {
      ...project,
      '.git/config': utf8('[core]\n'),
      'node_modules/left-pad/index.js': utf8('module.exports = 1;\n'),
    };
    const tree = Object.fromEntries(Object.entries(withSkipped).map(([path, bytes]) => [path, [...bytes]]));
    const dropFolder = (files: Record<string, number[]>, phase: 'dragover' | 'drop') =>
      page.evaluate(
        ({ files, phase }) => {
          interface Dir {
            dirs: Map<string, Dir>;
            files: Map<string, Uint8Array<ArrayBuffer>>;
          }
          const root: Dir = { dirs: new Map(), files: new Map() };
          for (const [path, bytes] of Object.entries(files)) {
            const parts = path.split('/');
            let dir = root;
            for (const part of parts.slice(0, -1)) {
              if (!dir.dirs.has(part)) dir.dirs.set(part, { dirs: new Map(), files: new Map() });
              dir = dir.dirs.get(part)!;
            }
            dir.files.set(parts.at(-1)!, Uint8Array.from(bytes));
          }
          const fileEntry = (name: string, bytes: Uint8Array<ArrayBuffer>) => ({
            name,
            isFile: true,
            isDirectory: false,
            file: (ok: (file: File) => void) => setTimeout(() => ok(new File([bytes], name))),
          });
          const dirEntry = (name: string, dir: Dir): object => ({
            name,
            isFile: false,
            isDirectory: true,
            createReader() {
              const children = [
                ...[...dir.dirs].map(([n, d]) => dirEntry(n, d)),
                ...[...dir.files].map(([n, b]) => fileEntry(n, b)),
              ];
              let next = 0;
              // Like Chromium: a few entries per call, then an empty batch at the end.
              return {
                readEntries: (ok: (batch: object[]) => void) =>
                  setTimeout(() => ok(children.slice(next, (next += 2)))),
              };
            },
          });
          const entry = dirEntry('dropped-folder', root);
          const transfer = {
            types: ['Files'],
            files: [],
            items: [{ kind: 'file', webkitGetAsEntry: () => entry }],
            dropEffect: 'none',
          };
          const event = new DragEvent(phase, { bubbles: true, cancelable: true });
          Object.defineProperty(event, 'dataTransfer', { value: transfer });
          document.querySelector('[data-testid="project-chooser"]')!.dispatchEvent(event);
          return { prevented: event.defaultPrevented, dropEffect: transfer.dropEffect };
        },
        { files, phase },
      );

    // Dragging over the chooser accepts the drop and says what will happen.
    expect(await dropFolder(tree, 'dragover')).toEqual({ prevented: true, dropEffect: 'copy' });
    await expect(chooser.getByText('Drop a folder or a .zip to import a copy')).toBeVisible();
    await saveScreenshot(page, 'project-drop-light');
    expect((await dropFolder(tree, 'drop')).prevented).toBe(true);
    await expect(page.getByTestId('project-name')).toContainText('dropped-folder');
    await expect(page.getByRole('status').filter({ hasText: 'Imported 8 files' })).toBeVisible();
    // .git and node_modules stay behind, everything else comes back byte for byte.
    const first = await downloadedZip(page);
    expectSameFiles(first.files, project);

    // A dropped .zip is imported as a zip, named after the file.
    await page.getByRole('button', { name: 'Close project' }).click();
    await expect(chooser).toBeVisible();
    await page.evaluate(
      (zip) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([Uint8Array.from(zip)], 'dropped zip.zip', { type: 'application/zip' }));
        const event = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer });
        document.querySelector('[data-testid="project-chooser"]')!.dispatchEvent(event);
      },
      [...first.zip],
    );
    await expect(page.getByTestId('project-name')).toContainText('dropped-zip');
    expectSameFiles((await downloadedZip(page)).files, project);

    // A file dropped anywhere else is refused, not opened by the browser in place of the app.
    const stray = await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['# notes\n'], 'notes.md', { type: 'text/markdown' }));
      const event = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer });
      document.querySelector('header')!.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(stray, 'a stray drop is taken by the app (no navigation to the file)').toBe(true);

    // A dropped empty folder imports nothing and says so.
    await page.getByRole('button', { name: 'Close project' }).click();
    await expect(chooser).toBeVisible();
    await dropFolder({}, 'drop');
    await expect(page.getByRole('alert')).toContainText('Nothing to import: the drop held no files');
    await expect(page.getByRole('heading', { name: 'Open a project' })).toBeVisible();

    expect(errors, 'console errors').toEqual([]);
  } finally {
    await context.close();
    await profile.dispose();
  }
});
