import { fixedClock } from '../../src/core/clock';
import { openDatabase } from '../../src/storage/sqlite/database';
import { createBrainApi, type EngineDeps } from '../../src/engine/create-engine';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import { migrate } from '../../src/storage/sqlite/migrate';
import { migrations } from '../../src/storage/sqlite/migrations/index';
import { memoryEngine } from './helpers';

let counter = 0;

/** The whole engine API on the real wasm SQLite over an in-memory VFS, with a controllable clock. */
export async function memoryBrain(options: Partial<Omit<EngineDeps, 'database' | 'storage'>> = {}) {
  const engine = await memoryEngine();
  const name = `engine-${++counter}.db`;
  const database = await openDatabase(engine, name, {
    read: async () => engine.memory.read(name) ?? new Uint8Array(),
    install: async (bytes) => engine.memory.put(name, bytes),
  });
  const api = createBrainApi({ database, storage: 'memory', clock: fixedClock(), ...options });
  return { api, database, engine, name };
}

/**
 * A database as an older build left it: migrated up to `upto` only, filled by `fill` on that schema, closed — then
 * opened as this build opens it (the later migrations run). With the engine on it.
 */
export async function olderBrain(name: string, upto: number, fill: (old: SqlDriver) => Promise<void>) {
  const engine = await memoryEngine();
  const old = await engine.open(name);
  await migrate(
    old,
    migrations.filter((m) => m.id <= upto),
  );
  await fill(old);
  await old.close();
  const database = await openDatabase(engine, name, {
    read: async () => engine.memory.read(name) ?? new Uint8Array(),
    install: async (bytes) => engine.memory.put(name, bytes),
  });
  const api = createBrainApi({ database, storage: 'memory', clock: fixedClock() });
  return { api, database, engine };
}
