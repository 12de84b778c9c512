import type { SizeHistoryPolicy } from '../core/size-history';
import { ioMeter, type IoMeter } from '../storage/sqlite/vfs/io-meter';
import { assemble, wrapMethods } from './assemble';
import type { EngineContext } from './context';
import { createProgressReportsFeature } from './progress-reports/feature';
import { createSizeHistoryFeature } from './size-history/feature';
import type { BrainApi } from '../core/api';
import type { ProgressApi, SizeHistoryApi } from '../core/api/size-history';

export interface ObserveOptions {
  readonly sizeHistory?: SizeHistoryPolicy;
  readonly meter?: IoMeter;
  /** Monotonic ms for progress rate limits (default performance.now). */
  readonly now?: () => number;
}

/** The API the feature modules make together; `observeEngine` adds size history and progress around it. */
export type FeaturesApi = Omit<BrainApi, keyof SizeHistoryApi | keyof ProgressApi>;

/** Calls that only register a listener: never sampled around, never queued (see api.ts). */
const passThrough: ReadonlySet<string> = new Set(['subscribe', 'watchProgress']);

/**
 * Adds size history and progress to the assembled engine, around its calls rather than inside other features:
 * each call first lets size history take its open sample, then runs, then lets it sample if the call was a
 * cleanup/upkeep/compaction/import or wrote something. `compact` and `importDatabase` report page counts while
 * they run. Applied before the serial queue, so this work happens in the call's own turn.
 */
export function observeEngine(
  ctx: EngineContext,
  engine: FeaturesApi,
  options: ObserveOptions = {},
): BrainApi {
  const history = createSizeHistoryFeature(ctx, options.sizeHistory);
  const progress = createProgressReportsFeature(ctx, options.meter ?? ioMeter, options.now);
  const observed = wrapMethods(engine, (name, method) => {
    if (passThrough.has(name)) return method;
    const run =
      name === 'compact'
        ? (...args: unknown[]) => progress.compact(() => Promise.resolve(method(...args)))
        : name === 'importDatabase'
          ? (...args: unknown[]) => progress.importDatabase(args[0], () => Promise.resolve(method(...args)))
          : method;
    return async (...args: unknown[]) => {
      await history.before();
      const result = await run(...args);
      await history.after(name);
      return result;
    };
  });
  const sizeHistory: SizeHistoryApi = {
    async sizeHistory(query) {
      await history.before();
      return history.api.sizeHistory(query);
    },
  };
  return assemble(observed, sizeHistory, progress.api);
}
