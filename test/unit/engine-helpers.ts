import { fixedClock } from '../../src/core/clock';
import { openDatabase } from '../../src/storage/sqlite/database';
import { createBrainApi, type EngineDeps } from '../../src/engine/create-engine';
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
