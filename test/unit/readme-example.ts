/**
 * README.md's embedding example, line for line but for the import: this checkout has no built `agent-brain`
 * package, so it imports the same module from source. `npm run check` (svelte-check over test/**) type-checks it,
 * and test/unit/readme-links.test.ts fails when README.md's copy differs from the lines between the markers.
 * Never run: `openBrain` needs a browser worker (test/browser and test/e2e run the real thing).
 */
// README example: start
import { openBrain } from '../../src/lib';

const brain = await openBrain({ dbName: 'my-playground.db' }); // its own worker and database file in OPFS
const { id: sessionId } = await brain.startSession({ title: 'Fix the flaky date test' });
const { id: taskId } = await brain.startTask({ sessionId, title: 'Reproduce the failure' });
await brain.recordInstruction({ sessionId, text: 'The date test fails on Mondays' });
// The agent's tool calls as they are: the engine derives the step, checks, file changes and their bodies.
const call = { tool: 'Edit', input: { file_path: 'src/date.ts', old_string: '= 1', new_string: '= 0' } };
const files = [{ path: 'src/date.ts', before: 'weekStart = 1\n', after: 'weekStart = 0\n' }];
await brain.recordToolCall({ sessionId, taskId, call: { ...call, output: 'Updated.' }, files });
const test = { tool: 'bash', input: { command: 'npx vitest run test/date.test.ts' }, exitCode: 0 };
await brain.recordToolCall({ sessionId, taskId, call: { ...test, output: 'Tests  1 passed (1)' } });
const resume = await brain.resumePoint(sessionId); // validationsDone: the passed check, nothing changed since
console.log(resume.firstUnfinishedAction.text); // after a restart: where to pick up
await brain.close();
// README example: end
