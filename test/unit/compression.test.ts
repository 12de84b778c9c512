import { describe, expect, it } from 'vitest';
import { buildActiveCheckpoint } from '../../src/core/compression/extract';
import { planCompression } from '../../src/core/compression/plan-compression';
import { renderSessionSummary } from '../../src/core/compression/render';
import { parseSessionSummary } from '../../src/core/formats/session-summary';
import type { SessionEvent } from '../../src/core/events/model';
import { ids, log, plan, session, task } from './events-fixtures';

const build = (
  events: ReturnType<typeof log>,
  p: ReturnType<typeof plan> | null = null,
  taskTitle = 'Add CSV export',
) => buildActiveCheckpoint({ sessionId: session, taskId: task, taskTitle, events, plan: p });

describe('the active checkpoint extractor', () => {
  it('keeps decisions in force and drops superseded ones, following chains', () => {
    const cp = build(
      log(
        ['decision', 'Parse CSV by hand', { why: 'no dependency' }],
        ['decision', 'Use papaparse', { why: 'quoting is hard', supersedes: 1 }],
        ['decision', 'Dates are ISO 8601'],
        ['decision', 'Use csv-parse instead', { supersedes: 2 }],
        ['decision', 'Keep the old endpoint'],
      ),
    );
    expect(cp.decisions.map((d) => [d.eventId, d.text, d.replaces])).toEqual([
      [3, 'Dates are ISO 8601', []],
      [4, 'Use csv-parse instead', ids(1, 2)],
      [5, 'Keep the old endpoint', []],
    ]);
    expect(cp.decisions[0]?.why).toBeNull();
  });

  it('reports the latest open blocker and drops resolved ones', () => {
    const resolved = build(log(['blocker', 'No API key'], ['note', 'asked'], ['resolve', 1, 'Key arrived']));
    expect(resolved.blocker).toBeNull();
    expect(resolved.openBlockers).toEqual([]);
    expect(resolved.nextAction.kind).not.toBe('resolve_blocker');

    const open = build(log(['blocker', 'No API key'], ['blocker', 'CI is down'], ['resolve', 1]));
    expect(open.blocker).toMatchObject({ eventId: 2, text: 'CI is down' });
    expect(open.openBlockers.map((b) => b.eventId)).toEqual(ids(2));
    expect(open.nextAction).toMatchObject({ kind: 'resolve_blocker', eventId: 2 });
    expect(open.nextAction.text).toContain('CI is down');
  });

  it('keeps the latest result of each check, with its run counts, and marks it stale after a file change', () => {
    const cp = build(
      log(
        ['test', 'npm test', 'failed', { text: '2 failing' }],
        ['file', 'src/csv.ts', { entry: 7 }],
        ['test', 'npm test', 'passed'],
        ['test', 'typecheck', 'passed'],
        ['file', 'src/csv.ts', { entry: 8 }],
        ['test', 'lint', 'error', { text: 'eslint crashed' }],
      ),
    );
    expect(cp.validations.map((v) => [v.name, v.result, v.runs, v.failedRuns, v.stale])).toEqual([
      ['npm test', 'passed', 2, 1, true],
      ['typecheck', 'passed', 1, 0, true],
      ['lint', 'error', 1, 1, false],
    ]);
    expect(cp.nextAction).toMatchObject({ kind: 'fix_validation', eventId: 6 });
  });

  it('names the first unfinished plan step: a started one is continued, with its failing check', () => {
    const p = plan('Ship CSV export', [
      ['Read the report code', 'done'],
      ['Write the CSV writer', 'started'],
      ['Wire the button', 'todo'],
    ]);
    const failing = build(
      log(
        ['started', 2],
        ['file', 'src/csv.ts'],
        ['test', 'npm test', 'failed', { step: 2, text: 'quote bug' }],
      ),
      p,
    );
    expect(failing.nextAction).toMatchObject({ kind: 'continue_step', planStepN: 2, eventId: 3 });
    expect(failing.nextAction.text).toBe(
      'Continue step 2 of 3: Write the CSV writer — the last run of npm test failed: quote bug.',
    );

    const fixed = build(
      log(
        ['started', 2],
        ['test', 'npm test', 'failed', { step: 2 }],
        ['test', 'npm test', 'passed', { step: 2 }],
      ),
      p,
    );
    expect(fixed.nextAction).toMatchObject({ kind: 'continue_step', planStepN: 2, failing: null });

    const next = build(
      log(),
      plan('Ship', [
        ['A', 'done'],
        ['B', 'skipped'],
        ['C', 'todo'],
        ['D', 'todo'],
      ]),
    );
    expect(next.nextAction).toMatchObject({
      kind: 'start_step',
      planStepN: 3,
      text: 'Start step 3 of 4: C.',
    });

    const done = build(
      log(),
      plan('Ship', [
        ['A', 'done'],
        ['B', 'done'],
      ]),
    );
    expect(done.nextAction).toMatchObject({ kind: 'done', text: 'All 2 plan steps are done.' });
  });

  it('never passes over a started step for a later todo one, even when steps finish out of order', () => {
    const p = plan('Ship', [
      ['A', 'done'],
      ['B', 'todo'],
      ['C', 'done'],
      ['D', 'started'],
    ]);
    expect(build(log(), p).nextAction).toMatchObject({ kind: 'start_step', planStepN: 2 });
  });

  it('without a plan, follows the latest instruction, then the last noted next', () => {
    expect(build(log(['instruction', 'Add a header row'])).nextAction).toMatchObject({
      kind: 'follow_instruction',
      eventId: 1,
    });
    expect(
      build(log(['instruction', 'Add a header row'], ['progress', 'Header added', 'add a footer']))
        .nextAction,
    ).toMatchObject({
      kind: 'progress_next',
      text: 'Next, as last noted: add a footer',
    });
    expect(build(log()).nextAction.kind).toBe('none');
  });

  it('keeps the latest instruction and distinct earlier ones, dropping repeats', () => {
    const cp = build(
      log(
        ['instruction', 'Use ISO dates'],
        ['instruction', 'Keep it  small'],
        ['instruction', 'use iso dates'],
        ['instruction', 'Ship today'],
      ),
    );
    expect(cp.latestInstruction).toMatchObject({ eventId: 4, text: 'Ship today' });
    expect(cp.earlierInstructions.map((i) => i.eventId)).toEqual(ids(3, 2));
  });

  it('lists changed files with every checkpoint entry, in order of last change', () => {
    const cp = build(
      log(
        ['file', 'src/a.ts', { change: 'created', entry: 1 }],
        ['file', 'src/b.ts', { entry: 2 }],
        ['file', 'src/a.ts', { entry: 3, text: 'quote fields' }],
        ['file', 'src/old.ts', { change: 'deleted' }],
      ),
    );
    expect(cp.files.map((f) => [f.path, f.change, f.edits, f.checkpointEntryIds, f.lastText])).toEqual([
      ['src/b.ts', 'modified', 1, [2], ''],
      ['src/a.ts', 'created', 2, [1, 3], 'quote fields'],
      ['src/old.ts', 'deleted', 1, [], ''],
    ]);
  });

  it('keeps open questions and recent answers', () => {
    const cp = build(
      log(['question', 'Export empty rows?'], ['question', 'Which delimiter?'], ['answer', 2, 'Semicolon']),
    );
    expect(cp.openQuestions.map((q) => q.text)).toEqual(['Export empty rows?']);
    expect(cp.answers).toMatchObject([{ eventId: 3, question: 'Which delimiter?', text: 'Semicolon' }]);
  });

  it('is deterministic: the order events arrive in does not matter', () => {
    const events = log(
      ['instruction', 'Go'],
      ['decision', 'A'],
      ['decision', 'B', { supersedes: 2 }],
      ['blocker', 'x'],
      ['test', 't', 'failed'],
    );
    expect(build([...events].reverse())).toEqual(build(events));
  });

  it('takes the goal from the plan, else the task, else the first instruction', () => {
    expect(build(log(), plan('Plan goal', [])).goal).toBe('Plan goal');
    expect(build(log(['instruction', 'Do X']), null, '').goal).toBe('Do X');
    expect(build(log(['instruction', 'Do X'])).goal).toBe('Add CSV export');
  });
});

describe('planning a compression', () => {
  const events = log(
    ['instruction', 'Add CSV export'],
    ['decision', 'Hand-written parser'],
    ['note', 'thinking about quoting…'],
    ['decision', 'Use papaparse', { supersedes: 2 }],
    ['blocker', 'npm registry down'],
    ['resolve', 5, 'back up'],
    ['test', 'npm test', 'failed'],
    ['file', 'src/csv.ts', { entry: 1 }],
    ['test', 'npm test', 'passed'],
    ['note', 'tail 1'],
    ['note', 'tail 2'],
  );

  it('moves all but the tail out of the context and says why each event was kept or dropped', () => {
    const result = planCompression({
      sessionId: session,
      taskId: task,
      events,
      plan: null,
      limits: { keepTail: 2 },
    });
    expect(result.tail.map((e) => e.id)).toEqual(ids(10, 11));
    expect(result.compress.map((e) => e.id)).toEqual(ids(1, 2, 3, 4, 5, 6, 7, 8, 9));
    const reasons = Object.fromEntries(
      [...result.budget.kept, ...result.budget.dropped].map((i) => [i.eventId, i.reason]),
    );
    expect(reasons).toMatchObject({
      1: 'latest instruction',
      2: 'superseded by decision #4',
      3: 'free text',
      4: 'decision in force',
      5: 'resolved by #6',
      6: 'resolution of blocker #5',
      7: 'older run of npm test (latest: #9, passed)',
      8: 'latest change to src/csv.ts',
      9: 'latest run of npm test',
    });
    expect(result.budget.kept.map((i) => i.eventId)).toEqual(ids(1, 4, 8, 9));
    expect(result.budget.before.events).toBe(11);
    expect(result.budget.after.tailEvents).toBe(2);
    expect(result.budget.after.chars).toBe(result.markdown.length + result.budget.after.tailChars);
  });

  it('counts only active events and bounds the tail by characters too', () => {
    const partly = events.map((e) => (e.id <= 4 ? { ...e, compressedAt: 1 } : e));
    const result = planCompression({
      sessionId: session,
      taskId: task,
      events: partly,
      plan: null,
      limits: { keepTail: 100, maxTailChars: 300 },
    });
    expect(result.budget.before.events).toBe(7);
    expect(result.budget.after.tailChars).toBeLessThanOrEqual(300);
    expect(result.tail.length).toBeGreaterThan(0);
    expect(result.tail.length).toBeLessThan(7);
    // Compressed events still shape the checkpoint: the superseded decision stays out, the one in force stays in.
    expect(result.checkpoint.decisions.map((d) => d.eventId)).toEqual(ids(4));
  });
});

describe('SESSION_SUMMARY.md', () => {
  it('reads well: goal, next action first, then what is in force, with event numbers', () => {
    const p = plan('Ship CSV export', [
      ['Read the report code', 'done'],
      ['Write the CSV writer', 'started'],
      ['Wire the button', 'todo'],
    ]);
    const cp = build(
      log(
        ['instruction', 'Add CSV export to reports'],
        ['decision', 'Hand-written parser'],
        ['decision', 'Use papaparse', { why: 'it handles quoting', supersedes: 2 }],
        ['file', 'src/csv.ts', { change: 'created', entry: 5, text: 'writer | first cut' }],
        ['test', 'npm test', 'failed', { step: 2, text: 'quotes not escaped' }],
        ['question', 'Include hidden columns?'],
      ),
      p,
    );
    const md = renderSessionSummary(cp, {
      taskTitle: 'CSV export',
      compressedAt: Date.UTC(2026, 10, 30, 21, 40),
    });
    expect(md).toContain('_session 1 · task #1 · compressed 2026-11-30 21:40 UTC · up to event #6_');
    expect(md.indexOf('## Next action')).toBeLessThan(md.indexOf('## Decisions in force'));
    expect(md).toContain(
      '**Continue step 2 of 3: Write the CSV writer — the last run of npm test failed: quotes not escaped.**',
    );
    expect(md).toContain('- Use papaparse — why: it handles quoting (#3; replaces #2)');
    expect(md).not.toContain('Hand-written parser');
    expect(md).toContain('- `src/csv.ts` created, 1 edit (#4; checkpoint #5) — writer | first cut');
    expect(md).toContain('- [~] 2. Write the CSV writer — _because write the csv writer_ ← next');
    expect(md).toContain('## Plan — 1 of 3 done');

    // The format module reads it back: every standard section where it expects it.
    const parsed = parseSessionSummary(md);
    expect(parsed.problems).toEqual([]);
    expect(parsed).toMatchObject({
      title: 'CSV export',
      sessionId: '1',
      taskId: '1',
      updatedAt: Date.UTC(2026, 10, 30, 21, 40),
      goal: 'Ship CSV export',
      latestInstruction: '> Add CSV export to reports (#1)',
      decisions: ['Use papaparse — why: it handles quoting (#3; replaces #2)'],
      changedFiles: ['`src/csv.ts` created, 1 edit (#4; checkpoint #5) — writer | first cut'],
      validation: ['❌ `npm test` failed: quotes not escaped (#5, step 2)'],
      blocker: null,
      nextAction:
        '**Continue step 2 of 3: Write the CSV writer — the last run of npm test failed: quotes not escaped.**',
      openQuestions: ['Include hidden columns? (#6)'],
    });
    expect(parsed.otherSections.map((s) => s.title)).toEqual(['Plan — 1 of 3 done']);
    expect(md).toMatchSnapshot();
  });

  it('adds prose on top when given, marked stale when events came after it', () => {
    const cp = build(log(['instruction', 'Go']));
    expect(renderSessionSummary(cp, { prose: 'We are early.' })).toContain('## Notes\n\nWe are early.');
    expect(renderSessionSummary(cp, { prose: 'Old words', proseStale: true })).toContain(
      '## Notes (written before the latest events)',
    );
    expect(renderSessionSummary(cp)).not.toContain('## Notes');
  });
});

describe('SESSION_SUMMARY.md on a long session', () => {
  it('shows the newest 10 decisions and those about a changed file, and says how to list the rest', () => {
    const many = log(
      ['file', 'src/paginate.ts'],
      ...Array.from({ length: 70 }, (_, i) => ['decision', `Decision ${i + 1}`] as ['decision', string]),
    );
    const tied = { ...many[5], text: 'Decision 5: keep the last page in src/paginate.ts' } as SessionEvent;
    const events = many.map((e) => (e.id === tied.id ? tied : e));
    const md = renderSessionSummary(build(events));
    expect(md).toContain('- Decision 70 (#71)');
    expect(md).toContain('- Decision 61 (#62)');
    expect(md).not.toContain('- Decision 60 (#61)');
    expect(md).toContain('- Decision 5: keep the last page in src/paginate.ts (#6)');
    expect(md).toContain(
      '- … and 59 older decisions in force, not about a file still changed (list them: listEvents(1, { kinds: [\'decision\'] }), or search the history for "decision").',
    );
    expect(build(events).decisions).toHaveLength(70);
  });
});
