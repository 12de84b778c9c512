import type { Page } from '@playwright/test';

/** What `seedSessions` made: ids to navigate to and titles to assert. */
export interface Seeded {
  readonly sessionId: number;
  readonly otherSessionId: number;
  readonly tasks: Readonly<Record<'plan' | 'parser' | 'lexer' | 'tokens' | 'docs' | 'oldTry', number>>;
}

/**
 * Records a small but complete session through the public API, as an agent would: a parent task with a child
 * agent (and a grandchild), a task building on another, a superseded attempt, a failed one, steps that fail then
 * pass, messages and summaries. Runs in the page against `globalThis.agentBrain`.
 */
export function seedSessions(page: Page): Promise<Seeded> {
  return page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    // The tests look at the cleanup dry run before anything is cleaned: no automatic pass meanwhile.
    await brain.setAutoCleanup({ enabled: false });
    const { id: otherSessionId } = await brain.startSession({ title: 'Older session: set up CI' });
    const { id: ci } = await brain.startTask({ sessionId: otherSessionId, title: 'Add a CI workflow' });
    await brain.setTaskState(ci, 'done');

    const { id: sessionId } = await brain.startSession({ title: 'Fix the parser' });
    const { id: plan } = await brain.startTask({ sessionId, title: 'Plan the parser fix' });
    await brain.recordMessage({
      sessionId,
      taskId: plan,
      role: 'user',
      content: 'The parser chokes on trailing commas. Please fix it.',
    });
    await brain.recordStep({
      taskId: plan,
      tool: 'read_file',
      params: { path: 'src/parser.ts' },
      result: { lines: 412 },
      status: 'ok',
    });
    await brain.setTaskState(plan, 'done');
    const { id: oldTry } = await brain.startTask({ sessionId, title: 'First attempt: regex patch' });
    await brain.recordStep({
      taskId: oldTry,
      tool: 'edit',
      params: { path: 'src/parser.ts', lines: [10, 12] },
      result: 'patched',
      status: 'ok',
    });
    await brain.setTaskState(oldTry, 'superseded');
    const { id: parser } = await brain.startTask({
      sessionId,
      title: 'Rewrite the list parser',
      references: [{ to: plan, kind: 'reference' }],
    });
    const { id: lexer } = await brain.startTask({
      sessionId,
      title: 'Child agent: fix the lexer',
      parentTaskId: parser,
      makeCurrent: false,
    });
    const { id: tokens } = await brain.startTask({
      sessionId,
      title: 'Grandchild: token table',
      parentTaskId: lexer,
      makeCurrent: false,
    });
    await brain.setTaskState(tokens, 'done');
    await brain.recordStep({
      taskId: parser,
      tool: 'edit',
      params: { path: 'src/parser.ts', hunk: 'parseList' },
      result: 'ok',
      status: 'ok',
    });
    await brain.recordStep({
      taskId: parser,
      tool: 'run_tests',
      params: { cmd: 'npm test' },
      result: { passed: 41, failed: 2 },
      status: 'error',
    });
    await brain.recordStep({
      taskId: parser,
      tool: 'run_tests',
      params: { cmd: 'npm test' },
      result: { passed: 43, failed: 0 },
      status: 'ok',
    });
    await brain.recordMessage({
      sessionId,
      taskId: parser,
      role: 'assistant',
      content: 'Rewrote parseList; all 43 tests pass.',
    });
    await brain.recordSummary({
      sessionId,
      taskId: parser,
      kind: 'task',
      content: 'parseList accepts trailing commas; tests green.',
    });
    await brain.recordSummary({
      sessionId,
      kind: 'session',
      content: 'Goal: trailing commas. Done: plan, rewrite. Next: docs.',
    });
    const { id: docs } = await brain.startTask({
      sessionId,
      title: 'Document the grammar',
      references: [{ to: parser, kind: 'reference' }],
      makeCurrent: false,
    });
    await brain.setTaskState(docs, 'failed');
    await brain.setTaskState(lexer, 'waiting_user');
    await brain.setCurrentTask(sessionId, parser);

    // The plan and what the agent recorded while following it.
    await brain.recordInstruction({
      sessionId,
      taskId: parser,
      text: 'Make the parser accept trailing commas in lists.',
    });
    const { plan: made } = await brain.createPlan({
      taskId: parser,
      goal: 'Lists accept trailing commas',
      steps: [
        { what: 'Reproduce the failure with a test', why: 'so the fix is proven' },
        { what: 'Rewrite parseList', why: 'the regex patch could not handle nesting' },
        { what: 'Run the whole test suite' },
        { what: 'Document the grammar change' },
      ],
    });
    const [reproduce, rewrite, suite] = made.steps;
    await brain.startPlanStep(reproduce!.id);
    await brain.recordValidation({
      sessionId,
      taskId: parser,
      planStepId: reproduce!.id,
      name: 'npm test -- lists',
      result: 'failed',
      text: '2 failing',
    });
    await brain.completePlanStep(reproduce!.id);
    await brain.appendProgress({
      taskId: parser,
      text: 'Reproduced: two list tests fail on trailing commas.',
      next: 'Rewrite parseList',
      planStepId: reproduce!.id,
    });
    const { id: regex } = await brain.recordDecision({
      sessionId,
      taskId: parser,
      text: 'Patch the list regex',
      why: 'smallest change',
    });
    await brain.recordDecision({
      sessionId,
      taskId: parser,
      text: 'Rewrite parseList as a loop',
      why: 'the regex cannot see nesting',
      supersedes: regex,
    });
    await brain.startPlanStep(rewrite!.id);
    await brain.recordFileChange({
      sessionId,
      taskId: parser,
      path: 'src/parser.ts',
      change: 'modified',
      text: 'parseList rewritten',
    });
    await brain.completePlanStep(rewrite!.id);
    await brain.startPlanStep(suite!.id);
    await brain.recordValidation({
      sessionId,
      taskId: parser,
      planStepId: suite!.id,
      name: 'npm test',
      result: 'passed',
      text: '43 passed',
    });
    await brain.appendProgress({
      taskId: parser,
      text: 'All 43 tests pass after the rewrite.',
      next: 'Document the grammar change',
      planStepId: suite!.id,
    });
    return { sessionId, otherSessionId, tasks: { plan, parser, lexer, tokens, docs, oldTry } };
  }) as Promise<Seeded>;
}
