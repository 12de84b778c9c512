import { describe, expect, it } from 'vitest';
import {
  appendPlanItem,
  appendProgressEntry,
  createPlanText,
  createProgressText,
  createSessionSummaryText,
  parsePlan,
  parseProgress,
  parseSessionSummary,
  setPlanItemStatus,
  type SessionSummaryContent,
} from '../../src/core/formats';

const plan =
  '# Plan: Demo\r\n\r\n## Steps\r\n- [ ] First {#one}\r\n- [x] Second {#two}\r\n  - [ ] nested\r\n\r\n## Notes\r\ntext';

describe('PLAN.md', () => {
  it('changes one status by rewriting one character', () => {
    const started = setPlanItemStatus(plan, { id: 'one' }, 'started');
    expect(started).toBe(plan.replace('- [ ] First', '- [/] First'));
    expect(setPlanItemStatus(started, { index: 2 }, 'done')).toBe(
      started.replace('- [ ] nested', '- [x] nested'),
    );
    expect(setPlanItemStatus(plan, { id: 'two' }, 'done')).toBe(plan);
    expect(setPlanItemStatus(plan, { id: 'two' }, 'skipped')).toBe(plan.replace('[x] Second', '[-] Second'));
    expect(() => setPlanItemStatus(plan, { id: 'nope' }, 'done')).toThrow(
      expect.objectContaining({ code: 'NotFound' }),
    );
    expect(() => setPlanItemStatus(plan, { index: 9 }, 'done')).toThrow(
      expect.objectContaining({ code: 'NotFound' }),
    );
  });

  it('appends after the last item and its nested ones, before the next section', () => {
    const added = appendPlanItem(plan, { text: 'Third', id: 'three' });
    expect(added).toBe(plan.replace('  - [ ] nested\r\n', '  - [ ] nested\r\n- [ ] Third {#three}\r\n'));
    expect(parsePlan(added).items.map((i) => i.id)).toEqual(['one', 'two', null, 'three']);
    expect(() => appendPlanItem(plan, { text: 'x', id: 'one' })).toThrow(
      expect.objectContaining({ code: 'Conflict' }),
    );
    expect(() => appendPlanItem(plan, { text: 'x', id: 'bad id' })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
    expect(appendPlanItem('# Plan\n', { text: 'first' })).toBe('# Plan\n- [ ] first\n');
  });

  it('creates a plan that parses back to what was given', () => {
    const text = createPlanText({
      title: 'Ship it',
      goal: 'Because users wait.',
      items: [
        { text: 'Build', id: 'build', status: 'done' },
        { text: 'Test\nall of it', id: 'test' },
        { text: 'Release' },
      ],
    });
    const parsed = parsePlan(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed).toMatchObject({ version: 1, title: 'Ship it', goal: 'Because users wait.' });
    expect(parsed.items.map((i) => [i.id, i.text, i.status, i.section])).toEqual([
      ['build', 'Build', 'done', 'Steps'],
      ['test', 'Test\nall of it', 'todo', 'Steps'],
      [null, 'Release', 'todo', 'Steps'],
    ]);
    expect(() =>
      createPlanText({
        title: 'x',
        items: [
          { text: 'a', id: 'd' },
          { text: 'b', id: 'd' },
        ],
      }),
    ).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
  });

  it('ignores checkboxes in code blocks and plain list items', () => {
    const items = parsePlan('- plain\n```\n- [ ] in code\n```\n* [X] star {#s}\n3) [ ] paren\n').items;
    expect(items.map((i) => [i.text, i.status, i.id])).toEqual([
      ['star', 'done', 's'],
      ['paren', 'todo', null],
    ]);
  });
});

describe('PROGRESS.md', () => {
  it('appends entries at the end in the file’s line endings and reads them back', () => {
    let text = createProgressText();
    text = appendProgressEntry(text, {
      time: Date.UTC(2026, 10, 30, 14, 2, 11),
      kind: 'started',
      itemId: 'fix',
      text: 'Going.',
    });
    text = appendProgressEntry(text, {
      time: Date.UTC(2026, 10, 30, 14, 3),
      kind: 'note',
      text: 'two\nlines',
    });
    expect(text).toBe(
      '# Progress\n\n- 2026-11-30T14:02:11.000Z started #fix: Going.\n- 2026-11-30T14:03:00.000Z note: two\n  lines\n',
    );
    expect(parseProgress(text).entries).toEqual([
      { time: Date.UTC(2026, 10, 30, 14, 2, 11), kind: 'started', itemId: 'fix', text: 'Going.', line: 3 },
      { time: Date.UTC(2026, 10, 30, 14, 3), kind: 'note', itemId: null, text: 'two\nlines', line: 4 },
    ]);
    expect(appendProgressEntry('# P\r\n- old', { time: 0, kind: 'done', text: 'x' })).toBe(
      '# P\r\n- old\r\n- 1970-01-01T00:00:00.000Z done: x\r\n',
    );
  });

  it('refuses entries it could not read back', () => {
    expect(() => appendProgressEntry('', { time: Number.NaN, kind: 'done', text: 'x' })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
    expect(() => appendProgressEntry('', { time: 1, kind: 'Done!', text: 'x' })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
  });
});

describe('SESSION_SUMMARY.md', () => {
  const content: SessionSummaryContent = {
    title: 'Fix paginate',
    sessionId: '12',
    taskId: '34',
    updatedAt: Date.UTC(2026, 10, 30, 14, 12),
    goal: 'Page 3 is wrong.\nFix it.',
    latestInstruction: 'Add a regression test.',
    decisions: ['Keep 1-based pages.', 'Use vitest.'],
    changedFiles: ['`src/paginate.ts` (checkpoint 12)'],
    validation: ['npm test: 7 passed'],
    blocker: null,
    nextAction: 'Commit.',
    openQuestions: [],
  };

  it('writes the layout and reads back the same content', () => {
    const text = createSessionSummaryText(content);
    const parsed = parseSessionSummary(text);
    expect(parsed.problems).toEqual([]);
    const { document: _d, problems: _p, otherSections, version, ...read } = parsed;
    expect(read).toEqual(content);
    expect(version).toBe(1);
    expect(otherSections).toEqual([]);
    expect(text).toContain('## Blocker\n\nNone.\n');
    expect(text.endsWith('## Open questions\n\nNone.\n')).toBe(true);
  });

  it('reads aliases and keeps unknown sections', () => {
    const parsed = parseSessionSummary('# S\n## Decisions\n- a\n## Next\nGo.\n## Mood\nfine\n');
    expect(parsed.decisions).toEqual(['a']);
    expect(parsed.nextAction).toBe('Go.');
    expect(parsed.otherSections).toEqual([{ title: 'Mood', body: 'fine\n' }]);
  });
});
