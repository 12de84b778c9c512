// An embedding example: a toy agent loop that records what it does through the public API only.
import { openBrain, type Brain, type Json } from '../../lib/index';
import { mountPageChrome } from './page-chrome.svelte';

const log = document.getElementById('log') as HTMLPreElement;
const status = document.getElementById('status') as HTMLParagraphElement;
const runButton = document.getElementById('run') as HTMLButtonElement;
mountPageChrome({ name: 'embedding example', tagline: 'A toy agent loop on the public package alone.' });

const say = (line: string) => {
  log.textContent += `${line}\n`;
};

/** The toy agent: reads a "file", counts words, "writes" a report, checks it — each action one recorded step. */
async function runLoop(brain: Brain): Promise<{ sessionId: number; taskId: number; steps: number }> {
  const { id: sessionId } = await brain.startSession({ title: `Toy loop ${new Date().toISOString()}` });
  const { id: taskId } = await brain.startTask({ sessionId, title: 'Count the words in README' });
  await brain.recordMessage({
    sessionId,
    taskId,
    role: 'user',
    content: 'How many words are in the README?',
  });
  const text = 'agent brain keeps what an agent needs outside its context window';
  const actions: Array<[string, () => Json]> = [
    ['read_file', () => ({ path: 'README.md', bytes: text.length })],
    ['count_words', () => text.split(/\s+/).length],
    ['write_file', () => ({ path: 'REPORT.md', content: `words: ${text.split(/\s+/).length}` })],
    ['check', () => ({ ok: true })],
  ];
  for (const [tool, act] of actions) {
    const result = act();
    await brain.recordStep({ taskId, tool, params: { tool }, result, status: 'ok' });
    say(`step ${tool}: ${JSON.stringify(result)}`);
  }
  await brain.recordMessage({
    sessionId,
    taskId,
    role: 'assistant',
    content: `The README has ${text.split(/\s+/).length} words.`,
  });
  await brain.setTaskState(taskId, 'done');
  return { sessionId, taskId, steps: (await brain.listSteps(taskId)).length };
}

declare global {
  // Read by the end-to-end test.
  var playground:
    { brain: Brain; runs: Array<{ sessionId: number; taskId: number; steps: number }> } | undefined;
}

async function main() {
  const brain = await openBrain({ dbName: 'playground.db' });
  const runs: Array<{ sessionId: number; taskId: number; steps: number }> = [];
  globalThis.playground = { brain, runs };
  const run = async () => {
    runButton.disabled = true;
    status.textContent = 'Running…';
    const result = await runLoop(brain);
    runs.push(result);
    status.textContent = `Done: ${result.steps} steps recorded in playground.db (session ${result.sessionId}).`;
    runButton.disabled = false;
  };
  runButton.addEventListener('click', () => void run());
  await run();
}

main().catch((error: unknown) => {
  status.textContent = `Failed: ${error instanceof Error ? error.message : String(error)}`;
});
