/**
 * Size history policy: when a size sample is worth taking, and which samples to keep as they age. Pure: the
 * caller passes the time (an injected clock) and the samples.
 *
 * Keeping: samples fall into age tiers; within a tier, time is cut into buckets of the tier's spacing (aligned to
 * epoch 0, so the result does not depend on when thinning runs) and only the newest sample of each bucket stays —
 * the state at the end of that stretch. Applying the plan twice drops nothing more. Over `maxSamples`, the oldest
 * go. With the default tiers a year of use keeps about 350 samples.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** What made the engine take a sample. */
export type SizeSampleCause = 'open' | 'writes' | 'cleanup' | 'maintain' | 'compact' | 'import';

export const sizeSampleCauses: readonly SizeSampleCause[] = ['open', 'writes', 'cleanup', 'maintain', 'compact', 'import'];

/** The figures of one sample (as the storage audit computes them: pragmas and trigger-kept counters). */
export interface SizeFigures {
  readonly pageSize: number;
  readonly pageCount: number;
  readonly freelistCount: number;
  /** Stored bytes of the checkpoint bodies live entries use. */
  readonly checkpointBytes: number;
  /** Bytes of steps (tool, params, results). */
  readonly stepBytes: number;
  /** Bytes of messages and summaries. */
  readonly lightBytes: number;
}

export interface ThinningTier {
  /** Samples younger than this fall in the tier (Infinity for the last one). */
  readonly maxAgeMs: number;
  /** One sample per bucket of this length; 0 keeps them all. */
  readonly spacingMs: number;
}

export interface SizeHistoryPolicy {
  /** Ordered by maxAgeMs; a sample older than every tier's maxAgeMs is dropped. */
  readonly tiers: readonly ThinningTier[];
  /** Hard cap on rows, whatever the tiers keep. */
  readonly maxSamples: number;
  /** At most one sample for ordinary writes per this interval. */
  readonly writeIntervalMs: number;
  /** Figures equal to the last sample's are recorded again only after this long (so a quiet stretch shows). */
  readonly unchangedRefreshMs: number;
}

export const defaultSizeHistoryPolicy: SizeHistoryPolicy = {
  tiers: [
    { maxAgeMs: HOUR_MS, spacingMs: MINUTE_MS },
    { maxAgeMs: DAY_MS, spacingMs: 15 * MINUTE_MS },
    { maxAgeMs: 7 * DAY_MS, spacingMs: 2 * HOUR_MS },
    { maxAgeMs: 90 * DAY_MS, spacingMs: DAY_MS },
    { maxAgeMs: Infinity, spacingMs: 7 * DAY_MS },
  ],
  maxSamples: 400,
  writeIntervalMs: 5 * MINUTE_MS,
  unchangedRefreshMs: HOUR_MS,
};

export function sameFigures(a: SizeFigures, b: SizeFigures): boolean {
  return (
    a.pageSize === b.pageSize &&
    a.pageCount === b.pageCount &&
    a.freelistCount === b.freelistCount &&
    a.checkpointBytes === b.checkpointBytes &&
    a.stepBytes === b.stepBytes &&
    a.lightBytes === b.lightBytes
  );
}

/**
 * Whether a sample with `figures` should be recorded now. Every cause needs the figures to differ from the last
 * sample's (or the last to be older than `unchangedRefreshMs`); ordinary writes also wait `writeIntervalMs`.
 */
export function shouldSample(input: {
  readonly cause: SizeSampleCause;
  readonly now: number;
  readonly figures: SizeFigures;
  readonly last: { readonly at: number; readonly figures: SizeFigures } | null;
  readonly policy?: SizeHistoryPolicy;
}): boolean {
  const policy = input.policy ?? defaultSizeHistoryPolicy;
  const { last } = input;
  if (!last) return true;
  const age = input.now - last.at;
  if (input.cause === 'writes' && age < policy.writeIntervalMs) return false;
  return !sameFigures(input.figures, last.figures) || age >= policy.unchangedRefreshMs;
}

/** Ids of the samples to delete so what stays follows the policy. */
export function planThinning(
  samples: readonly { readonly id: number; readonly at: number }[],
  now: number,
  policy: SizeHistoryPolicy = defaultSizeHistoryPolicy,
): number[] {
  const newestFirst = [...samples].sort((a, b) => b.at - a.at || b.id - a.id);
  const seen = new Set<string>();
  const kept: number[] = [];
  const drop: number[] = [];
  for (const sample of newestFirst) {
    // A sample from the future (the clock went back) counts as new.
    const age = Math.max(0, now - sample.at);
    const tier = policy.tiers.findIndex((t) => age < t.maxAgeMs);
    const spacing = policy.tiers[tier]?.spacingMs;
    if (spacing === undefined) {
      drop.push(sample.id);
      continue;
    }
    if (spacing > 0) {
      const bucket = `${tier}:${Math.floor(sample.at / spacing)}`;
      if (seen.has(bucket)) {
        drop.push(sample.id);
        continue;
      }
      seen.add(bucket);
    }
    kept.push(sample.id);
  }
  // kept is newest first: over the cap, the oldest go.
  drop.push(...kept.slice(Math.max(0, policy.maxSamples)));
  return drop.sort((a, b) => a - b);
}
