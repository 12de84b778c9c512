/**
 * Size history policy: when a size sample is worth taking, and which samples to keep as they age. Pure: the
 * caller passes the time (an injected clock) and the samples.
 *
 * Taking: ordinary writes give at most one sample per `writeIntervalMs`; cleanup, upkeep, compaction and import
 * give one whenever they changed the figures — a burst of them (automatic passes every few seconds) updates
 * the last such sample in place for `eventSpacingMs`, so rows stay ≥ 30 s apart. An 'open' or 'writes' sample is
 * never replaced: the state before a cleanup survives the cleanup's sample, and the chart shows the drop.
 *
 * Keeping: samples fall into age tiers; within a tier, time is cut into buckets of the tier's spacing (aligned to
 * epoch 0, so the result does not depend on when thinning runs) and only the newest sample of each bucket stays —
 * the state at the end of that stretch. Applying the plan twice drops nothing more. Over `maxSamples`, the oldest
 * go. With the default tiers: all of the last hour (≤ ~130 given the spacing above), then at most 92 for the rest
 * of the day, 72 for the week, 83 up to 90 days and 52 a year beyond.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** What made the engine take a sample. */
export type SizeSampleCause = 'open' | 'writes' | 'cleanup' | 'maintain' | 'compact' | 'import';

export const sizeSampleCauses: readonly SizeSampleCause[] = [
  'open',
  'writes',
  'cleanup',
  'maintain',
  'compact',
  'import',
];

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
  /** Cleanup/upkeep/compact/import samples closer than this to the last such sample replace it. */
  readonly eventSpacingMs: number;
  /** Figures equal to the last sample's are recorded again only after this long (so a quiet stretch shows). */
  readonly unchangedRefreshMs: number;
}

export const defaultSizeHistoryPolicy: SizeHistoryPolicy = {
  tiers: [
    { maxAgeMs: HOUR_MS, spacingMs: 0 },
    { maxAgeMs: DAY_MS, spacingMs: 15 * MINUTE_MS },
    { maxAgeMs: 7 * DAY_MS, spacingMs: 2 * HOUR_MS },
    { maxAgeMs: 90 * DAY_MS, spacingMs: DAY_MS },
    { maxAgeMs: Infinity, spacingMs: 7 * DAY_MS },
  ],
  maxSamples: 500,
  writeIntervalMs: 5 * MINUTE_MS,
  eventSpacingMs: 30_000,
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

/** Samples of these causes may replace one another within `eventSpacingMs`; 'open' and 'writes' never do. */
const eventCauses: ReadonlySet<SizeSampleCause> = new Set(['cleanup', 'maintain', 'compact', 'import']);

export type SampleDecision =
  { readonly kind: 'skip' } | { readonly kind: 'insert' } | { readonly kind: 'replace'; readonly id: number };

/**
 * What to do with `figures` measured now: skip them, record a new sample, or update the last one in place (its
 * time stays). Every cause needs the figures to differ from the last sample's (or the last to be older than
 * `unchangedRefreshMs`); ordinary writes also wait `writeIntervalMs`.
 */
export function decideSample(input: {
  readonly cause: SizeSampleCause;
  readonly now: number;
  readonly figures: SizeFigures;
  readonly last: {
    readonly id: number;
    readonly at: number;
    readonly cause: SizeSampleCause;
    readonly figures: SizeFigures;
  } | null;
  readonly policy?: SizeHistoryPolicy;
}): SampleDecision {
  const policy = input.policy ?? defaultSizeHistoryPolicy;
  const { last } = input;
  if (!last) return { kind: 'insert' };
  const age = input.now - last.at;
  if (input.cause === 'writes' && age < policy.writeIntervalMs) return { kind: 'skip' };
  if (sameFigures(input.figures, last.figures) && age < policy.unchangedRefreshMs) return { kind: 'skip' };
  if (eventCauses.has(input.cause) && eventCauses.has(last.cause) && age >= 0 && age < policy.eventSpacingMs)
    return { kind: 'replace', id: last.id };
  return { kind: 'insert' };
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
