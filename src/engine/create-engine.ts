/**
 * The engine assembled: one context (connection, clock, limits, change announcements), every feature module
 * merged into one API (`assemble`), size history and progress observed around its calls (`observe.ts`), all
 * calls on one serial queue (`serialise`), the WAL checkpointed when they pause (`database/idle-wal-checkpoint.ts`),
 * then lifecycle's automatic cleanup passes installed on top.
 */
import type { BrainApi, BrainInfo } from '../core/api';
import { systemClock, type Clock } from '../core/clock';
import { BrainError } from '../core/errors';
import type { Database } from '../storage/sqlite/database';
import { createArchiveFeature } from './archive/feature';
import { createSerialQueue, type SerialQueue } from '../core/serial-queue';
import { assemble, serialise } from './assemble';
import { createCheckpointStore, createCheckpointsFeature } from './checkpoints/feature';
import { defaultLimits, type EngineContext, type EngineLimits } from './context';
import { createChangeListeners, createDatabaseFeature } from './database/feature';
import { createIdleWalCheckpoint } from './database/idle-wal-checkpoint';
import { createLifecycleFeature, type LifecycleOptions } from './lifecycle/feature';
import { createMemoryFeatures } from './memory';
import type { MemoryFilesProvider } from './memory-files';
import type { FollowOptions } from './follow/feature';
import type { ReadAhead } from './importers/read-ahead';
import { observeEngine, type FeaturesApi } from './observe';
import { createIdleRunner } from './history/idle';
import { createProjectFeature } from './project/feature';
import { createSessionsFeature } from './sessions/feature';

export interface EngineDeps {
  readonly database: Database;
  readonly storage: 'opfs' | 'memory';
  readonly clock?: Clock;
  readonly limits?: Partial<EngineLimits>;
  /** Browser storage facts (quota, persistence); absent in Node. */
  readonly storageEstimate?: () => Promise<Pick<BrainInfo, 'quota' | 'persisted'>>;
  /** Cleanup: automatic passes (on by default) and their timings; tests inject timers or a checkpoint port. */
  readonly lifecycle?: LifecycleOptions;
  /** Following agents' history folders: looks by itself (default), or only when asked (tests). */
  readonly follow?: FollowOptions;
  /** The project's .agent folder for the memory features (tests inject one; default: the open project, if any). */
  readonly memoryFiles?: MemoryFilesProvider;
  /** Large transcripts read and parsed on another thread while this one writes (the worker gives one). */
  readonly readAhead?: ReadAhead;
}

export function createBrainApi(deps: EngineDeps): BrainApi {
  const listeners = createChangeListeners();
  const queue = createSerialQueue();
  const ctx: EngineContext = {
    db: deps.database.driver,
    clock: deps.clock ?? systemClock,
    limits: { ...defaultLimits, ...deps.limits },
    emit: listeners.emit,
    whenIdle: createIdleRunner(queue),
  };
  // Every call asks for the WAL checkpoint once the engine is idle again (idle jobs use `queue` itself).
  const askWalCheckpoint = createIdleWalCheckpoint(ctx);
  const calls: SerialQueue = {
    run: (job) => queue.run(job).finally(askWalCheckpoint),
    get pending() {
      return queue.pending;
    },
  };

  // Rollback reads and records checkpoints through the assembled API (looked up at call time), and a patch
  // entry's change through the store.
  const project = createProjectFeature(ctx, {
    checkpoints: () => ({ ...api, readPatch: checkpointStore.readPatch }),
    // A whole-brain import the tab died in the middle of finishes its files when their project opens.
    onOpened: (folder) => archive.applyPendingFiles(folder),
  });
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
  const checkpointStore = createCheckpointStore(ctx);
  // Typed as every feature's methods together: a feature left out of this list fails to compile here.
  const api: FeaturesApi = assemble(
    createDatabaseFeature(ctx, deps, listeners),
    createSessionsFeature(ctx),
    ...createMemoryFeatures(
      ctx,
      deps.memoryFiles ?? project.memoryFiles,
      checkpointStore,
      deps.follow,
      deps.readAhead,
    ),
    project.api,
    archive.api,
    createCheckpointsFeature(ctx, checkpointStore),
    cleanupFeature.api,
  );
  return cleanupFeature.start(
    serialise(observeEngine(ctx, api), new Set(['subscribe', 'watchProgress']), calls),
  );
}
