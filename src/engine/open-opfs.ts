/**
 * The engine on OPFS: the one wa-sqlite module per worker (created on first use), a database file in OPFS opened
 * and migrated, and the assembled API over it. The worker's host calls this; everything it builds is storage's.
 *
 * An interrupted import is finished or discarded before anything opens (storage/sqlite/vfs/opfs.ts). A brain, once
 * created, is recorded beside its file (`<name>.brain`): an empty or missing file where one was kept is refused
 * with `BrainMissing` rather than opened as a new, empty brain — unless the caller asks for that (`startEmpty`).
 */
import type { BrainApi, BrainInfo } from '../core/api';
import { systemClock } from '../core/clock';
import { BrainError } from '../core/errors';
import { openDatabase } from '../storage/sqlite/database';
import {
  createOpfsSqliteEngine,
  finishOpfsInstall,
  installOpfsDatabase,
  pendingOpfsFiles,
  opfsDatabaseSize,
  readBrainMarker,
  readOpfsDatabase,
  recoverOpfsInstall,
  writeBrainMarker,
} from '../storage/sqlite/vfs/opfs';
import type { SqliteEngine } from '../storage/sqlite/vfs/open';
import { createBrainApi } from './create-engine';
import type { ReadAhead } from './importers/read-ahead';

export interface OpenedBrain {
  readonly api: BrainApi;
  /** Closes the database (its file handles are released); the API must not be called afterwards. */
  close(): Promise<void>;
}

export type StorageEstimate = () => Promise<Pick<BrainInfo, 'quota' | 'persisted'>>;

export interface OpenBrainFileOptions {
  /** Open an empty brain even though the one kept here is missing (the person chose to start over). */
  readonly startEmpty?: boolean;
}

async function freeBytes(estimate: StorageEstimate): Promise<number | null> {
  const { quota } = await estimate();
  return quota ? quota.quota - quota.usage : null;
}

/**
 * `readAhead`: how a large transcript is read on another thread during an import (the worker gives its line
 * reader, src/worker/read-ahead.ts); absent, every transcript is read in this worker.
 */
export function createOpfsBrainOpener(
  readAhead?: ReadAhead,
): (
  dbName: string,
  storageEstimate: StorageEstimate,
  options?: OpenBrainFileOptions,
) => Promise<OpenedBrain> {
  let engine: Promise<SqliteEngine> | undefined;
  return async (dbName, storageEstimate, options = {}) => {
    await recoverOpfsInstall(dbName);
    const [size, marker] = await Promise.all([opfsDatabaseSize(dbName), readBrainMarker(dbName)]);
    if (marker && !size && !options.startEmpty) {
      throw new BrainError(
        'BrainMissing',
        `${dbName} is ${size === null ? 'missing' : 'empty'}, though a brain was kept here (since ${new Date(marker.createdAt).toISOString().slice(0, 10)}): ` +
          'it was removed outside agent-brain. Import a backup (a whole-brain archive or an agent.db), or start an empty brain.',
        { dbName, createdAt: marker.createdAt },
      );
    }
    engine ??= createOpfsSqliteEngine();
    const database = await openDatabase(await engine, dbName, {
      read: () => readOpfsDatabase(dbName),
      install: (bytes, files) =>
        installOpfsDatabase(dbName, bytes, {
          free: () => freeBytes(storageEstimate),
          ...(files ? { files } : {}),
        }),
      recover: () => recoverOpfsInstall(dbName),
      pendingFiles: () => pendingOpfsFiles(dbName),
      finishInstall: () => finishOpfsInstall(dbName),
    });
    try {
      if (!marker || (options.startEmpty && !size))
        await writeBrainMarker(dbName, { kind: 'agent-brain', createdAt: systemClock.now() });
    } catch (error) {
      await database.close();
      throw error;
    }
    const api = createBrainApi({
      database,
      storage: 'opfs',
      storageEstimate,
      ...(readAhead ? { readAhead } : {}),
    });
    return { api, close: () => database.close() };
  };
}
