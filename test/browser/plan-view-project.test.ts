/**
 * Issue 17, item 3, in Chromium with the real worker: Plan & progress shows the open project's own PLAN.md and
 * PROGRESS.md (marked as the file's) when the session recorded no plan, and "Compress the context now" is disabled,
 * with the reason said, when a compression would move nothing.
 */
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { Brain } from '../../src/lib/index';
import PlanView from '../../src/ui/components/PlanView.svelte';
import { BrainState } from '../../src/ui/state/brain.svelte';
import { compressBlocker, PlanState } from '../../src/ui/state/plan.svelte';
import { Router } from '../../src/ui/state/router.svelte';

let counter = 0;
const unique = (what: string) => `plan-view-${what}-${Date.now().toString(36)}-${++counter}`;
const opened: BrainState[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

// A plan and a progress log as the formats' definitions lay them out (src/core/formats/plan.ts and progress.ts),
// written by a person or another run of the agent: five steps, two done, one in progress.
const planText = `---
version: 1
---

# Plan: Every page shows one item too many

## Goal

Page 3 shows the last item of page 2. Fix it without changing the public API.

## Steps

- [x] Reproduce with a failing test {#reproduce}
- [x] Find the boundary in paginate() {#find}
- [/] Change \`<=\` to \`<\` in the page boundary {#fix}
- [ ] Run the whole suite {#validate}
- [ ] Note the fix in the changelog {#changelog}
`;
const progressText = `# Progress

- 2026-11-30T14:02:11.000Z started #reproduce: Writing a failing test for page 3.
- 2026-11-30T14:05:40.000Z done #reproduce: paginate.test.ts fails as expected (1 failed, 6 passed).
- 2026-11-30T14:06:02.000Z next #fix: Change \`<=\` to \`<\` in the page boundary.
`;

async function setup(withPlan = true) {
  const state = new BrainState({ dbName: `${unique('db')}.db`, closeOnPageHide: false });
  opened.push(state);
  await state.open();
  const brain = state.brain as Brain;
  await brain.setAutoCleanup({ enabled: false });
  const name = unique('p');
  const files = [
    { path: 'src/paginate.ts', data: new Blob(['export const pageSize = 10;\n']) },
    { path: '.agent/MEMORY.md', data: new Blob(['# Memory\n']) },
    ...(withPlan
      ? [
          { path: '.agent/plan/PLAN.md', data: new Blob([planText]) },
          { path: '.agent/plan/PROGRESS.md', data: new Blob([progressText]) },
        ]
      : []),
  ];
  await brain.importFolderFiles(files, { name });
  cleanups.push(() => brain.deleteProject(name));
  const view = new PlanState(state);
  cleanups.push(view.start());
  return { state, brain, view };
}

function mountView(view: PlanState) {
  const host = document.createElement('div');
  document.body.append(host);
  const hash = { hash: '' };
  const router = new Router({ location: hash, addEventListener() {}, removeEventListener() {} });
  const component = mount(PlanView, { target: host, props: { plan: view, router } });
  flushSync();
  cleanups.push(() => {
    void unmount(component);
    host.remove();
  });
  return host;
}

const text = (el: Element | null) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

describe('Plan & progress on a project with its own plan', () => {
  it('shows PLAN.md’s five steps (two done) and PROGRESS.md, marked as the file’s, not “Nothing recorded yet”', async () => {
    const { brain, view } = await setup();
    const { id: sessionId } = await brain.startSession({ title: 'Pick up the pagination fix' });
    await brain.startTask({ sessionId, title: 'Continue' });
    view.select(null);
    await view.settled();
    expect(view.resume?.plan).toBeNull();
    expect(view.resume?.firstUnfinishedAction.kind).toBe('none');
    expect(view.projectPlan && 'items' in view.projectPlan ? view.projectPlan.items.length : null).toBe(5);

    const host = mountView(view);
    await expect.poll(() => host.querySelectorAll('[data-testid="file-checklist"] li').length).toBe(5);
    const plan = host.querySelector('[data-testid="file-plan"]');
    expect(text(plan)).toContain('from the file .agent/plan/PLAN.md');
    expect(text(plan)).toContain('2 of 5 steps finished');
    expect(text(plan)).toContain('Page 3 shows the last item of page 2.');
    const items = [...host.querySelectorAll('[data-testid="file-checklist"] li')].map(text);
    expect(items[0]).toMatch(/^✓ Reproduce with a failing test done/);
    expect(items[2]).toMatch(/^◐ Change `<=` to `<` in the page boundary in progress/);
    expect(host.querySelector('[data-testid="file-checklist"] [aria-current="step"]')?.textContent).toContain(
      'Change `<=` to `<`',
    );

    const banner = host.querySelector('[data-testid="resume-point"]');
    expect(text(banner)).not.toContain('Nothing recorded yet');
    expect(text(banner)).toContain('Continue the step in progress (from .agent/plan/PLAN.md)');
    expect(text(banner)).toContain('next: Change `<=` to `<` in the page boundary');

    const progress = [...host.querySelectorAll('[data-testid="file-progress"] li')].map(text);
    expect(progress).toHaveLength(3);
    expect(progress[0]).toContain('next #fix');
    expect(progress[2]).toContain('Writing a failing test for page 3.');
  });

  it('without a session, the project’s plan still shows; without the files, nothing is made up', async () => {
    const { view } = await setup();
    view.select(null);
    await view.settled();
    const host = mountView(view);
    await expect.poll(() => host.querySelectorAll('[data-testid="file-checklist"] li').length).toBe(5);

    const bare = await setup(false);
    bare.view.select(null);
    await bare.view.settled();
    expect([bare.view.projectPlan, bare.view.projectProgress]).toEqual([null, null]);
  });
});

describe('Compress the context now', () => {
  it('is disabled with the reason on an empty session and when nothing would move; enabled when events would', async () => {
    const { brain, view } = await setup(false);
    const { id: sessionId } = await brain.startSession({ title: 'empty' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 't' });
    view.select(null);
    await view.settled();
    const host = mountView(view);
    const button = () =>
      [...host.querySelectorAll('button')].find((b) => /Compress the context now/.test(b.textContent ?? ''))!;
    await expect.poll(() => button().disabled).toBe(true);
    expect(text(host.querySelector('[data-testid="compress-blocked"]'))).toBe(
      'Nothing to compress: the session has recorded no events yet.',
    );
    expect(button().getAttribute('aria-describedby')).toBe('compress-blocked');
    expect(text(host)).not.toMatch(/161 tokens|needs about/);

    // A few events: all fit the verbatim tail, so a compression would move none.
    for (let i = 0; i < 3; i++) await brain.recordNote({ sessionId, taskId, text: `note ${i}` });
    await expect
      .poll(() => text(host.querySelector('[data-testid="compress-blocked"]')))
      .toBe('Nothing to move: all 3 active events fit in the verbatim tail a compression keeps.');
    expect(button().disabled).toBe(true);

    // Past the tail (40 events by default) the older ones would move: the button is enabled, and it works.
    for (let i = 3; i < 45; i++) await brain.recordNote({ sessionId, taskId, text: `note ${i}` });
    await expect.poll(() => button().disabled).toBe(false);
    expect(host.querySelector('[data-testid="compress-blocked"]')).toBeNull();
    button().click();
    await expect
      .poll(() => text(host.querySelector('[data-testid="compressed"]')))
      .toMatch(/^Compressed: 5 events moved/);
    // Once compressed, nothing is left to move: disabled again, and said so.
    await expect.poll(() => button().disabled).toBe(true);
    expect(text(host.querySelector('[data-testid="compress-blocked"]'))).toMatch(
      /^Nothing to move: all 40 active events/,
    );
  });

  it('compressBlocker reads the budget: no budget, no reason (control)', () => {
    expect(compressBlocker(null, null)).toBeNull();
  });
});
