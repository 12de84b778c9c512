/**
 * Step search through the real worker on OPFS (issue 14, item 4): a bash session's steps are searchable the moment
 * `recordStep` returns — the word that begins a line of a command's output, the failure summary at the end of a
 * long one, a bare file name — with no compression in between. The same check as test/unit/history-steps.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain } from '../../src/lib/index';
import { bashSession } from '../fixtures/bash-session';
import { expectations, misses, ofKind, words, type Recorded } from '../unit/history-terms';

const open: Brain[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

describe('searchHistory over recorded steps, in the worker', () => {
  it('finds a line-initial word and the tail of a long output right after recordStep', async () => {
    const brain = await openBrain({
      dbName: `history-steps-${Date.now().toString(36)}.db`,
      closeOnPageHide: false,
    });
    open.push(brain);
    const { id: sessionId } = await brain.startSession({ title: 'django' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 'bulk_create' });
    const session = bashSession();
    const recorded: Recorded[] = [];
    for (const step of session.steps) {
      const { id } = await brain.recordStep({
        taskId,
        tool: 'bash',
        params: { command: step.command },
        result: { output: step.output, exitCode: step.exitCode },
        status: step.status,
      });
      recorded.push({ id, step });
    }
    const twenty = recorded[session.twentyKiB] as Recorded;
    const long = recorded[session.longSteps[0] as number] as Recorded;

    // The summary line that ends the 20 KB run: its first word begins a line and lies in the tail.
    const summaryWord = words(twenty.step.output.trimEnd().split('\n').at(-2) as string)[0] as string;
    const summary = await brain.searchHistory(summaryWord);
    expect(summary.hits.map((h) => [h.source, h.stepId])).toEqual([['step', twenty.id]]);
    expect(summary.hits[0]?.snippet).toContain(`\n[${summaryWord}]: `);
    // The last line of the 120 KB run, past everything a head-only index would keep.
    const lastWord = words(long.step.output.trimEnd().split('\n').at(-2) as string)[0] as string;
    expect((await brain.searchHistory(lastWord)).hits.map((h) => h.stepId)).toEqual([long.id]);
    const path = await brain.searchHistory('django/db/backends/postgresql/operations.py', { limit: 200 });
    expect(path.hits.map((h) => h.stepId)).toContain(twenty.id);

    const expected = expectations(recorded);
    expect(ofKind(expected, 'line-initial').length).toBeGreaterThan(100);
    expect(await misses(brain, expected)).toEqual([]);
  });
});
