/**
 * Zip bombs through the real worker: `importBrain` refuses them with a typed error, the brain is unchanged, and
 * the worker's memory stays small while it refuses. `performance.measureUserAgentSpecificMemory` needs a
 * cross-origin-isolated page (this one is not) and `performance.memory` cannot be read inside the engine's
 * worker from here, so the figure is the worker's own V8 count of ArrayBuffer backing stores
 * (`Runtime.getHeapUsage().backingStorageSize`), read over the DevTools protocol while the import runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { openBrain, type Brain } from '../../src/lib/index';
import {
  MiB,
  bombManifest,
  deflatedZeros,
  sqliteHeader,
  twoEntriesBomb,
  zerosDatabaseBomb,
  zipOf,
} from '../fixtures/zip-bombs';

const open: Brain[] = [];
let counter = 0;
const unique = (what: string) => `bombs-${what}-${Date.now().toString(36)}-${++counter}`;

afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

interface HeapUsage {
  readonly usedSize: number;
  readonly backingStorageSize: number;
}

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
  readonly title: string;
}

/** The engine worker of the brain on `dbName`, attached over CDP: its V8 heap usage on demand, even while busy. */
async function workerMemory(dbName: string) {
  const session = cdp();
  const send = (method: string, params: object = {}) =>
    session.send(method as never, params as never) as Promise<unknown>;
  const { targetInfos } = (await send('Target.getTargets')) as { targetInfos: TargetInfo[] };
  const target = targetInfos.find((t) => t.type === 'worker' && t.title === `agent-brain:${dbName}`);
  if (!target) throw new Error(`no worker for ${dbName} among ${targetInfos.map((t) => t.title).join(', ')}`);
  const { sessionId } = (await send('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: false,
  })) as { sessionId: string };
  const waiting = new Map<number, (usage: HeapUsage) => void>();
  const onMessage = (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: HeapUsage };
    if (message.id !== undefined && message.result) waiting.get(message.id)?.(message.result);
    waiting.delete(message.id ?? -1);
  };
  session.on('Target.receivedMessageFromTarget' as never, onMessage as never);
  let next = 0;
  return {
    usage: () =>
      new Promise<HeapUsage>((resolve) => {
        const id = ++next;
        waiting.set(id, resolve);
        void send('Target.sendMessageToTarget', {
          sessionId,
          message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }),
        });
      }),
    async detach() {
      session.off('Target.receivedMessageFromTarget' as never, onMessage as never);
      await send('Target.detachFromTarget', { sessionId });
    },
  };
}

/** Runs `run` while sampling the worker; its error, and the most ArrayBuffer memory above the start. */
async function refusedWithPeak(dbName: string, run: () => Promise<unknown>) {
  const memory = await workerMemory(dbName);
  try {
    const start = (await memory.usage()).backingStorageSize;
    let peak = 0;
    let samples = 0;
    let done = false;
    const sampling = (async () => {
      while (!done) {
        peak = Math.max(peak, (await memory.usage()).backingStorageSize - start);
        samples++;
      }
    })();
    const error = await run().then(
      () => null,
      (caught: unknown) => caught,
    );
    done = true;
    await sampling;
    peak = Math.max(peak, (await memory.usage()).backingStorageSize - start);
    return { error, peak, samples };
  } finally {
    await memory.detach();
  }
}

/** A brain with a project, a session and its `.agent` files: what a refused import must leave as it was. */
async function seeded() {
  const dbName = `${unique('db')}.db`;
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  open.push(brain);
  await brain.openProject({ kind: 'opfs', name: unique('project'), create: true });
  await brain.createAgentFolder();
  await brain.startSession({ title: 'keep me' });
  const state = async () => ({
    sessions: (await brain.listSessions()).map((s) => s.title),
    files: await brain.listAgentFiles(),
    memory: (await brain.readAgentFile('.agent/MEMORY.md')).text,
    integrity: await brain.integrityCheck(),
  });
  return { brain, dbName, before: await state(), state };
}

describe('zip bombs through importBrain', () => {
  it('refuses a 1 MiB zip whose agent.db is 1 GiB of zeros, in a few MiB of the worker, brain unchanged', async () => {
    const { brain, dbName, before, state } = await seeded();
    const bomb = zerosDatabaseBomb();
    const { error, peak } = await refusedWithPeak(dbName, () => brain.importBrain(bomb));
    expect(error).toMatchObject({
      code: 'CorruptArchive',
      message: expect.stringMatching(/its agent\.db is not an SQLite database/),
    });
    // The zip's copy in the worker and one inflate slice — not the GiB it declares.
    expect(peak).toBeLessThan(32 * MiB);
    expect(await state()).toEqual(before);
  });

  it('refuses two 1,023 MiB .agent files as TooLarge from the directory, brain unchanged', async () => {
    const { brain, dbName, before, state } = await seeded();
    const { error, peak } = await refusedWithPeak(dbName, () => brain.importBrain(twoEntriesBomb()));
    expect(error).toMatchObject({
      code: 'TooLarge',
      message: expect.stringMatching(/HISTORY\.jsonl declares 1072693248 bytes; an \.agent file may hold/),
    });
    expect(peak).toBeLessThan(32 * MiB);
    expect(await state()).toEqual(before);
  });

  it('the control: the same sampling sees a 64 MiB entry inflated (once, in place) before its hash refuses it', async () => {
    const { brain, dbName, before, state } = await seeded();
    const size = 64 * MiB;
    const manifest = bombManifest({ bytes: size });
    const bomb = zipOf([
      { name: 'manifest.json', data: manifest, method: 0, size: manifest.byteLength },
      { name: 'agent.db', data: deflatedZeros(size - 100, sqliteHeader(4096, size / 4096)), size },
    ]);
    const { error, peak, samples } = await refusedWithPeak(dbName, () => brain.importBrain(bomb));
    expect(error).toMatchObject({ code: 'CorruptArchive', message: /does not match its SHA-256/ });
    expect(samples).toBeGreaterThan(0);
    expect(peak).toBeGreaterThanOrEqual(size);
    // One buffer of the entry's size: no second one, no garbage of inflated chunks waiting for a collection.
    expect(peak).toBeLessThan(size + 16 * MiB);
    expect(await state()).toEqual(before);
  });
});
