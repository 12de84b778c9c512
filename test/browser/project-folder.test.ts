/**
 * The folder layer on a real directory handle: an OPFS directory stands in for a picked folder (the same
 * FileSystemDirectoryHandle interface). Runs on the page's thread, as the worker would.
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addMemoryEntry,
  appendProgressEntry,
  parseJsonl,
  parseMarkdown,
  serialiseJsonl,
  serialiseMarkdown,
  setPlanItemStatus,
  setSectionBody,
  setSkillField,
  findSection,
  isJsonlKind,
  agentFileKind,
} from '../../src/core/formats';
import type { AgentFolder } from '../../src/storage/agent-folder/folder';
import { createHandleFolder } from '../../src/storage/agent-folder/handle-folder';
import { writeImportedFiles } from '../../src/storage/agent-folder/import';
import { appendJsonlRecords, readJsonlTail, streamLines } from '../../src/storage/agent-folder/jsonl-file';
import {
  agentFolderState,
  listAgentFiles,
  listOtherAgentMemory,
  listSkills,
  readTextFile,
} from '../../src/storage/agent-folder/project-files';
import { createAgentSkeleton } from '../../src/storage/agent-folder/skeleton';
import { decodeText, encodeText } from '../../src/storage/agent-folder/text';
import { exportFolderZip, filesFromZip } from '../../src/storage/agent-folder/zip';

const fixtureUrls = import.meta.glob('../fixtures/agent-folders/*/.agent/**/*', {
  query: '?url',
  import: 'default',
  eager: true,
}) as Record<string, string>;

async function fixtureFiles(folder: string): Promise<Map<string, Uint8Array>> {
  const prefix = `../fixtures/agent-folders/${folder}/`;
  const out = new Map<string, Uint8Array>();
  for (const [key, url] of Object.entries(fixtureUrls)) {
    if (!key.startsWith(prefix)) continue;
    const response = await fetch(url);
    out.set(key.slice(prefix.length), new Uint8Array(await response.arrayBuffer()));
  }
  if (out.size === 0) throw new Error(`no fixtures for ${folder}`);
  return out;
}

const made: string[] = [];
let counter = 0;
async function freshDir(): Promise<FileSystemDirectoryHandle> {
  const name = `project-folder-test-${Date.now().toString(36)}-${++counter}`;
  made.push(name);
  return (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
}
async function freshFolder(): Promise<AgentFolder> {
  return createHandleFolder(await freshDir(), { kind: 'handle' });
}
afterAll(async () => {
  const root = await navigator.storage.getDirectory();
  for (const name of made) await root.removeEntry(name, { recursive: true }).catch(() => undefined);
});

/** What another program does: write the file directly through its handle. */
async function externalWrite(
  folder: AgentFolder,
  root: FileSystemDirectoryHandle,
  path: string,
  text: string,
) {
  let dir = root;
  const parts = path.split('/');
  for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
  const writable = await (await dir.getFileHandle(parts.at(-1) as string, { create: true })).createWritable();
  await writable.write(text);
  await writable.close();
  void folder;
}

const bytesOf = async (folder: AgentFolder, path: string) => (await folder.read(path)).bytes;

describe('every .agent file type: read, edited, written back byte-stable', () => {
  it.each(['typical', 'hand-edited'])(
    '%s: unedited round trip gives the same bytes, then one edit changes only its part',
    async (fixture) => {
      const files = await fixtureFiles(fixture);
      const folder = await freshFolder();
      await writeImportedFiles(
        folder,
        [...files].map(([path, data]) => ({ path, data })),
      );
      const kinds = new Set<string>();
      for (const [path, original] of files) {
        const kind = agentFileKind(path);
        kinds.add(kind);
        const read = await readTextFile(folder, path);
        const again = isJsonlKind(kind)
          ? serialiseJsonl(parseJsonl(read.text))
          : serialiseMarkdown(parseMarkdown(read.text));
        const written = await folder.write(path, encodeText(again), { expectedVersion: read.version });
        expect(await bytesOf(folder, path), path).toEqual(original);
        expect(written.size).toBe(original.length);

        // One typed edit per kind, written with the version just returned.
        const text = decodeText(original, path);
        let edited: string;
        /** How many characters of the original the edit may replace (insertions replace none). */
        let replaced = 0;
        switch (kind) {
          case 'memory':
          case 'project-memory':
            edited = addMemoryEntry(text, 'Lessons', 'Check loop bounds.');
            break;
          case 'plan':
            edited = setPlanItemStatus(text, { index: 1 }, 'done');
            replaced = 1;
            break;
          case 'progress':
            edited = appendProgressEntry(text, {
              time: Date.UTC(2026, 11, 1),
              kind: 'note',
              text: 'edited in the test',
            });
            break;
          case 'session-summary': {
            const doc = parseMarkdown(text);
            const index = findSection(doc, 'Next action');
            edited = serialiseMarkdown(setSectionBody(doc, index, '\nRun the suite.\n\n'));
            replaced = doc.sections[index]?.body.length ?? 0;
            break;
          }
          case 'skill':
            edited = setSkillField(text, 'license', 'Apache-2.0');
            replaced = text.includes('license: MIT') ? 'MIT'.length : 0;
            break;
          case 'history':
          case 'session-log': {
            const before = await folder.read(path);
            const result = await appendJsonlRecords(folder, path, [
              { v: 1, ts: 99, kind: 'note', text: 'appended' },
            ]);
            const after = await bytesOf(folder, path);
            expect(after.subarray(0, before.bytes.length), `${path}: earlier bytes untouched`).toEqual(
              before.bytes,
            );
            const added = decodeText(after.subarray(before.bytes.length), path);
            const eol = text.includes('\r\n') ? '\r\n' : '\n';
            expect(added).toBe(
              `${result.repairedTornLine ? eol : ''}{"v":1,"ts":99,"kind":"note","text":"appended"}${eol}`,
            );
            continue;
          }
          default:
            continue;
        }
        const current = await folder.read(path);
        await folder.write(path, encodeText(edited), { expectedVersion: current.version });
        const after = decodeText(await bytesOf(folder, path), path);
        expect(after).toBe(edited);
        // Everything outside the edit is byte-identical: a common prefix and suffix cover the original but the edit.
        let p = 0;
        while (p < text.length && text[p] === after[p]) p++;
        let s = 0;
        while (s < text.length - p && text[text.length - 1 - s] === after[after.length - 1 - s]) s++;
        expect(text.length - p - s, `${path}: characters of the original replaced`).toBeLessThanOrEqual(
          replaced,
        );
        expect(after.length - (p + s), `${path}: the edit added something`).toBeGreaterThan(0);
      }
      expect([...kinds].sort()).toEqual(
        fixture === 'typical'
          ? [
              'history',
              'memory',
              'plan',
              'progress',
              'project-memory',
              'session-log',
              'session-summary',
              'skill',
            ]
          : ['history', 'memory', 'plan', 'progress', 'project-memory', 'session-log', 'skill'],
      );
    },
  );
});

describe('safe writes', () => {
  it('a stale version is a Conflict and writes nothing', async () => {
    const root = await freshDir();
    const folder = createHandleFolder(root, { kind: 'handle' });
    await folder.write('.agent/MEMORY.md', encodeText('# Memory\n- one\n'));
    const read = await folder.read('.agent/MEMORY.md');

    await externalWrite(folder, root, '.agent/MEMORY.md', '# Memory\n- two\n'); // same size, maybe the same ms
    await expect(
      folder.write('.agent/MEMORY.md', encodeText('# Memory\n- mine\n'), { expectedVersion: read.version }),
    ).rejects.toMatchObject({
      code: 'Conflict',
    });
    expect(decodeText(await bytesOf(folder, '.agent/MEMORY.md'), 'm')).toBe('# Memory\n- two\n');

    const fresh = await folder.read('.agent/MEMORY.md');
    await folder.write('.agent/MEMORY.md', encodeText('# Memory\n- mine\n'), {
      expectedVersion: fresh.version,
    });
    expect(decodeText(await bytesOf(folder, '.agent/MEMORY.md'), 'm')).toBe('# Memory\n- mine\n');
  });

  it('a write that fails half way leaves the old file whole (written aside), and a new file is not left behind', async () => {
    const root = await freshDir();
    await createHandleFolder(root, { kind: 'handle' }).write('notes/a.md', encodeText('original\n'));
    // The same folder, but every writable stream dies with a full disk after its first chunk.
    const failing = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(t, key) {
          const value = Reflect.get(t, key, t) as unknown;
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            const result = (await (value as (...a: unknown[]) => unknown).apply(t, args)) as unknown;
            if (key === 'getDirectoryHandle' || key === 'getFileHandle') return failing(result as object);
            if (key === 'createWritable') {
              const stream = result as FileSystemWritableFileStream;
              return new Proxy(stream, {
                get(w, k) {
                  if (k === 'write') {
                    return async (data: Uint8Array) => {
                      await w.write(data.subarray(0, 3) as Uint8Array<ArrayBuffer>);
                      throw new DOMException('The quota was exceeded.', 'QuotaExceededError');
                    };
                  }
                  const v = Reflect.get(w, k, w) as unknown;
                  return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(w) : v;
                },
              });
            }
            return result;
          };
        },
      });
    const folder = createHandleFolder(failing(root), { kind: 'handle', name: 'failing' });
    await expect(folder.write('notes/a.md', encodeText('replacement text\n'))).rejects.toMatchObject({
      code: 'QuotaExceeded',
    });
    await expect(folder.write('notes/new.md', encodeText('new text\n'))).rejects.toMatchObject({
      code: 'QuotaExceeded',
    });
    const plain = createHandleFolder(root, { kind: 'handle' });
    expect(decodeText(await bytesOf(plain, 'notes/a.md'), 'a')).toBe('original\n');
    expect(await plain.stat('notes/new.md')).toBeNull();
    await expect(folder.append('notes/a.md', encodeText('more\n'))).rejects.toMatchObject({
      code: 'QuotaExceeded',
    });
    expect(decodeText(await bytesOf(plain, 'notes/a.md'), 'a')).toBe('original\n');
  });

  it('null means "must not exist"; a deleted file is a Conflict too; a bad token is refused', async () => {
    const folder = await freshFolder();
    const first = await folder.write('a/b.md', encodeText('x'), { expectedVersion: null });
    await expect(folder.write('a/b.md', encodeText('y'), { expectedVersion: null })).rejects.toMatchObject({
      code: 'Conflict',
    });
    await folder.remove('a/b.md', { expectedVersion: first.version });
    await expect(
      folder.write('a/b.md', encodeText('z'), { expectedVersion: first.version }),
    ).rejects.toMatchObject({ code: 'Conflict' });
    expect(await folder.stat('a/b.md')).toBeNull();
    await expect(
      folder.write('a/c.md', encodeText('z'), { expectedVersion: 'made-up' }),
    ).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('the hash in the version catches an edit that keeps size and time', async () => {
    const folder = await freshFolder();
    const read = await folder.write('f.txt', encodeText('aaaa'));
    // Forge a token with the current size and time but another content hash: a same-ms, same-size edit.
    const forged = read.version.replace(/:[0-9a-f]{32}$/, ':' + '0'.repeat(32));
    await expect(
      folder.write('f.txt', encodeText('bbbb'), { expectedVersion: forged }),
    ).rejects.toMatchObject({ code: 'Conflict' });
    expect(decodeText(await bytesOf(folder, 'f.txt'), 'f')).toBe('aaaa');
  });
});

describe('JSONL', () => {
  it('repairs a torn last line on the next append and never rewrites earlier bytes', async () => {
    const folder = await freshFolder();
    const torn = '{"v":1,"ts":1,"kind":"a"}\r\n{"v":1,"ts":2,"ki';
    await folder.write('.agent/SESSION.jsonl', encodeText(torn));
    const listed = await listAgentFiles(folder);
    expect(listed.find((f) => f.path === '.agent/SESSION.jsonl')?.problems).toMatchObject([
      { code: 'TornLine', line: 2 },
    ]);

    const result = await appendJsonlRecords(folder, '.agent/SESSION.jsonl', [{ v: 1, ts: 3, kind: 'c' }]);
    expect(result.repairedTornLine).toBe(true);
    const text = decodeText(await bytesOf(folder, '.agent/SESSION.jsonl'), 's');
    expect(text).toBe(torn + '\r\n{"v":1,"ts":3,"kind":"c"}\r\n');
    const again = await appendJsonlRecords(folder, '.agent/SESSION.jsonl', [{ v: 1, ts: 4, kind: 'd' }]);
    expect(again.repairedTornLine).toBe(false);

    const tail = await readJsonlTail(folder, '.agent/SESSION.jsonl');
    expect(tail.log.entries.map((e) => [e.line, e.record.kind])).toEqual([
      [1, 'a'],
      [3, 'c'],
      [4, 'd'],
    ]);
    expect(tail.log.problems).toMatchObject([{ code: 'MalformedLine', line: 2 }]);
  });

  it('reports malformed lines with their numbers and loads the rest', async () => {
    const folder = await freshFolder();
    const files = await fixtureFiles('damaged');
    await writeImportedFiles(
      folder,
      [...files].map(([path, data]) => ({ path, data })),
    );
    const history = (await listAgentFiles(folder)).find((f) => f.path === '.agent/HISTORY.jsonl');
    expect(history?.problems.map((p) => [p.code, p.line])).toEqual([
      ['MalformedLine', 2],
      ['MalformedLine', 3],
      ['InvalidRecord', 4],
      ['TornLine', 6],
    ]);
    const read = await readTextFile(folder, '.agent/HISTORY.jsonl');
    expect(read.view).toMatchObject({ kind: 'history', records: [{ line: 1 }, { line: 5 }] });
    const lines = [];
    for await (const line of streamLines(folder, '.agent/HISTORY.jsonl')) lines.push(line);
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(lines[2]?.raw).toBe('not json at all');
  });

  it('reads the tail of a long log with true line numbers, cut at a line boundary', async () => {
    const folder = await freshFolder();
    const lines = Array.from(
      { length: 5000 },
      (_, i) => JSON.stringify({ v: 1, ts: i, kind: 'note', text: `line ${i + 1} ✓` }) + '\n',
    );
    await folder.write('.agent/SESSION.jsonl', encodeText(lines.join('')));
    const tail = await readJsonlTail(folder, '.agent/SESSION.jsonl', { maxBytes: 4096 });
    expect(tail.startByte).toBeGreaterThan(0);
    expect(tail.log.problems).toEqual([]);
    const last = tail.log.entries.at(-1);
    expect(last).toMatchObject({ line: 5000, record: { text: 'line 5000 ✓' } });
    expect(tail.log.entries[0]?.record.text).toBe(`line ${tail.firstLine} ✓`);
    expect(
      (await readJsonlTail(folder, '.agent/SESSION.jsonl', { maxBytes: 4096, countLines: false })).firstLine,
    ).toBeNull();
  });
});

describe('bad input', () => {
  it('refuses path escapes before touching the folder', async () => {
    const folder = await freshFolder();
    for (const path of [
      '../outside.md',
      '/etc/passwd',
      '.agent/../../x',
      'a\\b',
      'a\u0000b',
      'C:/x',
      'a//b',
      '',
    ]) {
      await expect(folder.read(path), path).rejects.toMatchObject({ code: 'PathEscapes' });
      await expect(folder.write(path, encodeText('x')), path).rejects.toMatchObject({ code: 'PathEscapes' });
    }
    await expect(
      writeImportedFiles(folder, [
        { path: 'ok.md', data: encodeText('x') },
        { path: '../evil', data: encodeText('x') },
      ]),
    ).rejects.toMatchObject({
      code: 'PathEscapes',
    });
    expect(await folder.list('', { recursive: true })).toEqual([]);
  });

  it('invalid UTF-8 is reported for that file and the rest of the project still opens', async () => {
    const folder = await freshFolder();
    await folder.write('.agent/MEMORY.md', encodeText('# Memory\n'));
    await folder.write('.agent/PROJECT_MEMORY.md', new Uint8Array([0x23, 0x20, 0xc3, 0x28, 0x0a]));
    const files = await listAgentFiles(folder);
    expect(files.map((f) => [f.path, f.problems.map((p) => p.code)])).toEqual([
      ['.agent/MEMORY.md', []],
      ['.agent/PROJECT_MEMORY.md', ['InvalidUtf8']],
    ]);
    await expect(readTextFile(folder, '.agent/PROJECT_MEMORY.md')).rejects.toMatchObject({
      code: 'InvalidUtf8',
      details: { offset: 2 },
    });
    expect((await readTextFile(folder, '.agent/MEMORY.md')).text).toBe('# Memory\n');
  });

  it('a missing .agent is offered, a file named .agent is explained, a file where a folder belongs is NotADirectory', async () => {
    const folder = await freshFolder();
    expect(await agentFolderState(folder)).toBe('missing');
    expect(await listAgentFiles(folder)).toEqual([]);
    expect(await createAgentSkeleton(folder)).toEqual([
      '.agent',
      '.agent/MEMORY.md',
      '.agent/PROJECT_MEMORY.md',
      '.agent/plan',
      '.agent/skills',
    ]);
    expect(await agentFolderState(folder)).toBe('present');
    expect(await createAgentSkeleton(folder)).toEqual([]);

    const other = await freshFolder();
    await other.write('.agent', encodeText('not a folder'));
    expect(await agentFolderState(other)).toBe('not-a-directory');
    await expect(other.write('.agent/MEMORY.md', encodeText('x'))).rejects.toMatchObject({
      code: 'NotADirectory',
    });

    const third = await freshFolder();
    await third.write('.agent/plan', encodeText('oops'));
    await expect(third.write('.agent/plan/PLAN.md', encodeText('x'))).rejects.toMatchObject({
      code: 'NotADirectory',
    });
    expect((await listAgentFiles(third)).find((f) => f.path === '.agent/plan')?.problems[0]?.code).toBe(
      'NotADirectory',
    );
    await expect(third.read('.agent')).rejects.toMatchObject({ code: 'NotADirectory' });
  });
});

describe('skills and other agents’ memory', () => {
  it('lists skills with their problems, and other agents’ files read-only', async () => {
    const folder = await freshFolder();
    await writeImportedFiles(folder, [
      {
        path: '.agent/skills/run-tests/SKILL.md',
        data: encodeText('---\nname: run-tests\ndescription: Run them.\n---\nBody\n'),
      },
      { path: '.agent/skills/empty/notes.md', data: encodeText('x') },
      { path: 'CLAUDE.md', data: encodeText('# Claude\n') },
      { path: 'AGENTS.md', data: encodeText('# Agents\n') },
      {
        path: '.claude/skills/deploy/SKILL.md',
        data: encodeText('---\nname: deploy\ndescription: Ship.\n---\n'),
      },
      { path: '.claude/skills/Bad/SKILL.md', data: encodeText('---\nname: Bad\ndescription: x\n---\n') },
      { path: 'memory-bank/activeContext.md', data: encodeText('# Context\n') },
      { path: 'memory-bank/nested/ignored.md', data: encodeText('x') },
    ]);
    expect(
      (await listSkills(folder)).map((s) => [s.name, s.description, s.problems.map((p) => p.code)]),
    ).toEqual([
      ['empty', '', ['MissingField']],
      ['run-tests', 'Run them.', []],
    ]);
    expect(
      (await listOtherAgentMemory(folder)).map((f) => [f.path, f.convention, f.problems.map((p) => p.code)]),
    ).toEqual([
      ['.claude/skills/Bad/SKILL.md', 'claude-skill', ['InvalidField']],
      ['.claude/skills/deploy/SKILL.md', 'claude-skill', []],
      ['AGENTS.md', 'agents-md', []],
      ['CLAUDE.md', 'claude-md', []],
      ['memory-bank/activeContext.md', 'memory-bank', []],
    ]);
  });
});

describe('zip', () => {
  it('export → import round-trips every byte, empty folders and odd names included', async () => {
    const source = await freshFolder();
    const binary = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
    const files = await fixtureFiles('hand-edited');
    await writeImportedFiles(source, [
      ...[...files].map(([path, data]) => ({ path, data })),
      { path: 'src/ünïcode €.ts', data: encodeText('export const x = "✓";\r\n') },
      { path: 'assets/blob.bin', data: binary },
      { path: 'empty.txt', data: new Uint8Array(0) },
      { path: '.git/HEAD', data: encodeText('ref: refs/heads/main\n') },
    ]);
    await source.makeDirectory('.agent/skills/empty-dir');
    const zip = await exportFolderZip(source);
    const { files: unpacked, directories } = filesFromZip(zip);
    expect(unpacked.map((f) => f.path)).not.toContain('.git/HEAD');
    expect(directories).toContain('.agent/skills/empty-dir');

    const target = await freshFolder();
    await writeImportedFiles(target, unpacked, directories);
    const sourceFiles = (await source.list('', { recursive: true, skip: new Set(['.git']) })).filter(
      (e) => !e.path.startsWith('.git'),
    );
    const targetFiles = await target.list('', { recursive: true });
    expect(targetFiles).toEqual(sourceFiles);
    for (const entry of sourceFiles) {
      if (entry.kind === 'file')
        expect(await bytesOf(target, entry.path), entry.path).toEqual(await bytesOf(source, entry.path));
    }
  });

  it('refuses an archive with an escaping name before writing anything, and a broken one', async () => {
    const evil = zipSync({ 'ok.md': strToU8('fine'), '../../escape.md': strToU8('bad') });
    expect(() => filesFromZip(evil)).toThrow(expect.objectContaining({ code: 'PathEscapes' }));
    const backslash = zipSync({ 'dir\\..\\..\\x.md': strToU8('bad') });
    expect(() => filesFromZip(backslash)).toThrow(expect.objectContaining({ code: 'PathEscapes' }));
    expect(() => filesFromZip(strToU8('not a zip at all'))).toThrow(
      expect.objectContaining({ code: 'CorruptArchive' }),
    );
    expect(() =>
      filesFromZip(zipSync({ 'a.md': strToU8('x'.repeat(10_000)) }), { maxTotalBytes: 1000, maxEntries: 10 }),
    ).toThrow(expect.objectContaining({ code: 'TooLarge' }));
  });
});
