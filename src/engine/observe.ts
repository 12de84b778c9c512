import { BrainError } from '../core/errors';
import type { SizeHistoryPolicy } from '../core/size-history';
import { ioMeter, type IoMeter } from '../storage/sqlite/vfs/io-meter';
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
  engine: Omit<BrainApi, keyof SizeHistoryApi | keyof ProgressApi>,
  options: ObserveOptions = {},
): BrainApi {
  const history = createSizeHistoryFeature(ctx, options.sizeHistory);
  const progress = createProgressReportsFeature(ctx, options.meter ?? ioMeter, options.now);
  const observed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(engine)) {
    if (typeof value !== 'function' || passThrough.has(name)) {
      observed[name] = value;
      continue;
    }
    const method = value as (...args: unknown[]) => Promise<unknown>;
    const run =
      name === 'compact'
        ? (...args: unknown[]) => progress.compact(() => method(...args))
        : name === 'importDatabase'
          ? (...args: unknown[]) => progress.importDatabase(args[0], () => method(...args))
          : method;
    observed[name] = async (...args: unknown[]) => {
      await history.before();
      const result = await run(...args);
      await history.after(name);
      return result;
    };
  }
  for (const [name, value] of Object.entries({ ...history.api, ...progress.api })) {
    if (name in observed) throw new BrainError('Internal', `Two engine features both define ${name}.`);
    observed[name] =
      name === 'sizeHistory'
        ? async (...args: unknown[]) => {
            await history.before();
            return (value as (...a: unknown[]) => Promise<unknown>)(...args);
          }
        : value;
  }
  return observed as unknown as BrainApi;
}
