import { BrainError } from '../../core/errors';
import {
  createProgressThrottle,
  headerPageSize,
  importDatabaseProgress,
  vacuumProgress,
} from '../../core/progress-reports';
import { pageStats } from '../../storage/sqlite/health';
import type { IoCounts, IoMeter } from '../../storage/sqlite/vfs/io-meter';
import type { EngineContext } from '../context';
import type { EngineProgress, EngineProgressListener, ProgressApi } from '../../core/api/size-history';

const reportEveryMs = 100;

type Estimate = (io: IoCounts) => Omit<EngineProgress, 'operation' | 'unit'>;

/**
 * Progress reports of long engine calls from inside them (`watchProgress`). A full VACUUM or an integrity check is one synchronous SQLite
 * call in the worker: no timer fires until it ends, but the VFS is called for every page, so the I/O meter's
 * listener reports (at most every 100 ms) to the watchers — over Comlink a report is a postMessage, sent at once.
 */
export function createProgressReportsFeature(
  ctx: EngineContext,
  meter: IoMeter,
  now: () => number = () => performance.now(),
) {
  const listeners = new Set<EngineProgressListener>();

  function report(progress: EngineProgress) {
    for (const listener of listeners) {
      try {
        const pending = listener(progress) as unknown;
        // A listener in a closed page rejects: drop it rather than disturb the call.
        if (pending instanceof Promise) pending.catch(() => listeners.delete(listener));
      } catch {
        listeners.delete(listener);
      }
    }
  }

  /** Runs `run`, reporting `estimate` of the page I/O since it began. */
  async function track<T>(
    operation: EngineProgress['operation'],
    estimate: Estimate,
    run: () => Promise<T>,
  ): Promise<T> {
    const start = meter.counts();
    const throttle = createProgressThrottle(now, reportEveryMs);
    const send = (counts: IoCounts) => {
      const p = estimate({
        mainRead: counts.mainRead - start.mainRead,
        mainWritten: counts.mainWritten - start.mainWritten,
        journalWritten: counts.journalWritten - start.journalWritten,
      });
      if (throttle.due(p.phase)) report({ operation, ...p, unit: 'pages' });
    };
    send(start);
    const stop = meter.watch(send);
    try {
      return await run();
    } finally {
      stop();
    }
  }

  const api = {
    async watchProgress(listener: EngineProgressListener) {
      if (typeof listener !== 'function')
        throw new BrainError('InvalidArgument', 'watchProgress takes a listener function.');
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  } satisfies ProgressApi;

  return {
    api,
    /** Runs `compact` (a full VACUUM) reporting its page counts. */
    async compact<T>(run: () => Promise<T>): Promise<T> {
      if (listeners.size === 0) return run();
      const file = await pageStats(ctx.db);
      return track('compact', (io) => vacuumProgress(io, file), run);
    },
    /** Runs `importDatabase(bytes)` reporting the pages its check of the candidate reads. */
    async importDatabase<T>(bytes: unknown, run: () => Promise<T>): Promise<T> {
      const pageSize = bytes instanceof Uint8Array ? headerPageSize(bytes) : null;
      // Not an SQLite file: the engine refuses it at once, nothing to report.
      if (listeners.size === 0 || pageSize === null || !(bytes instanceof Uint8Array)) return run();
      const byteLength = bytes.byteLength;
      return track('importDatabase', (io) => importDatabaseProgress(io, { byteLength, pageSize }), run);
    },
  };
}
