/**
 * Size history (growth over time) and progress of long engine operations. Plain data: times are epoch ms,
 * sizes are bytes. The README's API reference documents every method.
 */
import type { BrainErrorData } from '../errors';
import type { SizeSampleCause } from '../size-history';

export type { SizeSampleCause } from '../size-history';

/** The database's size at one moment, with the figures audit() reports. */
export interface SizeSample {
  readonly at: number;
  /** What made the engine take it: 'open', 'writes' (at most every 5 min while writes happen), 'cleanup', 'maintain', 'compact', 'import'. */
  readonly cause: SizeSampleCause;
  /** pageSize × pageCount: the file's size. */
  readonly fileBytes: number;
  /** pageSize × freelistCount: free pages inside the file, reused by new data. */
  readonly freeBytes: number;
  /** checkpointBytes + stepBytes: what cleanup can remove. */
  readonly heavyBytes: number;
  /** Stored bytes of the checkpoint bodies live entries use. */
  readonly checkpointBytes: number;
  readonly stepBytes: number;
  /** Messages, summaries and the other light rows the audit counts. */
  readonly lightBytes: number;
  readonly pageSize: number;
  readonly pageCount: number;
  readonly freelistCount: number;
}

export interface SizeHistoryQuery {
  /** Only samples taken at or after this time (epoch ms). Default: all (a few hundred at most). */
  readonly since?: number;
}

export interface SizeHistory {
  /** Oldest first. */
  readonly samples: SizeSample[];
  /** Why the last attempt to take a sample failed, or null when it succeeded (sampling never fails a call). */
  readonly lastError: BrainErrorData | null;
}

export interface SizeHistoryApi {
  /**
   * The size samples the engine kept: taken on open, after a cleanup, upkeep, compaction or import that changed
   * the figures (a burst of those within 30 s updates one sample), and at most every 5 minutes while writes
   * happen; thinned as they age (all of the last hour, then one per 15 min for a day, per 2 h for a week, per day
   * for 90 days, per week beyond; at most 500). Cleanup never deletes them. Rejects with `InvalidArgument` for a
   * bad `since`.
   */
  sizeHistory(query?: SizeHistoryQuery): Promise<SizeHistory>;
}

/**
 * Progress of a long engine call, reported while it runs; counts are pages. `compact`: a full VACUUM reads every
 * live page ('reading'), then writes the compacted file ('writing'). `importDatabase`: every page is read twice
 * ('checking': the candidate's integrity check, then the installed file's quick check).
 */
export interface EngineProgress {
  readonly operation: 'compact' | 'importDatabase';
  readonly phase: 'reading' | 'writing' | 'checking';
  readonly done: number;
  readonly total: number;
  readonly unit: 'pages';
}

export type EngineProgressListener = (progress: EngineProgress) => void;

export interface ProgressApi {
  /**
   * `listener` is called during long engine calls — compact, importDatabase — at most every 100 ms and at each
   * phase change; the returned function stops it. Reports come from inside the call, so they arrive while the
   * call is still pending.
   */
  watchProgress(listener: EngineProgressListener): Promise<() => void>;
}
