/**
 * A 200 MB HISTORY.jsonl: never loaded whole. Listing stats it, reading it whole is refused with a clear
 * message, its tail and appends work in bounded memory. Timings are printed (read them as ratios: 2 shared cores).
 */
import { afterAll, expect, it } from 'vitest';
import { createHandleFolder } from '../../src/storage/agent-folder/handle-folder';
import { appendJsonlRecords, readJsonlTail } from '../../src/storage/agent-folder/jsonl-file';
import { listAgentFiles, readTextFile } from '../../src/storage/agent-folder/project-files';

const name = `project-large-${Date.now().toString(36)}`;
afterAll(async () => {
  await (
    await navigator.storage.getDirectory()
  )
    .removeEntry(name, { recursive: true })
    .catch(() => undefined);
});

it('handles a 200 MB history without loading it', { timeout: 240_000 }, async () => {
  const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
  const folder = createHandleFolder(root, { kind: 'handle' });
  await folder.write('.agent/MEMORY.md', new TextEncoder().encode('# Memory\n'));

  // 200 MiB of records, written in 1 MiB chunks (every chunk ends on a line boundary).
  const line = (i: number) => JSON.stringify({ v: 1, ts: i, kind: 'note', text: 'x'.repeat(80) }) + '\n';
  const perChunk = Math.floor((1024 * 1024) / line(0).length);
  const chunkText = Array.from({ length: perChunk }, (_, i) => line(i)).join('');
  const chunk = new TextEncoder().encode(chunkText);
  const chunks = 200;
  const agent = await root.getDirectoryHandle('.agent');
  const writable = await (await agent.getFileHandle('HISTORY.jsonl', { create: true })).createWritable();
  for (let i = 0; i < chunks; i++) await writable.write(chunk);
  await writable.close();
  const size = chunk.length * chunks;
  const lines = perChunk * chunks;

  const timed = async <T>(what: string, run: () => Promise<T>) => {
    const t0 = performance.now();
    const result = await run();
    console.log(`[200 MB history] ${what}: ${(performance.now() - t0).toFixed(0)} ms`);
    return result;
  };

  const listed = await timed('listAgentFiles', () => listAgentFiles(folder));
  const history = listed.find((f) => f.path === '.agent/HISTORY.jsonl');
  expect(history).toMatchObject({
    size,
    version: null,
    problems: [{ code: 'TooLarge', severity: 'warning' }],
  });
  expect(listed.find((f) => f.path === '.agent/MEMORY.md')?.problems).toEqual([]);

  await expect(readTextFile(folder, '.agent/HISTORY.jsonl')).rejects.toMatchObject({
    code: 'TooLarge',
    message: expect.stringMatching(
      /HISTORY\.jsonl" is 20\d\.\d MiB, more than the 16\.0 MiB read at once; it is not loaded whole/,
    ),
  });

  const tail = await timed('readJsonlTail 64 KiB, line numbers counted', () =>
    readJsonlTail(folder, '.agent/HISTORY.jsonl', { maxBytes: 64 * 1024 }),
  );
  expect(tail.log.problems).toEqual([]);
  expect(tail.log.entries.at(-1)?.line).toBe(lines);
  const quick = await timed('readJsonlTail 64 KiB, lines not counted', () =>
    readJsonlTail(folder, '.agent/HISTORY.jsonl', { maxBytes: 64 * 1024, countLines: false }),
  );
  expect(quick.log.entries.length).toBe(tail.log.entries.length);

  const appended = await timed('appendJsonlRecords (1 record)', () =>
    appendJsonlRecords(folder, '.agent/HISTORY.jsonl', [{ v: 1, ts: 1, kind: 'end' }]),
  );
  expect(appended).toMatchObject({
    size: size + '{"v":1,"ts":1,"kind":"end"}\n'.length,
    repairedTornLine: false,
  });
  const last = await folder.readRange('.agent/HISTORY.jsonl', appended.size - 200, appended.size);
  expect(
    new TextDecoder().decode(last.bytes).endsWith(line(perChunk - 1) + '{"v":1,"ts":1,"kind":"end"}\n'),
  ).toBe(true);
});
