/**
 * The playground's `run_check` runs the model's code in a sandboxed frame of an opaque origin (issue 31). A scripted
 * model writes tests that try the app's origin, OPFS, IndexedDB, a local server (fetch and import()), the page
 * (parent/top) and a forged "passed" result; in the sandbox each fails and says so, and the server hears nothing.
 * The control runs the same files the way the check ran before, in a worker of the app's origin: each reaches its
 * target. Then the frame itself: sandboxed, the page out of its reach, forged results ignored, a normal check
 * reported as before, an endless test stopped at the bound with its frame and worker gone.
 */
import { expect, test, type Page } from '@playwright/test';
import { createProfile, watchErrors } from './harness';
import { fillEndpoint } from './playground-page';
import { startScriptedModel } from './scripted-model';
import {
  fakeResult,
  probeFile,
  probeNames,
  probeScript,
  runSameOriginCheck,
  startCollector,
} from './sandbox-probes';

/** The report line of probe `n` (1-based), as the runner numbers it: the probe file sorts before the seed's. */
const line = (output: string, n: number) =>
  output.split('\n').find((l) => l.startsWith(`ok ${n} - `) || l.startsWith(`not ok ${n} - `));

const probe = (n: number) => `test/probe.test.js: ${probeNames[n - 1]}`;

const sandboxWorkers = (page: Page) => page.workers().filter((w) => w.url().startsWith('blob:null/'));

test('model-written tests run in an opaque origin: no storage, no network, no page; in the app origin they reach all of it', async () => {
  const collector = await startCollector();
  const model = await startScriptedModel({ script: probeScript(probeFile(collector.url)) });
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await context.newPage();
    await page.goto('/playground.html');
    await expect(page.getByRole('status')).toContainText('Ready');
    await fillEndpoint(page, `${model.url}/v1`, { stream: false });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect(page.getByRole('status')).toContainText('Done:', { timeout: 60_000 });

    // What run_check answered the model: every probe failed, each saying why.
    const last = model.requests.at(-1)!.messages.at(-1)!;
    expect(last.role).toBe('tool');
    const output = last.content ?? '';
    expect(output).toContain('# self.origin: null');
    expect(line(output, 1)).toBe(`not ok 1 - ${probe(1)}: self.origin is "null", an opaque origin`);
    // No storage API at all in the opaque origin's worker (not a secure context): OPFS is not there to ask.
    expect(line(output, 2)).toBe(
      `not ok 2 - ${probe(2)}: Cannot read properties of undefined (reading 'getDirectory')`,
    );
    expect(line(output, 3)).toBe(
      `not ok 3 - ${probe(3)}: Failed to execute 'open' on 'IDBFactory': access to the Indexed Database API is denied in this context.`,
    );
    expect(line(output, 4)).toBe(`not ok 4 - ${probe(4)}: Failed to fetch`);
    expect(line(output, 5)).toBe(
      `not ok 5 - ${probe(5)}: Failed to fetch dynamically imported module: ${collector.url}/import.js`,
    );
    expect(line(output, 6)).toBe(`not ok 6 - ${probe(6)}: top is not defined`);
    // The forgery was posted, and reached nobody: this is the runner's own report, not the fake.
    expect(output).toContain('# postMessage: posted');
    expect(line(output, 7)).toBe(`ok 7 - ${probe(7)}`);
    expect(output).not.toContain(fakeResult.output);
    expect(output).toMatch(/# tests 9\n# pass 1\n# fail 8\n\(exit code 1\)$/);
    expect(collector.requests).toEqual([]);
    // The brain recorded the real run: a failed check, so no passed one to skip after a restart.
    const recorded = await page.evaluate(async () => {
      const { brain, run } = globalThis.playgroundAgent!;
      const { sessionId } = run()!;
      const checks = await brain.listEvents(sessionId, { kinds: ['validation'] });
      return {
        checks: checks.map((e) => (e.kind === 'validation' ? `${e.name} ${e.result}: ${e.text}` : '')),
        passed: (await brain.resumePoint(sessionId)).validationsDone.map((v) => v.name),
      };
    });
    expect(recorded).toEqual({ checks: ['run_check failed: # tests 9 # pass 1 # fail 8'], passed: [] });

    // The control: the same files in a worker of the app's origin, as run_check ran them before.
    const files = await page.evaluate(() => globalThis.playgroundAgent!.workspace.snapshot());
    const control = await runSameOriginCheck(page, files);
    // The page took the worker's first message: the forgery, a check that "passed".
    expect(control.taken).toEqual(fakeResult);
    const real = control.real.output;
    const origin = new URL(page.url()).origin;
    expect(real).toContain(`# self.origin: ${origin}`);
    expect(line(real, 1)).toBe(`ok 1 - ${probe(1)}`);
    expect(real).toMatch(/^# OPFS: .*playground-agent\.db.*playground-workspace/m);
    expect(line(real, 2)).toBe(`ok 2 - ${probe(2)}`);
    expect(real).toContain('# IndexedDB: opened probe');
    expect(line(real, 3)).toBe(`ok 3 - ${probe(3)}`);
    expect(real).toContain('# fetch: the server answered 200');
    expect(line(real, 4)).toBe(`ok 4 - ${probe(4)}`);
    expect(real).toContain('# import(): loaded');
    expect(line(real, 5)).toBe(`ok 5 - ${probe(5)}`);
    // A worker never had parent or top, in either origin: its way to the page is postMessage (probe 7, taken).
    expect(line(real, 6)).toBe(`not ok 6 - ${probe(6)}: top is not defined`);
    expect(line(real, 7)).toBe(`ok 7 - ${probe(7)}`);
    expect(collector.requests).toEqual(['POST /fetch', 'GET /import.js']);
    await context.close();
  } finally {
    await profile.dispose();
    await model.close();
    await collector.close();
  }
});

test("the check's frame: sandboxed, the page out of its reach, only its own result taken; a normal check as before; an endless one stopped", async () => {
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/playground.html');
    await expect(page.getByRole('status')).toContainText('Ready');

    // The playground's own tests, reported as before the sandbox.
    const seed = await page.evaluate(async () => {
      const { check, workspace } = globalThis.playgroundAgent!;
      await workspace.reset();
      return check(await workspace.snapshot());
    });
    expect(seed).toEqual({
      output: [
        'not ok 1 - test/sum.test.js: sum adds two numbers: expected 5, got -1',
        'not ok 2 - test/sum.test.js: sum of zero is the other number: expected 4, got -4',
        '# tests 2',
        '# pass 0',
        '# fail 2',
      ].join('\n'),
      exitCode: 1,
    });
    await expect.poll(() => sandboxWorkers(page).length).toBe(0); // the run's worker ended with its frame

    // A test that waits until this test releases it; the run's id is known here, as a forger would wish.
    const runId = '00000000-0000-4000-8000-000000000031';
    const pending = page.evaluate((runId) => {
      const randomUUID = crypto.randomUUID;
      crypto.randomUUID = () => runId as `${string}-${string}-${string}-${string}-${string}`;
      const result = globalThis.playgroundAgent!.check(
        {
          'test/wait.test.js': "test('waits', () => new Promise((resolve) => { self.release = resolve; }));",
        },
        60_000,
      );
      crypto.randomUUID = randomUUID;
      return result;
    }, runId);
    pending.catch(() => {}); // awaited below; a failure before that is the one to report
    await expect.poll(() => sandboxWorkers(page).length).toBe(1);
    expect(await page.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts');
    const frame = page.frames().find((f) => f !== page.mainFrame())!;

    // Code in the frame itself (the model's never runs there) cannot read the page; forged results are ignored.
    const reach = () => {
      const attempt = (read: () => unknown) => {
        try {
          return `read: ${String(read())}`;
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      };
      return {
        origin: self.origin,
        parentHref: attempt(() => parent.location.href),
        parentTitle: attempt(() => parent.document.title),
        topHref: attempt(() => top!.location.href),
        storage: attempt(() => localStorage.length),
      };
    };
    const inFrame = await frame.evaluate(reach);
    expect(inFrame.origin).toBe('null');
    const blocked =
      /^SecurityError: .*Blocked a frame with origin "null" from accessing a cross-origin frame\.$/;
    expect(inFrame.parentHref).toMatch(blocked);
    expect(inFrame.parentTitle).toMatch(blocked);
    expect(inFrame.topHref).toMatch(blocked);
    expect(inFrame.storage).toMatch(/^SecurityError: .*localStorage/);
    // Forged results, each followed by a marker: once the marker is handled, is the check still running? From the
    // frame: another run's id, the wrong shape. From the page itself (or any other window): the right shape and id.
    const kind = 'agent-brain/check-result';
    type Marked = { marked: Promise<boolean> };
    const whenMarked = () => {
      (globalThis as unknown as Marked).marked = new Promise((resolve) => {
        const onMessage = (event: MessageEvent) => {
          if (event.data !== 'marker') return;
          removeEventListener('message', onMessage);
          resolve(document.querySelector('iframe') !== null);
        };
        addEventListener('message', onMessage);
      });
    };
    const stillRunning = () => page.evaluate(() => (globalThis as unknown as Marked).marked);
    await page.evaluate(whenMarked);
    await frame.evaluate(
      ({ kind, runId }) => {
        parent.postMessage({ kind, id: 'another-run', output: 'forged: another run', exitCode: 0 }, '*');
        parent.postMessage({ kind, id: runId, output: ['forged: not text'], exitCode: 0 }, '*');
        parent.postMessage({ kind, id: runId, output: 'forged: no exit code' }, '*');
        parent.postMessage('marker', '*');
      },
      { kind, runId },
    );
    expect(await stillRunning(), "the check runs on after the frame's forged results").toBe(true);
    await page.evaluate(whenMarked);
    await page.evaluate(
      ({ kind, runId }) => {
        postMessage({ kind, id: runId, output: 'forged: the page', exitCode: 0 }, '*');
        postMessage('marker', '*');
      },
      { kind, runId },
    );
    expect(await stillRunning(), "the check runs on after the page's forged result").toBe(true);
    type Waiting = { release?: () => void };
    const worker = sandboxWorkers(page)[0]!;
    await expect.poll(() => worker.evaluate(() => typeof (self as Waiting).release)).toBe('function');
    // Released on a later task: the run then ends and its worker with it, after this call has returned.
    await worker.evaluate(() => void setTimeout((self as Waiting).release!));
    expect(await pending).toEqual({
      output: 'ok 1 - test/wait.test.js: waits\n# tests 1\n# pass 1\n# fail 0',
      exitCode: 0,
    });
    await expect(page.locator('iframe')).toHaveCount(0);
    await expect.poll(() => sandboxWorkers(page).length).toBe(0);

    // The control: a frame of the page's own origin reads all of it.
    await page.evaluate(() =>
      document.body.append(Object.assign(document.createElement('iframe'), { srcdoc: 'x' })),
    );
    await expect.poll(() => page.frames().length).toBe(2);
    const control = await page
      .frames()
      .find((f) => f !== page.mainFrame())!
      .evaluate(reach);
    expect(control).toEqual({
      origin: new URL(page.url()).origin,
      parentHref: `read: ${page.url()}`,
      parentTitle: `read: ${await page.title()}`,
      topHref: `read: ${page.url()}`,
      storage: expect.stringMatching(/^read: \d+$/),
    });
    await page.evaluate(() => document.querySelector('iframe')!.remove());

    // An endless test: stopped at the bound (5 s, run_check's), its frame removed and its worker ended with it.
    const endless = page.evaluate(() =>
      globalThis.playgroundAgent!.check({ 'test/spin.test.js': "test('spins', () => { for (;;); });" }),
    );
    endless.catch(() => {}); // awaited below; a failure before that is the one to report
    await expect.poll(() => sandboxWorkers(page).length).toBe(1);
    expect(await endless).toEqual({
      output: '# the tests did not finish within 5 s and were stopped',
      exitCode: 124,
    });
    await expect(page.locator('iframe')).toHaveCount(0);
    await expect.poll(() => sandboxWorkers(page).length).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await profile.dispose();
  }
});
