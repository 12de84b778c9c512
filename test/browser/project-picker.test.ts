/**
 * The main-thread folder helpers. The real picker cannot be driven by automation, so `showDirectoryPicker` is
 * stubbed to hand back an OPFS directory (the same FileSystemDirectoryHandle interface).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  filesFromFileList,
  forgetProjectFolder,
  pickProjectFolder,
  rememberedProjectFolder,
  requestProjectFolderAccess,
  supportsFolderPicker,
} from '../../src/lib/project-folder';

type PickerWindow = { showDirectoryPicker?: unknown };
const original = (window as unknown as PickerWindow).showDirectoryPicker;
afterEach(async () => {
  (window as unknown as PickerWindow).showDirectoryPicker = original;
  await forgetProjectFolder();
});

describe('picking and remembering a folder', () => {
  it('remembers the picked handle across calls (IndexedDB) and reports its permission', async () => {
    const name = `picker-${Date.now().toString(36)}`;
    const handle = await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
    const calls: unknown[] = [];
    (window as unknown as PickerWindow).showDirectoryPicker = async (options: unknown) => {
      calls.push(options);
      return handle;
    };
    expect(supportsFolderPicker()).toBe(true);
    expect(await rememberedProjectFolder()).toBeNull();
    const picked = await pickProjectFolder();
    expect(calls).toEqual([{ id: 'agent-brain-project', mode: 'readwrite' }]);
    const remembered = await rememberedProjectFolder();
    expect(remembered?.permission).toBe('granted');
    expect(await remembered?.handle.isSameEntry(picked as FileSystemDirectoryHandle)).toBe(true);
    expect(await requestProjectFolderAccess(remembered?.handle as FileSystemDirectoryHandle)).toBe(true);
    await forgetProjectFolder();
    expect(await rememberedProjectFolder()).toBeNull();
    await (await navigator.storage.getDirectory()).removeEntry(name, { recursive: true });
  });

  it('a cancelled picker is null, not an error; no picker is a clear error', async () => {
    (window as unknown as PickerWindow).showDirectoryPicker = async () => {
      throw new DOMException('The user aborted a request.', 'AbortError');
    };
    expect(await pickProjectFolder()).toBeNull();
    expect(await rememberedProjectFolder()).toBeNull();
    (window as unknown as PickerWindow).showDirectoryPicker = undefined;
    expect(supportsFolderPicker()).toBe(false);
    await expect(pickProjectFolder()).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});

describe('files from <input webkitdirectory>', () => {
  const file = (relative: string, text: string) => {
    const f = new File([text], relative.split('/').pop() as string);
    Object.defineProperty(f, 'webkitRelativePath', { value: relative });
    return f;
  };

  it('become project-relative paths without the chosen folder’s name, .git and node_modules', () => {
    const inputs = filesFromFileList([
      file('myproj/.agent/MEMORY.md', '# M'),
      file('myproj/src/a.ts', 'a'),
      file('myproj/.git/HEAD', 'ref'),
      file('myproj/node_modules/x/index.js', 'x'),
    ]);
    expect(inputs.map((i) => i.path)).toEqual(['.agent/MEMORY.md', 'src/a.ts']);
    expect(inputs[0]?.data).toBeInstanceOf(File);
  });
});
