import { systemClock, type Clock } from '../core/clock';
import { BrainError } from '../core/errors';
import { createSerialQueue } from '../core/serial-queue';
import type { Database } from '../storage/sqlite/database';
import { pageStats } from '../storage/sqlite/health';
import { defaultLimits, type EngineContext, type EngineLimits } from './context';
import { createCoreFeature } from './sessions/feature';
import { createLifecycleFeature, type LifecycleOptions } from './lifecycle/feature';
import { createMemoryFeatures } from './memory';
import { createProjectFeature } from './project/feature';
import { createArchiveFeature } from './archive/feature';
import type { MemoryFilesProvider } from './memory-files';
import { createCheckpointsFeature } from './checkpoints/feature';
import type { BrainApi, BrainChange, BrainInfo, ChangeListener } from '../core/api';
import { observeEngine } from './observe';

export interface EngineDeps {
  readonly database: Database;
  readonly storage: 'opfs' | 'memory';
  readonly clock?: Clock;
  readonly limits?: Partial<EngineLimits>;
  /** Browser storage facts (quota, persistence); absent in Node. */
  readonly storageEstimate?: () => Promise<Pick<BrainInfo, 'quota' | 'persisted'>>;
  /** Cleanup: automatic passes (on by default) and their timings; tests inject timers or a checkpoint port. */
  readonly lifecycle?: LifecycleOptions;
  /** The project's .agent folder for the memory features (tests inject one; default: the open project, if any). */
  readonly memoryFiles?: MemoryFilesProvider;
}

/** Merges feature modules into one API; two features defining the same method is a bug caught at startup. */
function assemble<T extends object>(...features: object[]): T {
  const api: Record<string, unknown> = {};
  for (const feature of features) {
    for (const [name, value] of Object.entries(feature)) {
      if (name in api) throw new BrainError('Internal', `Two engine features both define ${name}.`);
      api[name] = value;
    }
  }
  return api as T;
}

/**
 * Every method runs alone on the one connection (a serial queue), so statements of two calls never interleave
 * inside each other's transactions.
 */
function serialise<T extends object>(api: T, exempt: ReadonlySet<string>): T {
  const queue = createSerialQueue();
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(api)) {
    wrapped[name] =
      typeof value === 'function' && !exempt.has(name)
        ? (...args: unknown[]) =>
            queue.run(() => Promise.resolve((value as (...a: unknown[]) => unknown)(...args)))
        : value;
  }
  return wrapped as T;
}

export function createBrainApi(deps: EngineDeps): BrainApi {
  const listeners = new Set<ChangeListener>();
  const ctx: EngineContext = {
    db: deps.database.driver,
    clock: deps.clock ?? systemClock,
    limits: { ...defaultLimits, ...deps.limits },
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

  const lifecycle = {
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
    async subscribe(listener: ChangeListener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    exportDatabase: () => deps.database.exportBytes(),
    async importDatabase(bytes: Uint8Array) {
      if (!(bytes instanceof Uint8Array))
        throw new BrainError('InvalidArgument', 'importDatabase takes the file as a Uint8Array.');
      const report = await deps.database.importBytes(bytes);
      ctx.emit({ topic: 'database' });
      return report;
    },
  };

  // Rollback reads and records checkpoints through the assembled API (looked up at call time).
  const project = createProjectFeature(ctx, { checkpoints: () => api });
  const archive = createArchiveFeature(ctx, {
    database: deps.database,
    currentFolder: project.currentFolder,
    async openImportTarget(name) {
      await project.api.openProject({ kind: 'opfs', name, create: true });
      const folder = project.currentFolder();
      if (!folder) throw new BrainError('Internal', `The project "${name}" did not open.`);
      return folder;
    },
  });
  const cleanupFeature = createLifecycleFeature(ctx, deps);
  const api = assemble<BrainApi>(
    lifecycle,
    createCoreFeature(ctx),
    ...createMemoryFeatures(ctx, deps.memoryFiles ?? project.memoryFiles),
    project.api,
    archive,
    createCheckpointsFeature(ctx),
    cleanupFeature.api,
  );
  return cleanupFeature.start(serialise(observeEngine(ctx, api), new Set(['subscribe', 'watchProgress'])));
}
