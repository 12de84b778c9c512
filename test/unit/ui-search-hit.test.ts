import { describe, expect, it } from 'vitest';
import { demoScript } from '../../src/ui/demo/script';
import { eventDocument } from '../../src/core/events/model';
import { stepTitle } from '../../src/core/events/step-text';
import { hitHeading, searchExamples, supersededDecisions } from '../../src/ui/search-hit';
import type { HistoryHit } from '../../src/lib/index';

/** A hit as the engine builds it: the title and text from core's own document of the event. */
function eventHit(event: Parameters<typeof eventDocument>[0], snippet?: string) {
  const doc = eventDocument(event);
  return {
    kind: event.kind,
    title: doc.title,
    path: event.kind === 'file_change' ? event.path : null,
    snippet: snippet ?? doc.body,
  };
}

const base = { id: 7, sessionId: 1, taskId: 2, planStepId: null, createdAt: 0 } as const;

describe('a search hit says each thing once', () => {
  it('a file change: the path once, not in the title and again beside it', () => {
    const hit = eventHit({
      ...base,
      kind: 'file_change',
      path: 'src/paginate.ts',
      change: 'modified',
      text: 'loop bound',
      checkpointEntryId: null,
    } as never);
    expect(hit.title).toBe('File change src/paginate.ts');
    const heading = hitHeading(hit);
    expect(heading).toMatchObject({ badge: 'file change', title: null, path: 'src/paginate.ts' });
  });

  it('a decision: "decision" once, as the badge (no title "Decision", no "Decision:" before its text)', () => {
    const hit = eventHit({
      ...base,
      kind: 'decision',
      text: 'Cursors are opaque',
      why: null,
      supersedes: null,
    } as never);
    expect([hit.title, hit.snippet]).toEqual(['Decision', 'Decision: Cursors are opaque']);
    const heading = hitHeading(hit);
    expect(heading).toMatchObject({ badge: 'decision', title: null, snippet: 'Cursors are opaque' });
    // The engine's snippet marks the word when the query asked for it: still dropped, the hit marks stay.
    expect(hitHeading({ ...hit, snippet: '[Decision]: Change the [loop] bound' }).snippet).toBe(
      'Change the [loop] bound',
    );
  });

  it('a check keeps its name and result; a step its number and tool', () => {
    const check = eventHit({
      ...base,
      kind: 'validation',
      name: 'npm test',
      result: 'passed',
      text: '7 passed',
    } as never);
    expect(hitHeading(check)).toMatchObject({ badge: 'validation', title: 'npm test passed' });
    const step = {
      kind: 'step',
      title: stepTitle({ seq: 3, tool: 'bash', status: 'error' }),
      path: null,
      snippet: 'x',
    };
    expect(hitHeading(step)).toMatchObject({ badge: 'step', title: '#3 bash (error)' });
  });

  it('a superseded decision says so', () => {
    const hit = eventHit({
      ...base,
      kind: 'decision',
      text: 'Cursors are indexes',
      why: null,
      supersedes: null,
    } as never);
    expect(hitHeading(hit, true)).toMatchObject({ badge: 'superseded decision', superseded: true });
    expect(hitHeading(hit).superseded).toBe(false);
  });
});

describe('which decision hits were superseded', () => {
  const hit = (eventId: number, kind = 'decision') => ({ kind, eventId: eventId as HistoryHit['eventId'] });
  it('maps a decision hit to the later decision that names it, and nothing else', () => {
    const later = [
      { id: 12, kind: 'decision', supersedes: 10 },
      { id: 13, kind: 'decision', supersedes: null },
      { id: 14, kind: 'note' },
      { id: 15, kind: 'decision', supersedes: 99 },
    ];
    const replaced = supersededDecisions([hit(10), hit(11), hit(12), hit(99, 'note')], later);
    expect([...replaced]).toEqual([[10, 12]]);
    // Control: with no later decision naming it, the same hit is not superseded.
    expect(supersededDecisions([hit(10)], later.slice(1)).size).toBe(0);
  });
});

describe('the search box example', () => {
  it('names words the built-in demo records, so trying it finds something', () => {
    const text = JSON.stringify(demoScript);
    for (const example of searchExamples) expect(text, example).toContain(example);
  });
});
