/**
 * The engine on OPFS: the one wa-sqlite module per worker (created on first use), a database file in OPFS opened
 * and migrated, and the assembled API over it. The worker's host calls this; everything it builds is storage's.
 */
import type { BrainApi, BrainInfo } from '../core/api';
import { openDatabase } from '../storage/sqlite/database';
import { createOpfsSqliteEngine, readOpfsDatabase, writeOpfsDatabase } from '../storage/sqlite/opfs';
import type { SqliteEngine } from '../storage/sqlite/open';
import { createBrainApi } from './create-engine';

export interface OpenedBrain {
  readonly api: BrainApi;
  /** Closes the database (its file handles are released); the API must not be called afterwards. */
  close(): Promise<void>;
}

export type StorageEstimate = () => Promise<Pick<BrainInfo, 'quota' | 'persisted'>>;

export function createOpfsBrainOpener(): (
  dbName: string,
  storageEstimate: StorageEstimate,
) => Promise<OpenedBrain> {
  let engine: Promise<SqliteEngine> | undefined;
  return async (dbName, storageEstimate) => {
    engine ??= createOpfsSqliteEngine();
    const database = await openDatabase(await engine, dbName, {
      read: () => readOpfsDatabase(dbName),
      write: (bytes) => writeOpfsDatabase(dbName, bytes),
    });
    const api = createBrainApi({ database, storage: 'opfs', storageEstimate });
    return { api, close: () => database.close() };
  };
}
