/** The browser's storage estimate as a person reads it: the share used, what is free, and whether to warn. */
export interface QuotaFacts {
  /** "37", or "< 1" for a sliver that is not nothing. */
  readonly percent: string;
  readonly freeBytes: number;
  /** 80 % or more used: a write that does not fit is refused, so say so before it happens. */
  readonly nearlyFull: boolean;
}

export const nearlyFullShare = 0.8;

/** Null where the browser reports no quota (nothing sensible to show). */
export function quotaFacts(
  quota: { readonly usage: number; readonly quota: number } | null,
): QuotaFacts | null {
  if (!quota || quota.quota <= 0) return null;
  const share = Math.min(1, Math.max(0, quota.usage / quota.quota));
  return {
    percent: share > 0 && share < 0.01 ? '< 1' : String(Math.floor(share * 100)),
    freeBytes: Math.max(0, quota.quota - quota.usage),
    nearlyFull: share >= nearlyFullShare,
  };
}
