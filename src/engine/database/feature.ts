/**
 * The database as a whole: facts about the file (`info`), change listeners (`subscribe`), and the file itself
 * exported or replaced (`exportDatabase`, `importDatabase`; storage/sqlite/database.ts validates and installs).
 */
import type { BrainChange, BrainInfo, ChangeListener, CoreApi, DatabaseFileApi } from '../../core/api';
import { BrainError } from '../../core/errors';
import type { Database } from '../../storage/sqlite/database';
import { pageStats } from '../../storage/sqlite/health';
import type { EngineContext } from '../context';

export interface DatabaseFeatureDeps {
  readonly database: Database;
  readonly storage: BrainInfo['storage'];
  /** Browser storage facts (quota, persistence); absent in Node. */
  readonly storageEstimate?: () => Promise<Pick<BrainInfo, 'quota' | 'persisted'>>;
}

/** The listeners of committed changes; `emit` drops a listener that throws or whose page is gone. */
export function createChangeListeners() {
  const listeners = new Set<ChangeListener>();
  return {
    add(listener: ChangeListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit(change: BrainChange) {
      for (const listener of listeners) {
        try {
          const pending = listener(change) as unknown;
          // A listener in a closed page rejects: drop it rather than fail the engine.
          if (pending instanceof Promise) pending.catch(() => listeners.delete(listener));
        } catch {
          listeners.delete(listener);
        }
      }
    },
  };
}

export function createDatabaseFeature(
  ctx: EngineContext,
  deps: DatabaseFeatureDeps,
  listeners: ReturnType<typeof createChangeListeners>,
) {
  return {
    async info(): Promise<BrainInfo> {
      const stats = await pageStats(ctx.db);
      const estimate = (await deps.storageEstimate?.()) ?? { quota: null, persisted: null };
      return {
        dbName: deps.database.name,
        storage: deps.storage,
        schemaVersion: deps.database.schemaVersion,
        fileBytes: stats.pageSize * stats.pageCount,
        ...stats,
        ...estimate,
      };
    },
    subscribe: async (listener: ChangeListener) => listeners.add(listener),
    exportDatabase: () => deps.database.exportBytes(),
    async importDatabase(bytes: Uint8Array) {
      if (!(bytes instanceof Uint8Array))
        throw new BrainError('InvalidArgument', 'importDatabase takes the file as a Uint8Array.');
      const { schemaVersion, migrated, bytes: size } = await deps.database.importBytes(bytes);
      ctx.emit({ topic: 'database' });
      return { schemaVersion, migrated, bytes: size };
    },
  } satisfies Pick<CoreApi, 'info' | 'subscribe'> & DatabaseFileApi;
}
