import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  defaultSizeHistoryPolicy,
  planThinning,
  decideSample,
  type SizeFigures,
} from '../../src/core/size-history';
import type { Clock } from '../../src/core/clock';
import { memoryBrain } from './engine-helpers';

const figures: SizeFigures = {
  pageSize: 4096,
  pageCount: 100,
  freelistCount: 3,
  checkpointBytes: 1000,
  stepBytes: 2000,
  lightBytes: 300,
};

/** A clock the test moves by hand. */
function manualClock(start = 1_700_000_000_000): Clock & { advance(ms: number): void; t: number } {
  const clock = {
    t: start,
    now: () => clock.t,
    advance: (ms: number) => void (clock.t += ms),
  };
  return clock;
}

describe('size history policy (pure)', () => {
  it('keeps every sample of the last hour', () => {
    const now = 10_000 * HOUR_MS;
    const samples = [
      { id: 1, at: now - 59 * MINUTE_MS },
      { id: 2, at: now - MINUTE_MS + 1_000 },
      { id: 3, at: now - MINUTE_MS + 40_000 },
      { id: 4, at: now },
    ];
    expect(planThinning(samples, now)).toEqual([]);
    // An hour on they are in the 15-minute tier (buckets aligned to epoch quarter hours; \`now\` starts one):
    // 2 and 3 share the quarter before \`now\`, and 3 is the newer.
    expect(planThinning(samples, now + HOUR_MS)).toEqual([2]);
  });

  it('thins older samples by tier: 15 min for a day, 2 h for a week, a day for 90 days, a week beyond', () => {
    const now = 1000 * DAY_MS;
    const samples: { id: number; at: number }[] = [];
    let id = 0;
    // One sample a minute for 200 days back.
    for (let age = 0; age < 200 * DAY_MS; age += 5 * MINUTE_MS) samples.push({ id: ++id, at: now - age });
    const drop = new Set(planThinning(samples, now));
    const kept = samples.filter((s) => !drop.has(s.id));
    const inAge = (from: number, to: number) =>
      kept.filter((s) => now - s.at >= from && now - s.at < to).length;
    expect(inAge(0, HOUR_MS)).toBe(12); // every 5-min sample of the last hour
    expect(inAge(HOUR_MS, DAY_MS)).toBeGreaterThanOrEqual(91);
    expect(inAge(HOUR_MS, DAY_MS)).toBeLessThanOrEqual(93);
    expect(inAge(DAY_MS, 7 * DAY_MS)).toBeGreaterThanOrEqual(71);
    expect(inAge(DAY_MS, 7 * DAY_MS)).toBeLessThanOrEqual(73);
    expect(inAge(7 * DAY_MS, 90 * DAY_MS)).toBeGreaterThanOrEqual(82);
    expect(inAge(7 * DAY_MS, 90 * DAY_MS)).toBeLessThanOrEqual(84);
    expect(inAge(90 * DAY_MS, 200 * DAY_MS)).toBeGreaterThanOrEqual(15);
    expect(inAge(90 * DAY_MS, 200 * DAY_MS)).toBeLessThanOrEqual(17);
    expect(kept.length).toBeLessThanOrEqual(defaultSizeHistoryPolicy.maxSamples);
  });

  it('is stable: thinning what it kept drops nothing more', () => {
    const now = 50 * DAY_MS;
    const samples = Array.from({ length: 3000 }, (_, i) => ({ id: i + 1, at: now - i * 17 * MINUTE_MS }));
    const drop = new Set(planThinning(samples, now));
    const kept = samples.filter((s) => !drop.has(s.id));
    expect(planThinning(kept, now)).toEqual([]);
  });

  it('holds the hard cap, dropping the oldest', () => {
    const policy = { ...defaultSizeHistoryPolicy, maxSamples: 5 };
    const now = 100 * DAY_MS;
    const samples = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, at: now - i * 10 * DAY_MS }));
    // Weekly buckets keep all eight (10 days apart); the cap keeps the five newest.
    expect(planThinning(samples, now, policy)).toEqual([6, 7, 8]);
  });

  it('samples when figures change; writes wait the interval; unchanged figures only after an hour', () => {
    const at = 1_000_000;
    const last = { id: 7, at, cause: 'writes' as const, figures };
    const grown = { ...figures, pageCount: 120 };
    expect(decideSample({ cause: 'open', now: at, figures, last: null })).toEqual({ kind: 'insert' });
    expect(decideSample({ cause: 'cleanup', now: at + 1, figures: grown, last })).toEqual({ kind: 'insert' });
    expect(decideSample({ cause: 'cleanup', now: at + 1, figures, last })).toEqual({ kind: 'skip' });
    expect(decideSample({ cause: 'writes', now: at + 4 * MINUTE_MS, figures: grown, last })).toEqual({
      kind: 'skip',
    });
    expect(decideSample({ cause: 'writes', now: at + 5 * MINUTE_MS, figures: grown, last })).toEqual({
      kind: 'insert',
    });
    expect(decideSample({ cause: 'open', now: at + HOUR_MS - 1, figures, last })).toEqual({ kind: 'skip' });
    expect(decideSample({ cause: 'open', now: at + HOUR_MS, figures, last })).toEqual({ kind: 'insert' });
  });

  it('a burst of cleanups within 30 s updates one sample; open and writes samples are never replaced', () => {
    const at = 1_000_000;
    const grown = { ...figures, pageCount: 120 };
    const cleaned = { id: 8, at, cause: 'cleanup' as const, figures };
    expect(decideSample({ cause: 'cleanup', now: at + 29_999, figures: grown, last: cleaned })).toEqual({
      kind: 'replace',
      id: 8,
    });
    expect(decideSample({ cause: 'maintain', now: at + 5_000, figures: grown, last: cleaned })).toEqual({
      kind: 'replace',
      id: 8,
    });
    expect(decideSample({ cause: 'cleanup', now: at + 30_000, figures: grown, last: cleaned })).toEqual({
      kind: 'insert',
    });
    for (const cause of ['open', 'writes'] as const) {
      const before = { id: 9, at, cause, figures };
      expect(decideSample({ cause: 'cleanup', now: at + 1_000, figures: grown, last: before })).toEqual({
        kind: 'insert',
      });
    }
  });
});

/**
 * 20,000 random bytes as base64, which zlib cannot shrink below those bytes; steps are stored
 * packed when that is smaller, and a repeated character would take a few dozen bytes.
 */
const noise = () => randomBytes(20_000).toString('base64');

describe('size history through the engine (Node, real SQLite in memory)', () => {
  async function seed(api: Awaited<ReturnType<typeof memoryBrain>>['api']) {
    const { id: sessionId } = await api.startSession({ title: 'growth' });
    const old = (await api.startTask({ sessionId, title: 'old attempt' })).id;
    for (let i = 0; i < 20; i++)
      await api.recordStep({ taskId: old, tool: 'dump', result: `${i}:${noise()}`, status: 'ok' });
    await api.setTaskState(old, 'superseded');
    await api.startTask({ sessionId, title: 'current' });
    return { sessionId, old };
  }

  it('samples on open, after a cleanup that removed data, and keeps the samples through cleanup', async () => {
    const clock = manualClock();
    const { api } = await memoryBrain({ clock });
    const first = await api.sizeHistory();
    expect(first.samples.map((s) => s.cause)).toEqual(['open']);
    expect(first.lastError).toBeNull();
    await seed(api);
    clock.advance(2 * MINUTE_MS);
    const audit = await api.audit();
    const report = await api.cleanup();
    expect(report.cleaned.length).toBe(1);
    const { samples } = await api.sizeHistory();
    const last = samples.at(-1)!;
    expect(last.cause).toBe('cleanup');
    expect(last.at).toBe(clock.t);
    // The sample's figures are the audit's, taken after the cleanup.
    const after = await api.audit();
    expect(last.fileBytes).toBe(after.fileBytes);
    expect(last.freeBytes).toBe(after.freeBytes);
    expect(last.stepBytes).toBe(after.bytes.steps);
    expect(last.checkpointBytes).toBe(after.bytes.checkpointStored);
    expect(last.heavyBytes).toBe(after.bytes.steps + after.bytes.checkpointStored);
    expect(last.stepBytes).toBeLessThan(audit.bytes.steps);
    expect(last.freeBytes).toBeGreaterThan(0);
    // A second cleanup with nothing to do adds no sample; the history survives cleanups.
    await api.cleanup();
    expect((await api.sizeHistory()).samples).toEqual(samples);
  });

  it('samples writes at most once per 5 minutes, and only when something was written', async () => {
    const clock = manualClock();
    const { api } = await memoryBrain({ clock });
    const { sessionId } = await seed(api);
    const count = async () => (await api.sizeHistory()).samples.length;
    expect(await count()).toBe(1); // open (before the seed)
    clock.advance(5 * MINUTE_MS);
    await api.recordMessage({ sessionId, role: 'user', content: 'more' });
    expect(await count()).toBe(2);
    const writes = (await api.sizeHistory()).samples[1]!;
    expect(writes.cause).toBe('writes');
    expect(writes.stepBytes).toBeGreaterThan(400_000);
    // Many writes within the interval: no sample.
    for (let i = 0; i < 30; i++) {
      clock.advance(5_000);
      await api.recordMessage({ sessionId, role: 'user', content: `message ${i}` });
    }
    expect(await count()).toBe(2);
    // The messages above were written after the last sample: the first call after the interval records them,
    // even a read.
    clock.advance(10 * MINUTE_MS);
    await api.listSessions();
    expect((await api.sizeHistory()).samples.map((s) => s.cause)).toEqual(['open', 'writes', 'writes']);
    // Reads only since then: nothing was written, no sample.
    clock.advance(6 * MINUTE_MS);
    await api.listSessions();
    expect(await count()).toBe(3);
  });

  it('samples after maintain and compact that change the file', async () => {
    const clock = manualClock();
    const { api } = await memoryBrain({ clock });
    // A new brain's file holds what its migrations left: migration 12 rebuilt a table, and the schema's pages keep
    // two only VACUUM gives back. Compact it first, so the file below has nothing to give back but what it is given.
    await api.compact();
    await seed(api);
    await api.cleanup();
    clock.advance(2 * MINUTE_MS);
    const maintained = await api.maintain({ budgetMs: 10_000, force: true });
    expect(maintained.pagesFreed).toBeGreaterThan(0);
    expect((await api.sizeHistory()).samples.at(-1)).toMatchObject({ cause: 'maintain', freeBytes: 0 });
    // Compacting a file with nothing to give back changes no figure: no sample.
    clock.advance(2 * MINUTE_MS);
    const before = (await api.sizeHistory()).samples.length;
    await api.compact();
    expect((await api.sizeHistory()).samples).toHaveLength(before);
    // More history, cleaned: compacting now shrinks the file.
    await seed(api);
    await api.cleanup();
    clock.advance(2 * MINUTE_MS);
    const { bytesBefore, bytesAfter } = await api.compact();
    expect(bytesAfter).toBeLessThan(bytesBefore);
    const causes = (await api.sizeHistory()).samples.map((s) => s.cause);
    expect(causes.slice(-2)).toEqual(['cleanup', 'compact']);
    expect((await api.sizeHistory()).samples.at(-1)).toMatchObject({ fileBytes: bytesAfter, freeBytes: 0 });
  });

  it('upkeep right after a cleanup updates the cleanup sample in place; the state before the cleanup stays', async () => {
    const clock = manualClock();
    const { api } = await memoryBrain({ clock });
    await seed(api);
    clock.advance(6 * MINUTE_MS);
    await api.listSessions(); // the writes sample: the state before cleanup
    clock.advance(MINUTE_MS);
    const cleanedAt = clock.t;
    await api.cleanup();
    clock.advance(5_000);
    const maintained = await api.maintain({ budgetMs: 10_000, force: true });
    expect(maintained.pagesFreed).toBeGreaterThan(0);
    const { samples } = await api.sizeHistory();
    expect(samples.map((s) => s.cause)).toEqual(['open', 'writes', 'maintain']);
    expect(samples[2]).toMatchObject({ at: cleanedAt, freeBytes: 0, stepBytes: 0 });
    expect(samples[1]!.stepBytes).toBeGreaterThan(400_000);
    expect(samples[2]!.fileBytes).toBeLessThan(samples[1]!.fileBytes);
  });

  it('stays bounded over a year of hourly activity', async () => {
    const clock = manualClock();
    const { api } = await memoryBrain({ clock });
    const { sessionId } = await seed(api);
    for (let hour = 0; hour < 24 * 365; hour += 6) {
      clock.advance(6 * HOUR_MS);
      await api.recordMessage({ sessionId, role: 'user', content: `hour ${hour}` });
      await api.listSessions();
    }
    const { samples } = await api.sizeHistory();
    expect(samples.length).toBeGreaterThan(100);
    expect(samples.length).toBeLessThanOrEqual(defaultSizeHistoryPolicy.maxSamples);
    // Oldest first, and a year of history is still there (weekly beyond 90 days).
    expect(samples.every((s, i) => i === 0 || s.at >= samples[i - 1]!.at)).toBe(true);
    expect(clock.t - samples[0]!.at).toBeGreaterThan(300 * DAY_MS);
  });

  it('filters by since and refuses a bad one', async () => {
    const clock = manualClock();
    const { api } = await memoryBrain({ clock });
    const { sessionId } = await seed(api);
    clock.advance(10 * MINUTE_MS);
    const middle = clock.t;
    await api.recordMessage({ sessionId, role: 'user', content: 'later' });
    const all = (await api.sizeHistory()).samples;
    expect(all).toHaveLength(2);
    expect((await api.sizeHistory({ since: middle })).samples).toEqual(all.slice(1));
    await expect(api.sizeHistory({ since: -1 })).rejects.toMatchObject({ code: 'InvalidArgument' });
    await expect(api.sizeHistory({ since: Number.NaN })).rejects.toMatchObject({ code: 'InvalidArgument' });
    await expect(api.sizeHistory(null as never)).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('a failed sample never fails the call; the error is reported by sizeHistory', async () => {
    const clock = manualClock();
    const { api, database } = await memoryBrain({ clock });
    await seed(api);
    // Break the table behind the engine's back: every insert now fails.
    await database.driver.exec(
      "CREATE TRIGGER no_samples BEFORE INSERT ON size_samples BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    clock.advance(10 * MINUTE_MS);
    await expect(api.cleanup()).resolves.toMatchObject({ cleaned: [expect.anything()] });
    const history = await api.sizeHistory();
    expect(history.samples).toHaveLength(1);
    expect(history.lastError?.message).toMatch(/refused/);
    await database.driver.exec('DROP TRIGGER no_samples');
    await api.maintain({ budgetMs: 10_000, force: true });
    expect((await api.sizeHistory()).lastError).toBeNull();
  });
});
