/**
 * Search that finds what an agent looks for in its own tool steps (issue 14, item 4): a bash-only session in its
 * real shape (test/fixtures/bash-session.ts) recorded through `recordStep`, then every distinctive term of every
 * step's output — words that begin a line, the last lines of a long output, whole paths, path tails and bare file
 * names — looked up with `searchHistory`, right after recording and again after a compression. A control runs the
 * same check over the index as the previous build wrote it (cut JSON text) and must see it fail.
 */
import { describe, expect, it } from 'vitest';
import type { TaskId } from '../../src/core/api';
import { bashSession } from '../fixtures/bash-session';
import { memoryBrain } from './engine-helpers';
import { expectations, LONG, misses, ofKind, words, type Recorded } from './history-terms';

async function recordSession() {
  const brain = await memoryBrain();
  const { api } = brain;
  const { id: sessionId } = await api.startSession({ title: 'django__django-16315' });
  const { id: taskId } = await api.startTask({
    sessionId,
    title: 'bulk_create crashes on mixed-case columns',
  });
  await api.recordInstruction({ sessionId, text: 'Fix bulk_create() with update_conflicts on db_column' });
  const session = bashSession();
  const recorded: Recorded[] = [];
  for (const step of session.steps) {
    const { id } = await api.recordStep({
      taskId,
      tool: 'bash',
      params: { command: step.command },
      result: { output: step.output, exitCode: step.exitCode },
      status: step.status,
    });
    recorded.push({ id, step });
  }
  return { ...brain, sessionId, taskId, session, recorded, expected: expectations(recorded) };
}

describe('searchHistory over a bash-only agent session', () => {
  it(
    'finds every distinctive term of every output as soon as it is recorded, and after a compression',
    { timeout: 120_000 },
    async () => {
      const { api, database, sessionId, session, recorded, expected } = await recordSession();
      expect(session.steps.length).toBeGreaterThanOrEqual(60);
      const twenty = recorded[session.twentyKiB] as Recorded;
      expect(twenty.step.output.length).toBeGreaterThan(19_000);
      expect(twenty.step.output.length).toBeLessThan(LONG);
      // The check covers what the old index missed, many times over.
      expect(ofKind(expected, 'line-initial').length).toBeGreaterThan(100);
      expect(ofKind(expected, 'tail').length).toBeGreaterThanOrEqual(10);
      expect(ofKind(expected, 'file name').length).toBeGreaterThan(20);
      for (const query of [
        'django/db/backends/postgresql/operations.py',
        'postgresql/operations.py',
        'operations.py',
      ])
        expect(expected.get(query)?.steps.has(twenty.id)).toBe(true);
      // The failure summary at the end of the 20 KB run.
      const summary = twenty.step.output.trimEnd().split('\n').at(-2) as string;
      const summaryWord = words(summary)[0] as string;
      expect(expected.get(summaryWord)?.kinds).toEqual(new Set(['word', 'line-initial', 'tail']));

      expect(await misses(api, expected)).toEqual([]);
      const hit = (await api.searchHistory(summaryWord)).hits;
      expect(hit).toHaveLength(1);
      expect(hit[0]).toMatchObject({
        source: 'step',
        stepId: twenty.id,
        title: expect.stringMatching(/: bash \(error\)$/),
      });
      expect(hit[0]?.snippet).toContain(`\n[${summaryWord}]: `);

      // A line pasted from the output, punctuation and all, finds its step with every word.
      const failedLine = twenty.step.output.split('\n').find((line) => line.startsWith('FAILED ')) as string;
      expect(failedLine).toContain(' - django.db.utils.ProgrammingError');
      const pasted = await api.searchHistory(failedLine);
      expect(pasted.matched).toBe('all');
      expect(pasted.hits.map((h) => h.stepId)).toEqual([twenty.id]);

      await api.compressContext(sessionId);
      expect(await misses(api, expected)).toEqual([]);
      // The compression indexed no step again: one document per step.
      expect(
        await database.driver.get(
          "SELECT count(*) AS docs, count(DISTINCT source_id) AS steps FROM history_docs WHERE source = 'step'",
        ),
      ).toEqual({ docs: recorded.length, steps: recorded.length });
    },
  );

  it('keeps the head and the tail of a long output and says what it cut', async () => {
    const { api, session, recorded, expected } = await recordSession();
    const long = recorded[session.longSteps[0] as number] as Recorded;
    const { output } = long.step;
    expect(output.length).toBeGreaterThan(100_000);
    const middle = words(output.slice(40_000, output.length - 20_000)).filter(
      (w) =>
        w.length >= 8 && !expected.has(w) && !recorded.some((r) => r !== long && r.step.output.includes(w)),
    );
    expect(middle.length).toBeGreaterThan(50);
    for (const word of middle.slice(0, 20))
      expect((await api.searchHistory(word, { kinds: ['step'] })).hits).toEqual([]);
    // Control: the same search finds a word of the kept tail.
    const tail = ofKind(expected, 'tail').find((w) => expected.get(w)?.steps.has(long.id)) as string;
    expect((await api.searchHistory(tail)).hits.map((h) => h.stepId)).toEqual([long.id]);
    const cut = (await api.searchHistory('characters not indexed')).hits;
    expect(cut.map((h) => h.stepId)).toEqual([long.id]);
    expect(cut[0]?.snippet).toMatch(/\[… \d+ \[characters\] \[not\] \[indexed\] …\]/);
  });

  it('control: the same check fails over the index the previous build wrote (cut JSON text)', async () => {
    const { api, database, recorded, expected } = await recordSession();
    const old = await api.searchHistory('ndjango', { kinds: ['step'] });
    expect(old.hits).toEqual([]);
    // The previous build's indexPendingSteps: the first 1,000 characters of params and 4,000 of result, as JSON.
    await database.driver.run(
      `UPDATE history_docs SET body = substr(st.params, 1, 1000) || char(10) || substr(st.result, 1, 4000)
       FROM steps st WHERE history_docs.source = 'step' AND st.id = history_docs.source_id`,
    );
    const missed = await misses(api, expected);
    const kinds = new Set(missed.flatMap((m) => m.kinds));
    expect(kinds).toContain('line-initial');
    expect(kinds).toContain('tail');
    expect(kinds).toContain('path');
    // The token the JSON text made of "…py\ndjango/db/…".
    expect((await api.searchHistory('ndjango', { kinds: ['step'] })).hits.length).toBeGreaterThan(0);
    expect(missed.length).toBeGreaterThan(expected.size / 2);
    expect(recorded.length).toBeGreaterThan(0);
  });
});

describe('recordStep and the index', () => {
  it('replaces the document of a removed step whose id a new step takes', async () => {
    const { api, database } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: taskId } = await api.startTask({ sessionId, title: 't' });
    const record = (output: string) =>
      api.recordStep({ taskId, tool: 'bash', params: { command: 'ls' }, result: { output }, status: 'ok' });
    await record('first\nalphaword');
    const { id } = await record('second\nbetaword');
    // Removed as cleanup removes steps: the document stays (light data), its step link goes.
    await database.driver.run('DELETE FROM steps WHERE id = ?', [id]);
    const again = await record('third\ngammaword');
    expect(again.id).toBe(id);
    expect((await api.searchHistory('gammaword')).hits.map((h) => h.stepId)).toEqual([id]);
    expect((await api.searchHistory('betaword')).hits).toEqual([]);
    expect((await api.searchHistory('alphaword')).hits).toHaveLength(1);
  });

  it('is all or nothing: a step that cannot be recorded leaves no document', async () => {
    const { api, database } = await memoryBrain();
    await expect(
      api.recordStep({
        taskId: 99 as TaskId,
        tool: 'bash',
        params: {},
        result: { output: 'x\nlostword' },
        status: 'ok',
      }),
    ).rejects.toMatchObject({ code: 'NotFound' });
    expect(await database.driver.get('SELECT count(*) AS n FROM history_docs')).toEqual({ n: 0 });
  });
});
