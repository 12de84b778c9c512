import { describe, expect, it } from 'vitest';
import type { NewEventInput } from '../../src/core/api';
import { memoryBrain } from './engine-helpers';

async function setUp() {
  const { api } = await memoryBrain();
  const { id: sessionId } = await api.startSession({ title: 'CSV' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Add CSV export' });
  return { api, sessionId, taskId };
}

describe('searchHistory', () => {
  it('finds a superseded decision and a compressed-away file change, linked to session, task and checkpoint', async () => {
    const { api, sessionId, taskId } = await setUp();
    const early = await api.recordDecision({
      sessionId,
      text: 'Parse CSV with a hand-written state machine',
      why: 'no dependency',
    });
    const change = await api.recordFileChange({
      sessionId,
      path: 'src/csv/parser.ts',
      change: 'created',
      checkpointEntryId: 31 as never,
      text: 'state machine',
    });
    await api.recordDecision({ sessionId, text: 'Use papaparse instead', supersedes: early.id });
    await api.recordNote({ sessionId, text: 'unrelated chatter' });
    await api.compressContext(sessionId, { keepTail: 1 });
    await api.recordNote({ sessionId, text: 'more' });
    await api.compressContext(sessionId, { keepTail: 1 });

    const decision = await api.searchHistory('hand-written state machine');
    expect(decision.matched).toBe('all');
    expect(decision.hits[0]).toMatchObject({
      source: 'event',
      eventId: early.id,
      sessionId,
      taskId,
      kind: 'decision',
    });
    expect(decision.hits[0]?.snippet).toContain('[state] [machine]');

    const file = await api.searchHistory('parser.ts', { kinds: ['file_change'] });
    expect(file.hits).toHaveLength(1);
    expect(file.hits[0]).toMatchObject({
      eventId: change.id,
      path: 'src/csv/parser.ts',
      checkpointEntryId: 31,
      title: 'File change src/csv/parser.ts',
    });
  });

  it('ranks the better match first and falls back to any word when no event has them all', async () => {
    const { api, sessionId } = await setUp();
    await api.recordNote({ sessionId, text: 'quote handling in the exporter' });
    const best = await api.recordNote({
      sessionId,
      text: 'quote quote quote: embedded quote characters break rows',
    });
    const ranked = await api.searchHistory('quote');
    expect(ranked.hits[0]?.eventId).toBe(best.id);
    expect(ranked.hits.map((h) => h.score)).toEqual(
      [...ranked.hits.map((h) => h.score)].sort((a, b) => a - b),
    );
    const fallback = await api.searchHistory('exporter nonexistentword');
    expect(fallback.matched).toBe('any');
    expect(fallback.hits).toHaveLength(1);
  });

  it('takes what people type: operators, quotes and brackets are words, a trailing * is a prefix', async () => {
    const { api, sessionId } = await setUp();
    await api.recordNote({ sessionId, text: 'papaparse handles (quoted) fields AND newlines' });
    expect((await api.searchHistory('"quoted" AND (fields')).hits).toHaveLength(1);
    expect((await api.searchHistory('papapar*')).hits).toHaveLength(1);
    expect(await api.searchHistory('   ()  ')).toEqual({ hits: [], matched: 'none' });
    expect((await api.searchHistory('zebra')).matched).toBe('none');
    await expect(api.searchHistory('x', { limit: 1000 })).rejects.toMatchObject({ code: 'InvalidArgument' });
  });

  it('searches step results at once and summaries once compressed, but not its own checkpoint summaries', async () => {
    const { api, sessionId, taskId } = await setUp();
    const { id: stepId } = await api.recordStep({
      taskId,
      tool: 'run_tests',
      params: { cmd: 'npm test' },
      result: { failing: 'serialiseRow drops trailing delimiter' },
      status: 'error',
    });
    await api.recordSummary({
      sessionId,
      taskId,
      kind: 'task',
      content: 'The exporter now writes a BOM for Excel.',
    });
    const found = {
      source: 'step',
      stepId,
      taskId,
      sessionId,
      title: 'Step 1: run_tests (error)',
      // The decoded text: params, then result, a leaf a line under its key.
      snippet: 'cmd: npm test\n\nfailing: serialiseRow drops [trailing] [delimiter]',
    };
    expect((await api.searchHistory('trailing delimiter')).hits).toEqual([expect.objectContaining(found)]);
    expect((await api.searchHistory('BOM Excel')).hits).toHaveLength(0);
    await api.recordInstruction({ sessionId, text: 'Make Excel happy' });
    await api.compressContext(sessionId);
    expect((await api.searchHistory('trailing delimiter')).hits).toEqual([expect.objectContaining(found)]);
    const summary = await api.searchHistory('BOM Excel');
    expect(summary.hits.map((h) => h.source)).toEqual(['summary']);
    expect((await api.searchHistory('Make Excel happy')).hits.map((h) => h.source)).toEqual(['event']);
  });

  it('filters by session, also when most matches are elsewhere', async () => {
    const { api, sessionId } = await setUp();
    const other = await api.startSession({ title: 'noise' });
    await api.recordNote({ sessionId, text: 'needle in the first session' });
    const noise: NewEventInput[] = Array.from({ length: 2500 }, (_, i) => ({
      sessionId: other.id,
      kind: 'note',
      text: `needle noise ${i}`,
    }));
    await api.recordEvents(noise);
    const all = await api.searchHistory('needle', { limit: 5 });
    expect(all.hits.every((h) => h.sessionId === other.id)).toBe(true);
    const mine = await api.searchHistory('needle', { sessionId });
    expect(mine.hits.map((h) => h.sessionId)).toEqual([sessionId]);
  });
});

describe('the page cache', () => {
  it('is 32 MiB from the moment the database opens, and search leaves a larger one alone', async () => {
    const { api, database } = await memoryBrain();
    expect(await database.driver.get('PRAGMA cache_size')).toEqual({ cache_size: -32768 });
    const { id: sessionId } = await api.startSession();
    await api.recordNote({ sessionId, text: 'x' });
    await api.searchHistory('x');
    await database.driver.exec('PRAGMA cache_size = -65536');
    await api.searchHistory('x');
    expect(await database.driver.get('PRAGMA cache_size')).toEqual({ cache_size: -65536 });
  });
});

describe('recordEvents', () => {
  it('records a batch in one transaction: all or none', async () => {
    const { api, sessionId } = await setUp();
    const ok = await api.recordEvents([
      { sessionId, kind: 'instruction', text: 'a' },
      { sessionId, kind: 'validation', name: 'tsc', result: 'passed' },
    ]);
    expect(ok.ids).toHaveLength(2);
    await expect(
      api.recordEvents([
        { sessionId, kind: 'note', text: 'fine' },
        { sessionId, kind: 'validation', name: 'tsc', result: 'maybe' as never },
      ]),
    ).rejects.toMatchObject({ code: 'InvalidArgument', message: expect.stringContaining('Event 1') });
    await expect(
      api.recordEvents([
        { sessionId, kind: 'note', text: 'fine' },
        { sessionId: 999 as never, kind: 'note', text: 'x' },
      ]),
    ).rejects.toMatchObject({
      code: 'NotFound',
    });
    expect(await api.listEvents(sessionId)).toHaveLength(2);
  });
});
