import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain, type BrainChange } from '../../src/lib/index';
import { encodeBody } from '../../src/storage/blobs/codec';
import { describeCheckpointContract, editText, expectBody, sourceText } from '../unit/checkpoints-contract';

let counter = 0;
const uniqueName = () => `checkpoints-${Date.now().toString(36)}-${++counter}.db`;
const open: Brain[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((brain) => brain.close()));
});

async function brainNamed(dbName: string) {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  open.push(brain);
  return brain;
}

// The same contract as in Node, through the worker (Comlink, structured clone) on a real agent.db in OPFS.
describeCheckpointContract('Chromium worker, OPFS', async () => {
  const brain = await brainNamed(uniqueName());
  const changes: BrainChange[] = [];
  await brain.subscribe((change) => {
    changes.push(change);
  });
  return { api: brain, changes, close: () => brain.close() };
});

describe('checkpoints on OPFS', () => {
  it('survive closing and reopening the brain, and verify from storage on a cold start', async () => {
    const dbName = uniqueName();
    const first = await brainNamed(dbName);
    const { id: sessionId } = await first.startSession({ title: 'persist' });
    const { id: taskId } = await first.startTask({ sessionId, title: 't' });
    const versions = [sourceText(3000, 1)];
    for (let v = 1; v <= 20; v++) versions.push(editText(versions[v - 1] as string, v));
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) & 0xff);
    const ids = [];
    for (let v = 1; v <= 20; v++) {
      ids.push(
        (
          await first.checkpointFile({
            taskId,
            path: 'src/main.ts',
            before: versions[v - 1] ?? null,
            after: versions[v] ?? null,
          })
        ).id,
      );
    }
    const { id: binaryId } = await first.checkpointFile({
      taskId,
      path: 'bin/data',
      before: null,
      after: bytes,
    });
    await first.close();

    // A new worker: nothing cached, every body is read from agent.db and verified.
    const second = await brainNamed(dbName);
    const back = await second.readCheckpoints(ids);
    back.forEach((got, i) => {
      expectBody(got.before, versions[i] ?? null, `version ${i}`);
      expectBody(got.after, versions[i + 1] ?? null, `version ${i + 1}`);
    });
    expectBody((await second.readCheckpoint(binaryId)).after, bytes, 'binary');
    expect((await second.listCheckpoints(taskId)).map((e) => e.after.kind)).toEqual([
      ...Array(20).fill('text'),
      'bytes',
    ]);
    expect(await second.integrityCheck()).toEqual(['ok']);
  });

  it('reports a body damaged on disk as CorruptBody through the worker, naming entry and path', async () => {
    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    const { id: sessionId } = await brain.startSession({ title: 'damage' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 't' });
    const text = sourceText(200, 9);
    const { id } = await brain.checkpointFile({ taskId, path: 'src/damaged.ts', before: null, after: text });
    // The stored stream is deterministic: find it in the exported file and flip one byte in its middle.
    const { stored, codec } = await encodeBody(new TextEncoder().encode(text), null);
    expect(codec).toBe('zlib');
    const file = await brain.exportDatabase();
    let at = -1;
    for (let i = 0; i + stored.length <= file.length && at < 0; i++) {
      if (file[i] === stored[0] && stored.every((byte, k) => file[i + k] === byte)) at = i;
    }
    expect(at).toBeGreaterThan(0);
    const middle = at + (stored.length >> 1);
    file[middle] = (file[middle] as number) ^ 0xff;
    await brain.importDatabase(file);
    // A new worker: this one still holds the body it verified before, and would rightly return those bytes.
    await brain.close();
    const reopened = await brainNamed(dbName);
    await expect(reopened.readCheckpoint(id)).rejects.toMatchObject({
      code: 'CorruptBody',
      message: expect.stringContaining(`checkpoint entry ${id} (src/damaged.ts)`),
    });
    await expect(reopened.diffCheckpoint(id)).rejects.toMatchObject({ code: 'CorruptBody' });
    expect(await reopened.integrityCheck()).toEqual(['ok']);
  });
});
