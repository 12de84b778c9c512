import { describe, expect, it } from 'vitest';
import { quotaFacts } from '../../src/ui/storage-quota';

describe('the browser storage estimate, as shown', () => {
  it('gives the share used, what is free, and warns from 80 % on', () => {
    expect(quotaFacts({ usage: 4_400_000, quota: 10_700_000_000 })).toEqual({
      percent: '< 1',
      freeBytes: 10_695_600_000,
      nearlyFull: false,
    });
    expect(quotaFacts({ usage: 0, quota: 100 })).toEqual({ percent: '0', freeBytes: 100, nearlyFull: false });
    expect(quotaFacts({ usage: 799, quota: 1000 })?.nearlyFull).toBe(false);
    expect(quotaFacts({ usage: 800, quota: 1000 })).toEqual({
      percent: '80',
      freeBytes: 200,
      nearlyFull: true,
    });
    // Never "100 %" before it is full, never negative free space when usage overshoots.
    expect(quotaFacts({ usage: 999, quota: 1000 })?.percent).toBe('99');
    expect(quotaFacts({ usage: 1200, quota: 1000 })).toEqual({
      percent: '100',
      freeBytes: 0,
      nearlyFull: true,
    });
  });

  it('shows nothing where the browser reports no quota', () => {
    expect(quotaFacts(null)).toBeNull();
    expect(quotaFacts({ usage: 10, quota: 0 })).toBeNull();
  });
});
