import { describe, expect, it } from 'vitest';
import { deflateSync } from 'node:zlib';
import { fixedClock } from '../../src/core/clock';
import { isBrainError } from '../../src/core/errors';
import { createSerialQueue } from '../../src/core/serial-queue';
import { crc32 } from '../../src/storage/blobs/checksums';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import { migrate } from '../../src/storage/sqlite/migrate';
import { createCheckpointsRepo } from '../../src/storage/sqlite/repos/checkpoints-repo';
import { defaultLimits, type EngineContext, type EngineLimits } from '../../src/engine/context';
import { createCheckpointsFeature } from '../../src/engine/checkpoints/feature';
import { createSessionsFeature } from '../../src/engine/sessions/feature';
import type { BrainChange, CheckpointBody, CheckpointEntryId, TaskId } from '../../src/core/api';
import {
  describeCheckpointContract,
  editText,
  expectBody,
  randomBytes,
  sourceText,
} from './checkpoints-contract';
import { freshDb } from './helpers';
import { createRandom } from '../helpers/random';

/** The core and checkpoint features on one migrated in-memory database, serialised as the engine does. */
async function nodeEngine(limits: Partial<EngineLimits> = {}) {
  const db = await freshDb();
  await migrate(db);
  const changes: BrainChange[] = [];
  const ctx: EngineContext = {
    db,
    clock: fixedClock(),
    limits: { ...defaultLimits, ...limits },
    emit: (change) => changes.push(change),
  };
  const features = { ...createSessionsFeature(ctx), ...createCheckpointsFeature(ctx) };
  // A second engine on the same database, as after a restart: nothing cached, every read decodes storage.
  const cold = () => createCheckpointsFeature(ctx);
  const queue = createSerialQueue();
  const api = Object.fromEntries(
    Object.entries(features).map(([name, fn]) => [
      name,
      (...args: unknown[]) => queue.run(() => Promise.resolve((fn as (...a: unknown[]) => unknown)(...args))),
    ]),
  ) as typeof features;
  return { api, db, changes, cold, repo: createCheckpointsRepo(db), close: () => db.close() };
}

describeCheckpointContract('Node, memory VFS', nodeEngine);

type Engine = Awaited<ReturnType<typeof nodeEngine>>;

async function task(engine: Engine, title = 'task'): Promise<TaskId> {
  const { id: sessionId } = await engine.api.startSession({ title: 's' });
  return (await engine.api.startTask({ sessionId, title })).id;
}

interface BodyRow {
  id: number;
  codec: string;
  raw_size: number;
  stored_size: number;
  base_id: number | null;
  depth: number;
  refs: number;
}

/** Everything that must hold between entries and bodies, checked from the tables themselves. */
async function expectConsistent(db: SqlDriver) {
  const bodies = await db.all<BodyRow>(
    'SELECT id, codec, raw_size, stored_size, base_id, depth, refs FROM checkpoint_bodies',
  );
  const byId = new Map(bodies.map((b) => [b.id, b]));
  const refs = new Map<number, number>();
  for (const row of await db.all<{ b: number | null; a: number | null }>(
    'SELECT before_body_id AS b, after_body_id AS a FROM checkpoint_entries',
  )) {
    for (const id of [row.b, row.a]) if (id !== null) refs.set(id, (refs.get(id) ?? 0) + 1);
  }
  for (const body of bodies) {
    // Exact reference counts, and no body that nobody needs.
    expect(body.refs, `refs of body ${body.id}`).toBe(refs.get(body.id) ?? 0);
    expect(body.refs, `body ${body.id} is unreferenced`).toBeGreaterThan(0);
    // Depth is the real chain length, within the bound.
    let depth = 0;
    for (let at = body; at.base_id !== null; depth++) at = byId.get(at.base_id) as BodyRow;
    expect(body.depth, `depth of body ${body.id}`).toBe(depth);
    expect(depth).toBeLessThanOrEqual(16);
  }
  expect(await db.get<{ n: number }>('SELECT count(*) AS n FROM checkpoint_body_data')).toEqual({
    n: bodies.length,
  });
  expect(await db.all('PRAGMA foreign_key_check')).toEqual([]);
}

describe('checkpoint store (Node only)', () => {
  it('stores each distinct body once, however many entries use it', async () => {
    const engine = await nodeEngine();
    const taskId = await task(engine);
    const body = sourceText(500, 1);
    for (let i = 0; i < 30; i++)
      await engine.api.checkpointFile({ taskId, path: `copy-${i % 3}.ts`, before: body, after: body });
    await engine.api.checkpointFile({
      taskId,
      path: 'bytes.ts',
      before: null,
      after: new TextEncoder().encode(body),
    });
    const totals = await engine.repo.totals();
    expect(totals).toMatchObject({ entries: 31, bodies: 1, rawBytes: new TextEncoder().encode(body).length });
    expect(totals.storedBytes).toBeLessThan(totals.rawBytes / 3);
    // The entry that went in as bytes still comes back as bytes.
    const entries = await engine.api.listCheckpoints(taskId);
    expect((await engine.api.readCheckpoint(entries[30]?.id as CheckpointEntryId)).after).toBeInstanceOf(
      Uint8Array,
    );
    await engine.close();
  });

  it('bounds delta chains and keeps them readable', async () => {
    const engine = await nodeEngine();
    const taskId = await task(engine);
    let text = sourceText(800, 2);
    const versions = [text];
    for (let v = 0; v < 60; v++) {
      const next = editText(text, v);
      await engine.api.checkpointFile({ taskId, path: 'long.ts', before: text, after: next });
      versions.push(next);
      text = next;
    }
    const depth = await engine.db.get<{ max: number; deltas: number }>(
      `SELECT max(depth) AS max, sum(codec = 'delta') AS deltas FROM checkpoint_bodies`,
    );
    expect(depth?.max).toBe(16);
    expect(depth?.deltas).toBeGreaterThan(50);
    const entries = await engine.api.listCheckpoints(taskId);
    const back = await engine.api.readCheckpoints(entries.map((e) => e.id));
    back.forEach((got, v) => expectBody(got.after, versions[v + 1] ?? null, `version ${v + 1}`));
    await expectConsistent(engine.db);
    await engine.close();
  });

  it('records bodies over the size cap as "too large" instead of dropping them', async () => {
    const engine = await nodeEngine({ maxCheckpointBodyBytes: 1000 });
    const taskId = await task(engine);
    const { id } = await engine.api.checkpointFile({
      taskId,
      path: 'huge.log',
      before: 'small',
      after: 'x'.repeat(1001),
    });
    const { id: bytesId } = await engine.api.checkpointFile({
      taskId,
      path: 'huge.bin',
      before: new Uint8Array(5000),
      after: null,
    });
    const { id: multiByte } = await engine.api.checkpointFile({
      taskId,
      path: 'wide.txt',
      before: null,
      after: 'é'.repeat(501),
    });
    expect(await engine.api.listCheckpoints(taskId)).toMatchObject([
      { id, before: { kind: 'text', size: 5 }, after: { kind: 'too-large', size: 1001 } },
      {
        id: bytesId,
        before: { kind: 'too-large', size: 5000 },
        after: { kind: 'absent', size: null },
        binary: true,
      },
      { id: multiByte, after: { kind: 'too-large', size: 1002 } },
    ]);
    const error = await engine.api.readCheckpoint(id).catch((e: unknown) => e);
    expect(isBrainError(error, 'TooLarge')).toBe(true);
    expect((error as Error).message).toMatch(
      /entry \d+ \(huge\.log\).*too large \(after: 1001 bytes; the cap is 1000 bytes\)/,
    );
    expect(await engine.api.diffCheckpoint(id)).toMatchObject({
      kind: 'too-large',
      patch: expect.stringMatching(/^Files a\/huge\.log and b\/huge\.log differ \(.*too large/),
    });
    await engine.close();
  });

  it('stores a new body whole when its delta base is damaged, rather than refusing it', async () => {
    const engine = await nodeEngine();
    const taskId = await task(engine);
    const v1 = sourceText(300, 3);
    await engine.api.checkpointFile({ taskId, path: 'f.ts', before: null, after: v1 });
    await engine.db.run('UPDATE checkpoint_body_data SET bytes = zeroblob(10)');
    const v2 = editText(v1, 4);
    const restarted = engine.cold();
    const { id } = await restarted.checkpointFile({ taskId, path: 'f.ts', before: null, after: v2 });
    expectBody((await engine.cold().readCheckpoint(id)).after, v2);
    expect(await engine.db.get(`SELECT codec FROM checkpoint_bodies ORDER BY id DESC LIMIT 1`)).toEqual({
      codec: 'zlib',
    });
    await engine.close();
  });
});

describe('verified reads', () => {
  /** One entry per codec, and a way to damage its stored bytes (optionally fixing the CRC, as an attacker would). */
  async function storeOneOfEach() {
    const engine = await nodeEngine();
    const taskId = await task(engine);
    const base = sourceText(400, 5);
    const { ids } = await engine.api.checkpointFiles([
      { taskId, path: 'plain.txt', before: null, after: 'tiny' },
      { taskId, path: 'zlib.ts', before: null, after: sourceText(60, 6) },
      { taskId, path: 'delta.ts', before: base, after: editText(base, 7) },
    ]);
    const bodyOf = async (entryId: CheckpointEntryId) =>
      (
        await engine.db.get<{ id: number }>(
          'SELECT after_body_id AS id FROM checkpoint_entries WHERE id = ?',
          [entryId],
        )
      )?.id as number;
    const storedOf = async (bodyId: number) =>
      (
        await engine.db.get<{ bytes: Uint8Array }>(
          'SELECT bytes FROM checkpoint_body_data WHERE body_id = ?',
          [bodyId],
        )
      )?.bytes as Uint8Array;
    const put = async (bodyId: number, bytes: Uint8Array, forgeCrc: boolean) => {
      // Zero-length blobs bind as NULL in SQLite; store them as X''.
      await engine.db.run(`UPDATE checkpoint_body_data SET bytes = coalesce(?, X'') WHERE body_id = ?`, [
        bytes,
        bodyId,
      ]);
      if (forgeCrc)
        await engine.db.run('UPDATE checkpoint_bodies SET stored_crc = ?, stored_size = ? WHERE id = ?', [
          crc32(bytes),
          bytes.length,
          bodyId,
        ]);
    };
    return { engine, ids, bodyOf, storedOf, put };
  }

  async function expectCorrupt(engine: Engine, entryId: CheckpointEntryId, path: string) {
    // Read as after a restart: a warm engine would serve the bytes it verified before the damage.
    const error = await engine
      .cold()
      .readCheckpoint(entryId)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(
      isBrainError(error, 'CorruptBody') || isBrainError(error, 'TooLarge'),
      `entry ${entryId} read ${String(error)}`,
    ).toBe(true);
    expect((error as Error).message).toContain(`checkpoint entry ${entryId} (${path})`);
  }

  it('detects a flipped byte at sampled positions of every codec’s stored stream, CRC intact or forged', async () => {
    const { engine, ids, bodyOf, storedOf, put } = await storeOneOfEach();
    const codecs = await engine.db.all<{ codec: string }>(
      'SELECT b.codec FROM checkpoint_entries e JOIN checkpoint_bodies b ON b.id = e.after_body_id ORDER BY e.id',
    );
    expect(codecs.map((c) => c.codec)).toEqual(['plain', 'zlib', 'delta']);
    for (const [i, path] of ['plain.txt', 'zlib.ts', 'delta.ts'].entries()) {
      const entryId = ids[i] as CheckpointEntryId;
      const bodyId = await bodyOf(entryId);
      const original = await storedOf(bodyId);
      const positions = new Set([0, 1, 2, original.length - 1, original.length - 2, original.length - 4]);
      for (let p = 3; p < original.length; p += Math.max(1, Math.floor(original.length / 24)))
        positions.add(p);
      for (const position of positions) {
        for (const forge of [false, true]) {
          const damaged = original.slice();
          damaged[position] = (damaged[position] as number) ^ 0xff;
          await put(bodyId, damaged, forge);
          await expectCorrupt(engine, entryId, path);
          await put(bodyId, original, forge);
        }
      }
      expect((await engine.cold().readCheckpoint(entryId)).path).toBe(path);
    }
    await engine.close();
  });

  it('detects every byte of a small stored stream flipped in turn, even with the CRC forged (full sweep)', async () => {
    const { engine, ids, bodyOf, storedOf, put } = await storeOneOfEach();
    for (const [i, path] of [
      [1, 'zlib.ts'],
      [2, 'delta.ts'],
    ] as const) {
      const entryId = ids[i] as CheckpointEntryId;
      const bodyId = await bodyOf(entryId);
      const original = await storedOf(bodyId);
      for (let position = 0; position < original.length; position++) {
        for (const forge of [false, true]) {
          const damaged = original.slice();
          damaged[position] = (damaged[position] as number) ^ 0xff;
          await put(bodyId, damaged, forge);
          await expectCorrupt(engine, entryId, path);
        }
      }
      await put(bodyId, original, true);
      expect((await engine.cold().readCheckpoint(entryId)).path).toBe(path);
    }
    await engine.close();
  }, 60_000);

  it('refuses truncated streams, missing data, a wrong hash and a broken chain', async () => {
    const { engine, ids, bodyOf, storedOf, put } = await storeOneOfEach();
    const zlibEntry = ids[1] as CheckpointEntryId;
    const zlibBody = await bodyOf(zlibEntry);
    const original = await storedOf(zlibBody);
    for (const cut of [
      0,
      1,
      2,
      6,
      7,
      Math.floor(original.length / 2),
      original.length - 4,
      original.length - 1,
    ]) {
      for (const forge of [false, true]) {
        await put(zlibBody, original.subarray(0, cut), forge);
        await expectCorrupt(engine, zlibEntry, 'zlib.ts');
      }
    }
    await put(zlibBody, original, true);
    await engine.db.run('UPDATE checkpoint_bodies SET hash = randomblob(32) WHERE id = ?', [zlibBody]);
    await expectCorrupt(engine, zlibEntry, 'zlib.ts');

    const deltaEntry = ids[2] as CheckpointEntryId;
    const deltaBody = await bodyOf(deltaEntry);
    await engine.db.run('UPDATE checkpoint_bodies SET base_id = id WHERE id = ?', [deltaBody]);
    await expectCorrupt(engine, deltaEntry, 'delta.ts');
    await engine.db.run('DELETE FROM checkpoint_body_data WHERE body_id = ?', [
      await bodyOf(ids[0] as CheckpointEntryId),
    ]);
    await expectCorrupt(engine, ids[0] as CheckpointEntryId, 'plain.txt');
    await engine.close();
  });

  it('refuses zlib bombs and absurd declared sizes with typed errors (blobs.test.ts bounds their memory)', async () => {
    const { engine, ids, bodyOf, put } = await storeOneOfEach();
    const entryId = ids[1] as CheckpointEntryId;
    const bodyId = await bodyOf(entryId);
    // Declared small, inflates to 64 MiB (native path for a stream this large) and to 8 MiB (fflate path).
    for (const size of [64 << 20, 8 << 20]) {
      await put(bodyId, deflateSync(new Uint8Array(size), { level: 9 }), true);
      await expectCorrupt(engine, entryId, 'zlib.ts');
    }
    await engine.db.run('UPDATE checkpoint_bodies SET raw_size = ? WHERE id = ?', [2 ** 40, bodyId]);
    const error = await engine
      .cold()
      .readCheckpoint(entryId)
      .catch((e: unknown) => e);
    expect(isBrainError(error, 'TooLarge')).toBe(true);
    expect((error as Error).message).toContain(`checkpoint entry ${entryId} (zlib.ts)`);
    await engine.close();
  });
});

/** A store where tasks share files, versions and identical bodies, with delta chains running across tasks. */
async function sharedHistory(seed: number) {
  const engine = await nodeEngine();
  const tasks = [
    await task(engine, 't0'),
    await task(engine, 't1'),
    await task(engine, 't2'),
    await task(engine, 't3'),
    await task(engine, 't4'),
  ];
  const paths = ['src/a.ts', 'src/b.ts', 'assets/c.bin', 'docs/d.md'];
  const current = new Map<string, CheckpointBody>(
    paths.map((p, i) => [
      p,
      p.endsWith('.bin') ? randomBytes(30_000, seed + i) : sourceText(400 + 50 * i, seed + i),
    ]),
  );
  const expected = new Map<
    CheckpointEntryId,
    { before: CheckpointBody; after: CheckpointBody; taskId: TaskId }
  >();
  const random = createRandom(seed, 'lcg');
  for (let step = 0; step < 60; step++) {
    const taskId = random.pick(tasks);
    const path = random.pick(paths);
    const before = current.get(path) ?? null;
    let after: CheckpointBody;
    if (before instanceof Uint8Array) {
      const bytes = before.slice();
      const at = random.int(0, bytes.length);
      bytes[at] = (bytes[at] as number) ^ 0x5a;
      after = bytes;
    } else if (random.next() < 0.1) after = null;
    else after = editText(before ?? sourceText(100, step), step);
    // Sometimes a task writes a body another task already stored (dedupe across tasks).
    if (random.next() < 0.1) after = sourceText(400, seed);
    const { id } = await engine.api.checkpointFile({ taskId, path, before, after });
    expected.set(id, { before, after, taskId });
    current.set(path, after);
  }
  return { engine, tasks, expected };
}

async function expectAllReadable(
  engine: Engine,
  expected: Map<CheckpointEntryId, { before: CheckpointBody; after: CheckpointBody; taskId: TaskId }>,
  removedTasks: Set<TaskId>,
) {
  for (const [id, want] of expected) {
    if (removedTasks.has(want.taskId)) {
      const error = await engine.api.readCheckpoint(id).catch((e: unknown) => e);
      expect(isBrainError(error, 'CheckpointRemoved'), `entry ${id}`).toBe(true);
      continue;
    }
    const got = await engine.api.readCheckpoint(id);
    expectBody(got.before, want.before, `entry ${id} before`);
    expectBody(got.after, want.after, `entry ${id} after`);
  }
}

describe('lifecycle: removing a task’s checkpoints', () => {
  it('leaves every other entry readable, whichever task is removed', async () => {
    for (let removed = 0; removed < 5; removed++) {
      const { engine, tasks, expected } = await sharedHistory(11);
      const before = await engine.repo.totals();
      const chainsAcrossTasks = await engine.db.get<{ n: number }>(
        `SELECT count(*) AS n FROM checkpoint_bodies b JOIN checkpoint_bodies base ON base.id = b.base_id`,
      );
      expect(chainsAcrossTasks?.n).toBeGreaterThan(10);
      const taskId = tasks[removed] as TaskId;
      const report = await engine.db.transaction(() =>
        engine.repo.removeTaskCheckpoints(taskId, { at: 1_800_000_000_000, reason: 'superseded' }),
      );
      const after = await engine.repo.totals();
      expect(report.entries).toBe([...expected.values()].filter((e) => e.taskId === taskId).length);
      expect(report.bodiesRemoved).toBe(before.bodies - after.bodies);
      expect(report.storedBytesRemoved).toBe(before.storedBytes - after.storedBytes);
      expect(report.rawBytesRemoved).toBe(before.rawBytes - after.rawBytes);
      await expectConsistent(engine.db);
      await expectAllReadable(engine, expected, new Set([taskId]));
      await engine.close();
    }
  }, 60_000);

  it('removes tasks one after another down to nothing, consistent at every step', async () => {
    for (const seed of [21, 22]) {
      const { engine, tasks, expected } = await sharedHistory(seed);
      const removed = new Set<TaskId>();
      for (const taskId of [...tasks].sort(() => (seed % 2 ? 1 : -1))) {
        await engine.repo.removeTaskCheckpoints(taskId, {
          at: 1_800_000_000_000 + removed.size,
          reason: 'cleanup test',
        });
        removed.add(taskId);
        await expectConsistent(engine.db);
        await expectAllReadable(engine, expected, removed);
      }
      expect(await engine.repo.totals()).toMatchObject({
        bodies: 0,
        storedBytes: 0,
        rawBytes: 0,
        removedEntries: expected.size,
      });
      await engine.close();
    }
  }, 60_000);

  it('still cleans a task when a chain it would rebase was already damaged, keeping that chain as it is', async () => {
    const engine = await nodeEngine();
    const [first, second] = [await task(engine, 'first'), await task(engine, 'second')];
    const v1 = sourceText(300, 51);
    const v2 = editText(v1, 52);
    const v3 = editText(v2, 53);
    const { id: old } = await engine.api.checkpointFile({
      taskId: first,
      path: 'f.ts',
      before: null,
      after: v1,
    });
    const { id: mid } = await engine.api.checkpointFile({
      taskId: first,
      path: 'f.ts',
      before: v1,
      after: v2,
    });
    const { id: kept } = await engine.api.checkpointFile({
      taskId: second,
      path: 'f.ts',
      before: null,
      after: v3,
    });
    const { id: other } = await engine.api.checkpointFile({
      taskId: second,
      path: 'g.ts',
      before: null,
      after: 'fine',
    });
    // v3 is a delta on v2, v2 a delta on v1; damage v1, which only the first task references.
    const v1Body = (
      await engine.db.get<{ id: number }>('SELECT after_body_id AS id FROM checkpoint_entries WHERE id = ?', [
        old,
      ])
    )?.id;
    await engine.db.run(`UPDATE checkpoint_body_data SET bytes = zeroblob(8) WHERE body_id = ?`, [v1Body]);
    await expect(engine.cold().readCheckpoint(kept)).rejects.toMatchObject({ code: 'CorruptBody' });
    const report = await engine.repo.removeTaskCheckpoints(first, { at: 1, reason: 'superseded' });
    expect(report.entries).toBe(2);
    // v1 and v2 stay: the damaged chain v3 hangs on is kept, not half-deleted.
    expect(report.bodiesRemoved).toBe(0);
    await expect(engine.cold().readCheckpoint(kept)).rejects.toMatchObject({ code: 'CorruptBody' });
    expectBody((await engine.cold().readCheckpoint(other)).after, 'fine');
    await expect(engine.api.readCheckpoint(mid)).rejects.toMatchObject({ code: 'CheckpointRemoved' });
    expect(await engine.db.all('PRAGMA foreign_key_check')).toEqual([]);
    await engine.close();
  });

  it('keeps the entries listed and says when, why and from which task their bodies went', async () => {
    const engine = await nodeEngine();
    const taskId = await task(engine);
    const { id } = await engine.api.checkpointFile({ taskId, path: 'kept.md', before: 'a', after: 'b' });
    const first = await engine.repo.removeTaskCheckpoints(taskId, {
      at: Date.UTC(2026, 0, 2, 3, 4, 5),
      reason: 'task superseded by 7',
    });
    expect(first).toEqual({ entries: 1, bodiesRemoved: 2, storedBytesRemoved: 2, rawBytesRemoved: 2 });
    expect(await engine.repo.removeTaskCheckpoints(taskId, { at: 0, reason: 'again' })).toMatchObject({
      entries: 0,
      bodiesRemoved: 0,
    });
    expect(await engine.api.listCheckpoints(taskId)).toMatchObject([
      {
        id,
        path: 'kept.md',
        before: { kind: 'text', size: 1 },
        after: { kind: 'text', size: 1 },
        removed: { at: Date.UTC(2026, 0, 2, 3, 4, 5), reason: 'task superseded by 7' },
      },
    ]);
    const error = await engine.api.readCheckpoint(id).catch((e: unknown) => e);
    expect(isBrainError(error, 'CheckpointRemoved')).toBe(true);
    expect((error as Error).message).toBe(
      `Checkpoint entry ${id} (kept.md) of task ${taskId} was removed on 2026-01-02T03:04:05.000Z (task superseded by 7); its file bodies are no longer stored.`,
    );
    expect((error as { details?: unknown }).details).toMatchObject({ entryId: id, taskId, path: 'kept.md' });
    await expect(engine.api.diffCheckpoint(id)).rejects.toMatchObject({ code: 'CheckpointRemoved' });
    await expect(engine.repo.removeTaskCheckpoints(taskId, { at: 0, reason: ' ' })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
    await engine.close();
  });

  it('rolls back whole with the caller’s transaction', async () => {
    const { engine, tasks, expected } = await sharedHistory(31);
    const before = await engine.repo.totals();
    await expect(
      engine.db.transaction(async () => {
        await engine.repo.removeTaskCheckpoints(tasks[0] as TaskId, { at: 1, reason: 'doomed' });
        throw new Error('cleanup failed later in the task');
      }),
    ).rejects.toThrow('cleanup failed');
    expect(await engine.repo.totals()).toEqual(before);
    await expectConsistent(engine.db);
    await expectAllReadable(engine, expected, new Set());
    await engine.close();
  });

  it('answers storage figures from metadata, in total and per task', async () => {
    const { engine, tasks, expected } = await sharedHistory(41);
    await engine.repo.removeTaskCheckpoints(tasks[4] as TaskId, { at: 1, reason: 'gone' });
    const bodies = await engine.db.all<{ id: number; stored_size: number; raw_size: number }>(
      'SELECT id, stored_size, raw_size FROM checkpoint_bodies',
    );
    const totals = await engine.repo.totals();
    expect(totals).toMatchObject({
      bodies: bodies.length,
      storedBytes: bodies.reduce((s, b) => s + b.stored_size, 0),
      rawBytes: bodies.reduce((s, b) => s + b.raw_size, 0),
      entries: expected.size,
    });
    const sides = await engine.db.all<{ task_id: number; body: number }>(
      `SELECT task_id, before_body_id AS body FROM checkpoint_entries WHERE before_body_id IS NOT NULL
       UNION SELECT task_id, after_body_id FROM checkpoint_entries WHERE after_body_id IS NOT NULL`,
    );
    const sizeOf = new Map(bodies.map((b) => [b.id, b]));
    for (const row of await engine.repo.bytesByTask()) {
      const mine = sides.filter((s) => s.task_id === row.taskId).map((s) => s.body);
      const exclusive = mine.filter((b) => sides.every((s) => s.body !== b || s.task_id === row.taskId));
      const sum = (ids: number[], key: 'stored_size' | 'raw_size') =>
        ids.reduce((s, id) => s + (sizeOf.get(id)?.[key] ?? 0), 0);
      expect(row).toEqual({
        taskId: row.taskId,
        entries: [...expected.values()].filter((e) => e.taskId === row.taskId).length,
        removedEntries: row.taskId === tasks[4] ? row.entries : 0,
        bodies: mine.length,
        storedBytes: sum(mine, 'stored_size'),
        rawBytes: sum(mine, 'raw_size'),
        exclusiveStoredBytes: sum(exclusive, 'stored_size'),
        exclusiveRawBytes: sum(exclusive, 'raw_size'),
      });
    }
    expect(await engine.repo.bytesByTask(tasks[0])).toHaveLength(1);
    await engine.close();
  });

  it('finds entries whose task is gone', async () => {
    const engine = await nodeEngine();
    const taskId = await task(engine);
    await engine.api.checkpointFile({ taskId, path: 'o.txt', before: null, after: 'orphan' });
    expect(await engine.repo.orphanTaskIds(4)).toEqual([]);
    await engine.db.exec('PRAGMA foreign_keys = OFF');
    await engine.db.run('DELETE FROM tasks WHERE id = ?', [taskId]);
    await engine.db.exec('PRAGMA foreign_keys = ON');
    expect(await engine.repo.orphanTaskIds(4)).toEqual([taskId]);
    await engine.close();
  });
});
