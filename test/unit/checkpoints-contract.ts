/**
 * The checkpoint store's contract, written once and run against every way the engine is reached: in Node on
 * wa-sqlite's memory VFS (test/unit/checkpoints.test.ts) and in Chromium through the worker on OPFS
 * (test/browser/checkpoints.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { BrainApi, BrainChange, CheckpointBody, CheckpointContent, TaskId } from '../../src/core/api';
import { createRandom } from '../helpers/random';

export type CheckpointHarness = {
  readonly api: Pick<
    BrainApi,
    | 'startSession'
    | 'startTask'
    | 'recordStep'
    | 'checkpointFile'
    | 'checkpointFiles'
    | 'listCheckpoints'
    | 'readCheckpoint'
    | 'readCheckpoints'
    | 'diffCheckpoint'
  >;
  /** Every change the engine announced so far. */
  readonly changes: readonly BrainChange[];
  close(): Promise<void>;
};

/** The same seed, the same bytes. */
export function randomBytes(length: number, seed: number): Uint8Array {
  return createRandom(seed, 'lcg').bytes(length);
}

/** Source-like text of about `lines` lines. */
export function sourceText(lines: number, seed: number): string {
  const random = createRandom(seed, 'lcg');
  return Array.from(
    { length: lines },
    (_, i) => `export const v${i} = fn(${random.int(0, 1e6)}, "k${i % 41}"); // ✓ ${i}`,
  ).join('\n');
}

/** The next version of a text: a few lines replaced, inserted and removed. */
export function editText(text: string, seed: number): string {
  const random = createRandom(seed, 'lcg');
  const lines = text.split('\n');
  for (let e = 0; e < 4; e++) {
    const at = random.int(0, lines.length);
    const kind = random.int(0, 3);
    if (kind === 0) lines[at] = `// edited ${seed}-${e} ${random.next()}`;
    else if (kind === 1) lines.splice(at, 0, `const added${seed}_${e} = ${random.next()};`);
    else lines.splice(at, 1);
  }
  return lines.join('\n');
}

/** Structural equality that tells a string from bytes and compares bytes one by one. */
export function expectBody(got: CheckpointBody, want: CheckpointBody, what = 'body') {
  if (want === null) return expect(got, what).toBeNull();
  if (typeof want === 'string') {
    expect(typeof got, what).toBe('string');
    return expect(got === want, `${what} differs`).toBe(true);
  }
  expect(got, what).toBeInstanceOf(Uint8Array);
  const bytes = got as Uint8Array;
  expect(bytes.length, `${what} length`).toBe(want.length);
  let same = true;
  for (let i = 0; i < want.length && same; i++) same = bytes[i] === want[i];
  expect(same, `${what} bytes differ`).toBe(true);
}

async function newTask(h: CheckpointHarness, title = 'edits'): Promise<TaskId> {
  const { id: sessionId } = await h.api.startSession({ title: 'checkpoints' });
  return (await h.api.startTask({ sessionId, title })).id;
}

export function describeCheckpointContract(env: string, open: () => Promise<CheckpointHarness>) {
  const withHarness = (fn: (h: CheckpointHarness) => Promise<void>) => async () => {
    const h = await open();
    try {
      await fn(h);
    } finally {
      await h.close();
    }
  };

  describe(`checkpoint store contract (${env})`, () => {
    it(
      'round-trips text, binary, empty, absent and unicode bodies byte for byte, strings as strings',
      withHarness(async (h) => {
        const taskId = await newTask(h);
        const utf8Bytes = new TextEncoder().encode('valid UTF-8 text given as bytes ✓');
        const cases: [string, CheckpointBody, CheckpointBody][] = [
          ['created text', null, 'hello\nworld\n'],
          ['deleted text', 'gone soon', null],
          ['absent on both sides', null, null],
          ['empty string', '', 'now not empty'],
          ['to empty string', 'was text', ''],
          ['empty bytes', new Uint8Array(), Uint8Array.of(0)],
          ['unicode', 'naïve café — 中文 — 😀👩‍👩‍👧 — e\u0301 — \u{10FFFF}', 'Ω≈ç√∫ ﷽ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢'],
          ['BOM and CRLF, no final newline', '\uFEFFline one\r\nline two', '\uFEFFline one\r\nline 2'],
          ['NUL inside a string', 'a\u0000b', 'a\u0000c'],
          ['binary', randomBytes(4096, 1), randomBytes(4096, 2)],
          ['bytes that happen to be UTF-8', utf8Bytes, utf8Bytes.slice(0, 10)],
          [
            'all byte values',
            Uint8Array.from({ length: 256 }, (_, i) => i),
            Uint8Array.from({ length: 256 }, (_, i) => 255 - i),
          ],
          ['text to binary', 'text before', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0)],
          ['unchanged', 'same on both sides', 'same on both sides'],
        ];
        const { ids } = await h.api.checkpointFiles(
          cases.map(([name, before, after]) => ({ taskId, path: `cases/${name}`, before, after })),
        );
        expect(ids).toHaveLength(cases.length);
        const batch = await h.api.readCheckpoints(ids);
        for (const [i, [name, before, after]] of cases.entries()) {
          const one = await h.api.readCheckpoint(ids[i] as CheckpointContent['id']);
          for (const got of [one, batch[i] as CheckpointContent]) {
            expect(got.path).toBe(`cases/${name}`);
            expect(got.taskId).toBe(taskId);
            expectBody(got.before, before, `${name}: before`);
            expectBody(got.after, after, `${name}: after`);
          }
        }
      }),
    );

    it(
      'round-trips huge bodies',
      withHarness(async (h) => {
        const taskId = await newTask(h);
        const text = sourceText(180_000, 3);
        expect(text.length).toBeGreaterThan(9_000_000);
        const bytes = randomBytes(6 * 1024 * 1024, 4);
        const { id } = await h.api.checkpointFile({
          taskId,
          path: 'big/bundle.js',
          before: text,
          after: editText(text, 5),
        });
        const { id: binaryId } = await h.api.checkpointFile({
          taskId,
          path: 'big/blob.bin',
          before: null,
          after: bytes,
        });
        const got = await h.api.readCheckpoint(id);
        expectBody(got.before, text, 'huge before');
        expectBody(got.after, editText(text, 5), 'huge after');
        expectBody((await h.api.readCheckpoint(binaryId)).after, bytes, 'huge binary');
      }),
      120_000,
    );

    it(
      'reads back every version of a file edited many times, across tasks (delta chains)',
      withHarness(async (h) => {
        const first = await newTask(h, 'first');
        const second = await newTask(h, 'second');
        const versions = [sourceText(2000, 6)];
        for (let v = 1; v <= 40; v++) versions.push(editText(versions[v - 1] as string, 100 + v));
        const ids = [];
        for (let v = 1; v <= 40; v++) {
          const taskId = v <= 20 ? first : second;
          ids.push(
            (
              await h.api.checkpointFile({
                taskId,
                path: 'src/app.ts',
                before: versions[v - 1] ?? null,
                after: versions[v] ?? null,
              })
            ).id,
          );
        }
        const back = await h.api.readCheckpoints(ids);
        back.forEach((got, i) => {
          expectBody(got.before, versions[i] ?? null, `version ${i}`);
          expectBody(got.after, versions[i + 1] ?? null, `version ${i + 1}`);
        });
      }),
      60_000,
    );

    it(
      'lists a task’s entries with kinds, sizes, binary flags and their step',
      withHarness(async (h) => {
        const taskId = await newTask(h);
        const { id: stepId } = await h.api.recordStep({ taskId, tool: 'write_file', status: 'ok' });
        const { id: a } = await h.api.checkpointFile({
          taskId,
          path: 'a.txt',
          before: null,
          after: 'ä\n',
          stepId,
        });
        const { id: b } = await h.api.checkpointFile({
          taskId,
          path: 'b.png',
          before: Uint8Array.of(0x89, 0, 1),
          after: null,
        });
        expect(await h.api.listCheckpoints(taskId)).toMatchObject([
          {
            id: a,
            taskId,
            stepId,
            path: 'a.txt',
            before: { kind: 'absent', size: null },
            after: { kind: 'text', size: 3 },
            binary: false,
            removed: null,
          },
          {
            id: b,
            taskId,
            stepId: null,
            path: 'b.png',
            before: { kind: 'bytes', size: 3 },
            after: { kind: 'absent', size: null },
            binary: true,
            removed: null,
          },
        ]);
        const other = await newTask(h, 'other');
        expect(await h.api.listCheckpoints(other)).toEqual([]);
      }),
    );

    it(
      'diffs text as a unified diff and reports binary changes as such',
      withHarness(async (h) => {
        const taskId = await newTask(h);
        const { ids } = await h.api.checkpointFiles([
          { taskId, path: 'src/a.ts', before: 'one\ntwo\nthree\n', after: 'one\n2\nthree\nfour\n' },
          { taskId, path: 'src/new.ts', before: null, after: 'fresh\n' },
          {
            taskId,
            path: 'logo.png',
            before: Uint8Array.of(0x89, 0x50, 0),
            after: Uint8Array.of(0x89, 0x51, 0),
          },
          { taskId, path: 'same.txt', before: 'x\n', after: 'x\n' },
        ]);
        const [text, created, binary, same] = await Promise.all(ids.map((id) => h.api.diffCheckpoint(id)));
        expect(text).toMatchObject({ kind: 'text', path: 'src/a.ts', added: 2, removed: 1 });
        expect(text?.patch).toBe(
          '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n three\n+four\n',
        );
        expect(created?.patch).toBe('--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,1 @@\n+fresh\n');
        expect(binary).toMatchObject({
          kind: 'binary',
          patch: 'Binary files a/logo.png and b/logo.png differ\n',
          added: 0,
          removed: 0,
        });
        expect(same).toMatchObject({ kind: 'text', patch: '', added: 0, removed: 0 });
      }),
    );

    it(
      'refuses bad input with typed errors and records nothing of a refused batch',
      withHarness(async (h) => {
        const taskId = await newTask(h);
        const other = await newTask(h, 'other');
        const { id: stepOfOther } = await h.api.recordStep({ taskId: other, tool: 't', status: 'ok' });
        const bad: [unknown, string][] = [
          [{ taskId, path: 'x', before: 12, after: null }, 'InvalidArgument'],
          [{ taskId, path: 'x', before: null, after: 'lone \uD800' }, 'InvalidArgument'],
          [{ taskId, path: '', before: null, after: 'x' }, 'InvalidArgument'],
          [{ taskId, path: 'a\u0000b', before: null, after: 'x' }, 'InvalidArgument'],
          [{ taskId: 987654, path: 'x', before: null, after: 'x' }, 'NotFound'],
          [{ taskId, path: 'x', before: null, after: 'x', stepId: stepOfOther }, 'InvalidArgument'],
        ];
        for (const [input, code] of bad) {
          await expect(h.api.checkpointFile(input as never), JSON.stringify(input)).rejects.toMatchObject({
            code,
          });
        }
        await expect(
          h.api.checkpointFiles([
            { taskId, path: 'fine.txt', before: null, after: 'fine' },
            { taskId: 987654 as TaskId, path: 'x', before: null, after: 'x' },
          ]),
        ).rejects.toMatchObject({ code: 'NotFound' });
        expect(await h.api.listCheckpoints(taskId)).toEqual([]);
        await expect(h.api.readCheckpoint(424242 as never)).rejects.toMatchObject({ code: 'NotFound' });
        await expect(h.api.diffCheckpoint(424242 as never)).rejects.toMatchObject({ code: 'NotFound' });
        await expect(h.api.listCheckpoints(424242 as never)).rejects.toMatchObject({ code: 'NotFound' });
      }),
    );

    it(
      'announces recorded checkpoints on the "checkpoints" topic',
      withHarness(async (h) => {
        const taskId = await newTask(h);
        await h.api.checkpointFile({ taskId, path: 'n.txt', before: null, after: 'n' });
        await expect
          .poll(() => h.changes.filter((c) => c.topic === 'checkpoints'))
          .toEqual([{ topic: 'checkpoints', taskId }]);
      }),
    );
  });
}
