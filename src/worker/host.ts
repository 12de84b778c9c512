import * as Comlink from 'comlink';
import { BrainError } from '../core/errors';
import { createOpfsBrainOpener, type OpenedBrain } from '../engine/open-opfs';
import { holderLockName, ownerLockName } from './owner-lock';
import { lineReaderReadAhead } from './read-ahead';
import type { BrainApi, BrainInfo, OpenOptions, OwnerEvent, WorkerHost } from './protocol';

const DB_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

async function storageEstimate(): Promise<Pick<BrainInfo, 'quota' | 'persisted'>> {
  const storage = navigator.storage;
  const estimate = await storage.estimate().catch(() => null);
  const persisted =
    typeof storage.persisted === 'function' ? await storage.persisted().catch(() => null) : null;
  return {
    quota: estimate ? { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0 } : null,
    persisted,
  };
}

/**
 * The worker's exposed object. Until `open` succeeds every engine method is absent (Comlink then rejects the
 * call); once another tab takes the brain over, every method rejects with `OpenElsewhere`.
 */
export function createWorkerHost(): WorkerHost {
  const openBrain = createOpfsBrainOpener(lineReaderReadAhead);
  let database: OpenedBrain | undefined;
  let releaseOwnership: (() => void) | undefined;
  let apiNames: string[] = [];
  const host: WorkerHost & Record<string, unknown> = {
    async open(options: OpenOptions, onOwnerEvent?: (event: OwnerEvent) => void): Promise<BrainInfo> {
      if (database) throw new BrainError('InvalidArgument', 'This worker already has a brain open.');
      const dbName = options.dbName ?? 'agent.db';
      if (!DB_NAME.test(dbName)) {
        throw new BrainError(
          'InvalidArgument',
          `"${dbName}" is not a valid database name (letters, digits, . _ -).`,
        );
      }
      await acquireOwnership(dbName, options, () => {
        // Another tab stole the lock: stop touching the file at once, then say so.
        void shutDown('OpenElsewhere').then(() => onOwnerEvent?.({ kind: 'taken-over' }));
      });
      try {
        database = await openBrain(dbName, storageEstimate, { startEmpty: options.startEmpty === true });
      } catch (error) {
        releaseOwnership?.();
        throw error;
      }
      const api: BrainApi = database.api;
      apiNames = Object.keys(api);
      Object.assign(host, api, {
        // What crosses the worker boundary by reference (a function) or by transfer (large bytes).
        subscribe: async (listener: Parameters<BrainApi['subscribe']>[0]) =>
          Comlink.proxy(await api.subscribe(listener)),
        watchProgress: async (listener: Parameters<BrainApi['watchProgress']>[0]) =>
          Comlink.proxy(await api.watchProgress(listener)),
        exportDatabase: async () => {
          const bytes = await api.exportDatabase();
          return Comlink.transfer(bytes, [bytes.buffer]);
        },
        exportBrain: async (...args: Parameters<BrainApi['exportBrain']>) => {
          const bytes = await api.exportBrain(...args);
          return Comlink.transfer(bytes, [bytes.buffer]);
        },
      });
      return api.info();
    },

    async close() {
      await shutDown('Closed');
    },
  };

  async function shutDown(code: 'Closed' | 'OpenElsewhere') {
    const message =
      code === 'OpenElsewhere'
        ? 'This brain was taken over by another tab. Reload to take it back.'
        : 'The brain is closed.';
    for (const name of apiNames) {
      host[name] = () => Promise.reject(new BrainError(code, message));
    }
    const db = database;
    database = undefined;
    await db?.close().catch(() => undefined);
    releaseOwnership?.();
    releaseOwnership = undefined;
  }

  /**
   * One owner per database across tabs: a Web Lock held for as long as the brain is open here, and under it this
   * opening's holder lock (taken first, so the owner lock is never held here without it). A lock held by the worker
   * of a page this tab showed before (`leftBy`: it let go when hidden, and its worker is ending) is waited for;
   * held by anyone else, it is refused with `OpenElsewhere` unless `takeOver`.
   */
  async function acquireOwnership(dbName: string, options: OpenOptions, onStolen: () => void): Promise<void> {
    const held = new Promise<void>((release) => {
      releaseOwnership = release;
    });
    if (options.holder !== undefined) await holdLock(holderLockName(dbName, options.holder), {}, held);
    const lockName = ownerLockName(dbName);
    if (options.takeOver === true) {
      await holdLock(lockName, { steal: true }, held, onStolen);
      return;
    }
    if (await holdLock(lockName, { ifAvailable: true }, held, onStolen)) return;
    if (await heldByPageThatLeft(dbName, options.leftBy ?? [])) {
      // Queued, not stolen: that worker may still have the files open until it has ended, which frees the lock.
      await holdLock(lockName, {}, held, onStolen);
      return;
    }
    releaseOwnership?.();
    releaseOwnership = undefined;
    throw new BrainError(
      'OpenElsewhere',
      'This brain is open in another tab. Close it there, or take it over here (the other tab then stops).',
    );
  }

  return host;
}

/**
 * Requests the lock `name` and keeps it until `held` settles. Resolves once granted (true), or with false when
 * `ifAvailable` found it taken; `onStolen` runs if another context steals it later.
 */
function holdLock(
  name: string,
  options: LockOptions,
  held: Promise<void>,
  onStolen?: () => void,
): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    navigator.locks
      .request(name, options, (lock) => {
        resolve(lock !== null);
        return lock ? held : undefined;
      })
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') onStolen?.();
        else reject(error);
      });
  });
}

/**
 * Whether the owner lock is held by the worker of a page that left this tab: the context holding it also holds
 * one of `leftBy`'s holder locks (same `clientId`). A worker ends a moment after its page is gone, so a reload
 * can start before that worker has let go.
 */
async function heldByPageThatLeft(dbName: string, leftBy: readonly string[]): Promise<boolean> {
  if (leftBy.length === 0) return false;
  const { held = [] } = await navigator.locks.query();
  const owner = held.find((lock) => lock.name === ownerLockName(dbName))?.clientId;
  if (owner === undefined) return false;
  const holders = new Set(leftBy.map((holder) => holderLockName(dbName, holder)));
  return held.some((lock) => lock.clientId === owner && lock.name !== undefined && holders.has(lock.name));
}
