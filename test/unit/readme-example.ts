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
const edit = { path: 'src/date.ts', before: 'weekStart = 1\n', after: 'weekStart = 0\n' };
const step = await brain.recordStep({ taskId, tool: 'edit_file', params: { path: edit.path }, status: 'ok' });
const entry = await brain.checkpointFile({ taskId, stepId: step.id, ...edit });
await brain.recordFileChange({ sessionId, path: edit.path, checkpointEntryId: entry.id });
const resume = await brain.resumePoint(sessionId);
console.log(resume.firstUnfinishedAction.text); // after a restart: where to pick up
await brain.close();
// README example: end
