/**
 * The issue's proof on the built app: the long demo task is killed at four different plan steps — a page closed,
 * the browser restarted, a page closed while a blocker is open, the tab reloaded from the UI — and each time
 * `resumePoint` names the first unfinished action, the UI shows it as "next:", and the agent, resumed from the
 * UI, carries on from exactly there. At the end every plan step is done once and no passed validation ran again
 * without a file change in between. Then recall: after the compressions, the history search finds the early
 * superseded decision and a file change compressed away, and the hit opens that change's diff.
 *
 * Kill points are chosen by polling the engine (plan steps done, the step in progress has begun, a blocker is
 * open), with the agent at its "normal" pace (250 ms between actions), so each kill lands inside a known step;
 * each next kill point is at least one step later than where the previous kill actually landed.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { demoScript, scriptActions } from '../../src/ui/demo/script';
import { createProfile, openApp, watchErrors, type Profile } from './harness';

test.describe.configure({ mode: 'serial' });

const TITLE = demoScript.sessionTitle;
const WAIT = 150_000;

/** An event as the tests compare it: its identity, where it belongs, and what it says. */
interface EventRow {
  readonly id: number;
  readonly kind: string;
  readonly taskId: number | null;
  readonly planStepId: number | null;
  readonly text: string;
  readonly name: string | null;
  readonly result: string | null;
  readonly path: string | null;
  readonly checkpointEntryId: number | null;
  readonly compressedAt: number | null;
  readonly supersedes: number | null;
  readonly resolves: number | null;
}

interface RunState {
  readonly sessionId: number;
  readonly taskId: number;
  readonly steps: readonly { readonly id: number; readonly n: number; readonly state: string }[];
  readonly next: {
    readonly kind: string;
    readonly text: string;
    readonly planStepId: number | null;
    readonly planStepN: number | null;
  };
  readonly validationsDone: readonly {
    readonly eventId: number;
    readonly name: string;
    readonly changedSince: readonly string[];
  }[];
  readonly events: readonly EventRow[];
  readonly compressions: number;
}

/** Where the demo session stands, read through the app's brain client (`globalThis.agentBrain`). */
async function readState(page: Page): Promise<RunState | null> {
  return page.evaluate(async (title) => {
    const brain = globalThis.agentBrain!;
    const session = (await brain.listSessions())
      .filter((s) => s.title === title)
      .sort((a, b) => b.id - a.id)[0];
    if (!session) return null;
    const [resume, events, summaries] = await Promise.all([
      brain.resumePoint(session.id),
      brain.listEvents(session.id),
      brain.listSummaries(session.id),
    ]);
    if (!resume.task || !resume.plan) return null;
    const next = resume.firstUnfinishedAction;
    return {
      sessionId: session.id,
      taskId: resume.task.id,
      steps: resume.plan.steps.map((s) => ({ id: s.id, n: s.n, state: s.state })),
      next: { kind: next.kind, text: next.text, planStepId: next.planStepId, planStepN: next.planStepN },
      validationsDone: resume.validationsDone.map((v) => ({
        eventId: v.eventId,
        name: v.name,
        changedSince: [...v.changedSince],
      })),
      events: events.map((e) => ({
        id: e.id,
        kind: e.kind,
        taskId: e.taskId,
        planStepId: e.planStepId,
        text: e.text,
        name: e.kind === 'validation' ? e.name : null,
        result: e.kind === 'validation' ? e.result : null,
        path: e.kind === 'file_change' ? e.path : null,
        checkpointEntryId: e.kind === 'file_change' ? e.checkpointEntryId : null,
        compressedAt: e.compressedAt,
        supersedes: e.kind === 'decision' ? e.supersedes : null,
        resolves: e.kind === 'blocker_resolved' ? e.resolves : null,
      })),
      compressions: summaries.filter((s) => s.kind === 'session_checkpoint').length,
    };
  }, TITLE);
}

const stepsDone = (state: RunState) => state.steps.filter((s) => s.state === 'done').length;
const openBlockers = (events: readonly EventRow[]) => {
  const resolved = new Set(events.filter((e) => e.kind === 'blocker_resolved').map((e) => e.resolves));
  return events.filter((e) => e.kind === 'blocker' && !resolved.has(e.id));
};
/** Everything that makes an action's record the same record (ids and times aside). */
const signature = (e: EventRow) =>
  JSON.stringify([e.kind, e.taskId, e.planStepId, e.text, e.name, e.result, e.path]);

/**
 * A kill point: at least `minDone` plan steps done, the next step begun (at least one of its actions recorded
 * after its start), and, when asked, a blocker open.
 */
async function waitForKillPoint(
  page: Page,
  at: { readonly minDone: number; readonly blocked?: boolean; readonly orDone?: number },
): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(
          async ({ title, minDone, blocked, orDone }) => {
            const brain = globalThis.agentBrain;
            if (!brain) return false;
            const session = (await brain.listSessions())
              .filter((s) => s.title === title)
              .sort((a, b) => b.id - a.id)[0];
            if (!session) return false;
            const events = await brain.listEvents(session.id);
            const doneIds = new Set(
              events.filter((e) => e.kind === 'plan_step_done').map((e) => e.planStepId),
            );
            const last = events.at(-1);
            const inStep =
              last !== undefined &&
              last.kind !== 'plan_step_started' &&
              last.kind !== 'plan_step_done' &&
              (last.planStepId === null || !doneIds.has(last.planStepId));
            const resolved = new Set(events.map((e) => (e.kind === 'blocker_resolved' ? e.resolves : null)));
            const isBlocked = events.some((e) => e.kind === 'blocker' && !resolved.has(e.id));
            if (orDone !== null && doneIds.size >= orDone && inStep) return true;
            return doneIds.size >= minDone && inStep && (!blocked || isBlocked);
          },
          { title: TITLE, minDone: at.minDone, blocked: at.blocked ?? false, orDone: at.orDone ?? null },
        ),
      { timeout: WAIT, intervals: [100] },
    )
    .toBe(true);
}

/** Starts or resumes the demo task from the UI, at the given pace. */
async function runFromUi(page: Page, pace: 'normal' | 'as fast as it goes', button: 'Start' | 'Resume') {
  await page.getByLabel('Pace').selectOption({ label: pace });
  await page.getByRole('button', { name: `${button} the demo task` }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
}

interface Kill {
  readonly how: string;
  readonly state: RunState;
}

/**
 * After a kill, before resuming: resumePoint names the first plan step not done (by the plan and by the event
 * log), as the action the log implies (a blocker open → resolve it; a step begun → continue it), and the demo
 * screen shows the same action as "next:".
 */
async function expectResumePoint(page: Page, how: string): Promise<Kill> {
  const state = await readState(page);
  expect(state, `${how}: the demo session exists`).not.toBeNull();
  const s = state!;
  const first = s.steps.find((step) => step.state !== 'done');
  expect(first, `${how}: the kill came before the end of the plan`).toBeDefined();
  const doneInLog = new Set(s.events.filter((e) => e.kind === 'plan_step_done').map((e) => e.planStepId));
  for (const step of s.steps)
    expect(doneInLog.has(step.id), `step ${step.n} done in the log`).toBe(step.state === 'done');
  const startedInLog = s.events.some((e) => e.kind === 'plan_step_started' && e.planStepId === first!.id);
  expect(startedInLog).toBe(first!.state === 'started');

  expect(s.next.planStepId, `${how}: resumePoint names step ${first!.n}`).toBe(first!.id);
  expect(s.next.planStepN).toBe(first!.n);
  const blocked = openBlockers(s.events).length > 0;
  expect(s.next.kind).toBe(
    blocked ? 'resolve_blocker' : first!.state === 'started' ? 'continue_step' : 'start_step',
  );
  expect(s.next.text).toContain(`step ${first!.n} of ${s.steps.length}`);

  // Checks resumePoint reports as passed: each passed, and changedSince names exactly the project files (not
  // the agent's own .agent/ memory) changed after it.
  for (const done of s.validationsDone) {
    const run = s.events.find((e) => e.id === done.eventId);
    expect(run?.result, `${done.name} is recorded as passed`).toBe('passed');
    const after = s.events.filter(
      (e) => e.kind === 'file_change' && e.id > done.eventId && !String(e.path).startsWith('.agent/'),
    );
    expect([...done.changedSince].sort()).toEqual([...new Set(after.map((e) => String(e.path)))].sort());
  }

  const next = page.getByTestId('demo-next');
  await expect(next).toContainText('next:', { timeout: 60_000 });
  await expect(next).toContainText(s.next.text);
  await expect(page.getByRole('button', { name: 'Resume the demo task' })).toBeVisible();
  return { how, state: s };
}

/**
 * What was recorded since a kill started where resumePoint said: the first new plan-step event belongs to the
 * named step (child-agent work before it belongs to the child's task), nothing of an earlier step, and nothing
 * recorded before the kill recorded again.
 */
function expectContinuedFrom(kill: Kill, now: RunState) {
  const before = kill.state;
  const lastId = Math.max(...before.events.map((e) => e.id));
  const fresh = now.events.filter((e) => e.id > lastId);
  expect(fresh.length, `${kill.how}: the agent went on after resuming`).toBeGreaterThan(0);
  const firstInPlan = fresh.find((e) => e.planStepId !== null);
  expect(firstInPlan?.planStepId, `${kill.how}: it went on with step ${before.next.planStepN}`).toBe(
    before.next.planStepId,
  );
  for (const e of fresh.slice(0, fresh.indexOf(firstInPlan!)))
    expect(e.taskId, `${kill.how}: event ${e.id} before the step's first is the child agent's`).not.toBe(
      before.taskId,
    );
  const doneBefore = new Set(before.steps.filter((s) => s.state === 'done').map((s) => s.id));
  const redoneStep = fresh.filter((e) => e.planStepId !== null && doneBefore.has(e.planStepId));
  expect(redoneStep, `${kill.how}: nothing of a finished step was redone`).toEqual([]);
  const old = new Set(before.events.map(signature));
  expect(
    fresh.filter((e) => old.has(signature(e))),
    `${kill.how}: nothing recorded before the kill was recorded again`,
  ).toEqual([]);
}

/** The UI's list of this visit's actions never names a finished step being started or finished again. */
async function expectNoFinishedStepInUi(page: Page, kill: Kill) {
  const lines = await page.getByTestId('demo-actions').getByRole('listitem').allTextContents();
  const finished = kill.state.steps.filter((s) => s.state === 'done').map((s) => s.n);
  for (const line of lines) {
    const step = /^(?:Started|Finished) plan step (\d+)$/.exec(line.trim());
    if (step) expect(finished, `UI line "${line}"`).not.toContain(Number(step[1]));
  }
}

let profile: Profile;
let context: BrowserContext;
let page: Page;
/** Console errors and uncaught exceptions of every page the test opened. */
const errorsByPage: string[][] = [];

async function newPage(): Promise<Page> {
  const opened = await openApp(context, '/#/demo');
  errorsByPage.push(watchErrors(opened));
  return opened;
}

test.beforeAll(async () => {
  profile = await createProfile();
  context = await profile.launch();
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test('the demo task killed at four different steps resumes each time at the first unfinished action', async () => {
  test.setTimeout(600_000);
  const started = Date.now();
  const kills: Kill[] = [];
  page = await newPage();
  await expect(page.getByRole('heading', { name: 'See agent-brain work in a minute' })).toBeVisible();
  await runFromUi(page, 'normal', 'Start');

  // 1. The page is closed in the middle of step 2 (or later), then a new page opens the app.
  await waitForKillPoint(page, { minDone: 1 });
  await page.close();
  page = await newPage();
  kills.push(await expectResumePoint(page, 'page closed'));
  await runFromUi(page, 'normal', 'Resume');

  // 2. The browser is restarted, at least two steps later.
  await waitForKillPoint(page, { minDone: stepsDone(kills[0]!.state) + 2 });
  await context.close();
  context = await profile.launch();
  page = await newPage();
  expectContinuedFrom(kills[0]!, (await readState(page))!);
  kills.push(await expectResumePoint(page, 'browser restarted'));
  await runFromUi(page, 'normal', 'Resume');

  // 3. The page is closed while the agent is blocked (step 5: waiting on its child agent), or, should the
  // previous kill have landed there already, two steps later.
  const done2 = stepsDone(kills[1]!.state);
  await waitForKillPoint(page, { minDone: done2 + 1, blocked: true, orDone: done2 + 2 });
  await expectNoFinishedStepInUi(page, kills[1]!);
  await page.close();
  page = await newPage();
  expectContinuedFrom(kills[1]!, (await readState(page))!);
  kills.push(await expectResumePoint(page, 'page closed while blocked'));
  await runFromUi(page, 'normal', 'Resume');

  // 4. The tab is killed from the UI (a reload mid-action), at least two steps later.
  await waitForKillPoint(page, { minDone: stepsDone(kills[2]!.state) + 2 });
  await expectNoFinishedStepInUi(page, kills[2]!);
  await Promise.all([
    page.waitForEvent('load', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Kill the tab' }).click(),
  ]);
  await page.waitForFunction(() => globalThis.agentBrain !== undefined, null, { timeout: 60_000 });
  expectContinuedFrom(kills[2]!, (await readState(page))!);
  kills.push(await expectResumePoint(page, 'tab killed from the UI'));
  await runFromUi(page, 'as fast as it goes', 'Resume');

  await expect(page.getByTestId('demo-finished')).toBeVisible({ timeout: WAIT });
  await expectNoFinishedStepInUi(page, kills[3]!);
  const end = (await readState(page))!;
  expectContinuedFrom(kills[3]!, end);

  // Four kills, four different steps.
  const killSteps = kills.map((k) => k.state.next.planStepN);
  expect(new Set(killSteps).size, `kill steps ${killSteps.join(', ')}`).toBe(4);
  expect(kills[2]!.state.next.kind === 'resolve_blocker' || killSteps[2]! >= killSteps[1]! + 2).toBe(true);

  // Every plan step done exactly once.
  const doneEvents = await page.evaluate(
    async (sessionId) =>
      (await globalThis.agentBrain!.listEvents(sessionId as never, { kinds: ['plan_step_done'] })).map(
        (e) => e.planStepId,
      ),
    end.sessionId,
  );
  expect(end.steps.every((s) => s.state === 'done')).toBe(true);
  expect(doneEvents).toEqual(end.steps.map((s) => s.id));
  expect(end.next.kind).toBe('done');

  // No passed validation ran again unless a file changed after it; every scripted check ran exactly once.
  const lastPass = new Map<string, { eventId: number; changedSince: boolean }>();
  const repeated: string[] = [];
  for (const e of end.events) {
    if (e.kind === 'file_change') for (const pass of lastPass.values()) pass.changedSince = true;
    if (e.kind !== 'validation' || e.name === null) continue;
    const pass = lastPass.get(e.name);
    if (pass && !pass.changedSince) repeated.push(`${e.name} (#${e.id}) after #${pass.eventId} passed`);
    if (e.result === 'passed') lastPass.set(e.name, { eventId: e.id, changedSince: false });
    else lastPass.delete(e.name);
  }
  expect(repeated, 'validations repeated with no file change since they passed').toEqual([]);
  const scripted = scriptActions(demoScript).flatMap((a) =>
    a.kind === 'validate' ? [`${a.name}:${a.result}`] : [],
  );
  expect(end.events.filter((e) => e.kind === 'validation').map((e) => `${e.name}:${e.result}`)).toEqual(
    scripted,
  );
  // And no record anywhere in the run was made twice.
  const signatures = end.events.map(signature);
  expect(signatures.length - new Set(signatures).size, 'records made twice').toBe(0);

  expect(await page.evaluate(() => globalThis.agentBrain!.integrityCheck())).toEqual(['ok']);
  expect(errorsByPage.flat(), 'console errors').toEqual([]);
  console.log(
    `resume e2e: kills at steps ${killSteps.join(', ')} (${kills.map((k) => `${k.how}: ${k.state.next.kind}`).join('; ')}); ` +
      `${end.events.length} events, ${end.compressions} compressions, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
});

test('after the compressions, the history search finds an early superseded decision and a compressed-away file change, whose link opens its diff', async () => {
  test.setTimeout(300_000);
  page ??= await newPage();
  // Run on its own (-g recall), it first runs the demo to the end.
  if ((await readState(page))?.next.kind !== 'done') {
    await page.goto('/#/demo');
    await runFromUi(page, 'as fast as it goes', (await readState(page)) ? 'Resume' : 'Start');
    await expect(page.getByTestId('demo-finished')).toBeVisible({ timeout: WAIT });
  }
  const state = (await readState(page))!;
  expect(state.compressions, 'compressContext calls in the demo run').toBeGreaterThanOrEqual(2);
  const active = await page.evaluate(
    async (sessionId) =>
      (await globalThis.agentBrain!.listEvents(sessionId as never, { activeOnly: true })).map((e) => e.id),
    state.sessionId,
  );

  // The early decision, superseded by a later one, and compressed out of the context.
  const early = state.events.find(
    (e) => e.kind === 'decision' && e.text === 'Cursors are plain item indexes (numbers)',
  );
  expect(early).toBeDefined();
  expect(state.events.some((e) => e.kind === 'decision' && e.supersedes === early!.id)).toBe(true);
  expect(early!.compressedAt).not.toBeNull();
  expect(active).not.toContain(early!.id);
  // A file change of step 2, compressed away by the first compression (step 3).
  const change = state.events.find(
    (e) => e.kind === 'file_change' && e.text === 'stop the loop before start + pageSize',
  );
  expect(change?.checkpointEntryId).not.toBeNull();
  expect(change!.compressedAt).not.toBeNull();
  expect(active).not.toContain(change!.id);

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'History search' }).click();
  const search = page.getByLabel('Search the history');
  const hits = page.getByTestId('hits').getByRole('listitem');

  await search.fill('plain item indexes');
  await search.press('Enter');
  // The question that led to it ranks close by; the decision is among the top three.
  const decision = hits.filter({ hasText: 'Cursors are plain item indexes (numbers)' });
  await expect(decision).toHaveCount(1);
  const top = await hits.evaluateAll((items) => items.slice(0, 3).map((li) => li.textContent ?? ''));
  expect(top.some((text) => text.includes('Cursors are plain item indexes (numbers)'))).toBe(true);
  // A later decision replaced it: the result says so (issue 17), not a plain "decision".
  await expect(decision.locator('.badge')).toHaveText('superseded decision');
  await expect(decision.locator('mark').first()).toBeVisible();
  await expect(decision.getByRole('link', { name: 'Open the task' })).toBeVisible();

  await search.fill('stop the loop');
  await search.press('Enter');
  const fileHit = hits.filter({ hasText: 'stop the loop before start + pageSize' }).first();
  await expect(fileHit.locator('.badge')).toHaveText('file change');
  await expect(fileHit.locator('code.path')).toHaveText('src/paginate.ts');
  await expect(hits.first(), 'the file change is the best hit').toContainText('stop the loop');
  await fileHit.getByRole('link', { name: 'Open the diff' }).click();

  // The checkpoint of that change, selected, with its diff: the loop bound going from <= to <.
  await expect(page).toHaveURL(new RegExp(`#/checkpoints\\?.*entry=${change!.checkpointEntryId}`));
  await expect(page.locator('#entry-heading')).toHaveText('src/paginate.ts');
  await expect(page.getByTestId('entries').locator('a[aria-current="page"]')).toContainText(
    'src/paginate.ts',
  );
  const diff = page.getByTestId('diff');
  await expect(diff.locator('.add')).toHaveText('+1');
  await expect(diff.locator('.del')).toHaveText('−1');
  await expect(diff.locator('.d2h-ins').filter({ hasText: 'i < start + pageSize' }).first()).toBeVisible();
  await expect(diff.locator('.d2h-del').filter({ hasText: 'i <= start + pageSize' }).first()).toBeVisible();
  const patch = await page.evaluate(
    async (entryId) => (await globalThis.agentBrain!.diffCheckpoint(entryId as never)).patch,
    change!.checkpointEntryId,
  );
  expect(patch).toMatch(/^-\s*for \(let i = start; i <= start \+ pageSize/m);
  expect(patch).toMatch(/^\+\s*for \(let i = start; i < start \+ pageSize/m);
  expect(errorsByPage.flat(), 'console errors').toEqual([]);
});
