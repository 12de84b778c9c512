/**
 * Dropping a folder on "Open an agent's history". Playwright cannot drag a real directory: the drop hands the page
 * Chromium's entry shape (`webkitGetAsEntry()` entries whose readers return batches, then an empty one) over real
 * File objects, as project-zip.e2e.ts does.
 */
import type { Page } from '@playwright/test';

export const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Drops a folder `name` holding `files` (path → base64 bytes) on the history panel. */
export function dropFolder(page: Page, name: string, files: Record<string, string>) {
  return page.evaluate(
    ({ name, files }) => {
      interface Dir {
        dirs: Map<string, Dir>;
        files: Map<string, Uint8Array<ArrayBuffer>>;
      }
      const root: Dir = { dirs: new Map(), files: new Map() };
      for (const [path, b64] of Object.entries(files)) {
        const parts = path.split('/');
        let dir = root;
        for (const part of parts.slice(0, -1)) {
          if (!dir.dirs.has(part)) dir.dirs.set(part, { dirs: new Map(), files: new Map() });
          dir = dir.dirs.get(part)!;
        }
        dir.files.set(
          parts.at(-1)!,
          Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)),
        );
      }
      const fileEntry = (n: string, bytes: Uint8Array<ArrayBuffer>) => ({
        name: n,
        isFile: true,
        isDirectory: false,
        file: (ok: (file: File) => void) => setTimeout(() => ok(new File([bytes], n))),
      });
      const dirEntry = (n: string, dir: Dir): object => ({
        name: n,
        isFile: false,
        isDirectory: true,
        createReader() {
          const children = [
            ...[...dir.dirs].map(([k, d]) => dirEntry(k, d)),
            ...[...dir.files].map(([k, b]) => fileEntry(k, b)),
          ];
          let next = 0;
          return {
            readEntries: (ok: (batch: object[]) => void) =>
              setTimeout(() => ok(children.slice(next, (next += 2)))),
          };
        },
      });
      const entry = dirEntry(name, root);
      const transfer = {
        types: ['Files'],
        files: [],
        items: [{ kind: 'file', webkitGetAsEntry: () => entry }],
        dropEffect: 'none',
      };
      const event = new DragEvent('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: transfer });
      document.querySelector('[data-testid="open-history"]')!.dispatchEvent(event);
      return event.defaultPrevented;
    },
    { name, files },
  );
}
