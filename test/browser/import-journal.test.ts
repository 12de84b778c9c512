/**
 * A transcript import on a WAL brain runs with a rollback journal (src/storage/sqlite/journal-mode.ts: its one large
 * transaction of new pages is written once, not to the log and again at a checkpoint) and leaves the brain in WAL
 * mode — also when the worker is killed in the middle of it: the hot journal is rolled back at the next open, which
 * puts the brain in WAL mode again, with nothing of the import and everything from before.
 */
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain, type BrainWorker, type ImportProgress } from '../../src/lib/index';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { untilReleased } from './settle';

let counter = 0;
const names: string[] = [];
const uniqueName = () => {
  const name = `import-journal-${Date.now().toString(36)}-${++counter}.db`;
  names.push(name);
  return name;
};
const brains: Brain[] = [];
const workers: Worker[] = [];

afterEach(async () => {
  await Promise.all(brains.splice(0).map((brain) => brain.close().catch(() => undefined)));
  for (const worker of workers.splice(0)) worker.terminate();
  const root = await navigator.storage.getDirectory();
  for (const name of names.splice(0)) {
    await untilReleased(name);
    for (const suffix of ['', '-journal', '-wal', '.brain'])
      await root.removeEntry(name + suffix).catch(() => undefined);
  }
});

async function fileSize(name: string): Promise<number> {
  const root = await navigator.storage.getDirectory();
  try {
    return (await (await root.getFileHandle(name)).getFile()).size;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return 0;
    throw error;
  }
}

async function brainNamed(dbName: string) {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  brains.push(brain);
  return brain;
}

/** A write after the import lands in the WAL, not in agent.db: the brain is in WAL mode again. */
async function expectWalMode(brain: Brain, dbName: string) {
  const main = await fileSize(dbName);
  const wal = await fileSize(`${dbName}-wal`);
  await brain.startSession({ title: 'after the import' });
  expect(await fileSize(`${dbName}-wal`)).toBeGreaterThan(wal);
  expect(await fileSize(dbName)).toBe(main);
}

const transcript = () => {
  const { main } = generateClaudeCodeSession(15, 120);
  return { files: [{ name: main.name, data: main.bytes }] };
};

describe('a transcript import on a WAL brain', () => {
  it('runs with a rollback journal and leaves the brain in WAL mode', async () => {
    const dbName = uniqueName();
    const brain = await brainNamed(dbName);
    await brain.startSession({ title: 'before the import' });
    const before = await fileSize(dbName);
    const input = transcript();
    const { sessions } = await brain.importTranscript(input);
    expect(sessions).toHaveLength(1);
    // Its pages went into agent.db at once, not through the log (in WAL mode they would sit in agent.db-wal until
    // the idle checkpoint, 200 ms after the last call); the log holds only what came after the commit (the
    // imported session's compression).
    const grown = (await fileSize(dbName)) - before;
    expect(grown).toBeGreaterThan(512 * 1024);
    expect(await fileSize(`${dbName}-wal`)).toBeLessThan(grown / 2);
    await expectWalMode(brain, dbName);
    expect(await brain.listImportedSessions()).toHaveLength(1);
    expect(await brain.integrityCheck()).toEqual(['ok']);
  });

  it('killed in the middle, leaves the brain as it was, in WAL mode, at the next open', async () => {
    const dbName = uniqueName();
    const worker = new Worker(new URL('../../src/worker/brain.worker.ts', import.meta.url), {
      type: 'module',
    });
    workers.push(worker);
    const remote = Comlink.wrap<BrainWorker>(worker);
    await remote.open({ dbName });
    const { id: sessionId } = await remote.startSession({ title: 'kept' });
    await remote.recordNote({ sessionId, text: 'written before the import' });
    const input = transcript();
    const total = input.files[0]!.data.byteLength;
    let killedAt: ImportProgress | null = null;
    const importing = remote.importTranscript(
      input,
      Comlink.proxy((progress: ImportProgress) => {
        // Past half of the transcript the transaction has written pages: the kill leaves a hot journal.
        if (killedAt === null && progress.bytesDone >= total / 2 && progress.phase === 'reading') {
          killedAt = progress;
          worker.terminate();
        }
      }),
    );
    void importing.catch(() => undefined); // never answered: the worker is gone
    await expect.poll(() => killedAt, { timeout: 20_000 }).not.toBeNull();
    expect(killedAt!.toolCalls).toBeGreaterThan(0);
    await untilReleased(dbName);
    expect(await fileSize(`${dbName}-journal`)).toBeGreaterThan(0);

    const again = await brainNamed(dbName);
    expect(await again.listImportedSessions()).toEqual([]);
    const events = await again.listEvents(sessionId);
    expect(events.some((e) => 'text' in e && e.text === 'written before the import')).toBe(true);
    expect(await again.integrityCheck()).toEqual(['ok']);
    await expectWalMode(again, dbName);
    // And the import, done again, is whole.
    expect((await again.importTranscript(transcript())).sessions).toHaveLength(1);
  });
});
