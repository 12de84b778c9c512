// The playground page: the endpoint form, the loop's transcript (the brain's messages), resuming after a reload.
import { isBrainError, openBrain, type Brain, type Message, type TaskState } from '../../../lib/index';
import { mountPageChrome } from '../page-chrome.svelte';
import { runCheck, type CheckResult } from './check';
import { EndpointError, completionsUrl, type ChatSettings } from './endpoint';
import { runLoop, transcriptMessage, type Run } from './loop';
import { loadRun, loadSettings, saveRun, saveSettings } from './settings';
import { Workspace } from './workspace';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('settings');
const status = $<HTMLParagraphElement>('status');
const alertBox = $<HTMLDivElement>('error');
const transcript = $<HTMLOListElement>('transcript');
const transcriptEmpty = $<HTMLParagraphElement>('transcript-empty');
const filesBox = $<HTMLPreElement>('files');
const [startButton, resumeButton, stopButton] = [
  $<HTMLButtonElement>('start'),
  $<HTMLButtonElement>('resume'),
  $<HTMLButtonElement>('stop'),
];
mountPageChrome({
  name: 'playground',
  tagline: 'An agent loop on a model you point at, keeping its own brain.',
});

// A reload ends the loop's calls: the run stays marked running, so the next load resumes it. Registered before
// openBrain's own pagehide listener, whose rejections reach the loop between two listeners.
let leaving = false;
for (const type of ['beforeunload', 'pagehide'])
  addEventListener(type, () => {
    leaving = true;
  });

const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;

function showSettings(s: ChatSettings) {
  field('url').value = s.url;
  field('model').value = s.model;
  field('key').value = s.key;
  field('stream').checked = s.stream;
  field('timeout').value = String(s.timeoutMs / 1000);
}

function readSettings(): ChatSettings {
  const seconds = Number(field('timeout').value);
  return {
    url: field('url').value.trim(),
    model: field('model').value.trim(),
    key: field('key').value,
    stream: field('stream').checked,
    timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 60) * 1000,
  };
}

const speaker: Record<Message['role'], string> = {
  user: 'Given to the model',
  assistant: 'Model',
  tool: 'Tool',
  system: 'System',
};

/** One turn of the transcript, from the message the brain keeps of it (live and after a reload alike). */
function addTurn(message: Pick<Message, 'role' | 'content'>) {
  const li = document.createElement('li');
  li.dataset['role'] = message.role;
  const who = document.createElement('p');
  who.className = 'who';
  who.textContent = speaker[message.role];
  const text = document.createElement('pre');
  text.textContent = message.content;
  li.append(who, text);
  const atBottom = transcript.scrollTop + transcript.clientHeight >= transcript.scrollHeight - 8;
  transcript.append(li);
  transcriptEmpty.hidden = true;
  if (atBottom) transcript.scrollTop = transcript.scrollHeight;
}

function clearTranscript() {
  transcript.replaceChildren();
  transcriptEmpty.hidden = false;
}

/** The run's transcript as the brain kept it; the last thing the model said. */
async function showTranscript(brain: Brain, run: Run): Promise<string> {
  const messages = await brain.listMessages(run.sessionId, run.taskId);
  clearTranscript();
  for (const message of messages) addTurn(message);
  return messages.findLast((m) => m.role === 'assistant')?.content ?? '';
}

function showError(error: unknown, lead: string, after = '') {
  alertBox.hidden = false;
  let text: string;
  if (error instanceof EndpointError) {
    const bytes = error.firstBytes ? `\nFirst bytes of the answer: ${error.firstBytes}` : '';
    text = `${lead}: the model endpoint failed. ${error.message}${error.status === null ? '' : ` (HTTP status ${error.status})`}${bytes}`;
  } else text = `${lead}: ${error instanceof Error ? error.message : String(error)}`;
  alertBox.textContent = after ? `${text}\n${after}` : text;
}

declare global {
  // Read by the end-to-end test.
  var playgroundAgent:
    | {
        brain: Brain;
        workspace: Workspace;
        run: () => Run | null;
        state: string;
        /** `run_check`'s sandboxed runner, for files the test gives. */
        check: (files: Record<string, string>, timeoutMs?: number) => Promise<CheckResult>;
      }
    | undefined;
}

/** The state of the run's task; null when there is no run, or its task is gone from the brain. */
async function runState(brain: Brain, run: Run | null): Promise<TaskState | null> {
  if (!run) return null;
  try {
    return (await brain.getTask(run.taskId)).state;
  } catch (error) {
    if (isBrainError(error, 'NotFound')) return null;
    throw error;
  }
}

const unfinished = async (brain: Brain, run: Run | null) => {
  const state = await runState(brain, run);
  return state !== null && state !== 'done';
};

async function main() {
  const brain = await openBrain({ dbName: 'playground-agent.db' });
  await brain.openProject({ kind: 'opfs', name: 'playground-agent', create: true });
  await brain.createAgentFolder();
  const workspace = await Workspace.open();
  const page = { brain, workspace, run: () => loadRun(), state: 'idle', check: runCheck };
  globalThis.playgroundAgent = page;
  showSettings(loadSettings());
  let controller: AbortController | null = null;

  const showFiles = async () => {
    const parts = await Promise.all(
      (await workspace.list()).map(async (f) => `── ${f.path}\n${(await workspace.read(f.path)) ?? ''}`),
    );
    filesBox.textContent = parts.join('\n');
  };

  /** Resumes `resumed`, or (null) starts a new run: in the brain, the workspace reset, once the model answers. */
  const go = async (resumed: Run | null) => {
    const settings = readSettings();
    saveSettings(settings);
    const previous = loadRun();
    let run = resumed;
    controller = new AbortController();
    [startButton.disabled, resumeButton.hidden, stopButton.disabled] = [true, true, false];
    alertBox.hidden = true;
    page.state = 'running';
    status.textContent = resumed
      ? `Resuming session ${resumed.sessionId}, task ${resumed.taskId}…`
      : `Asking the model at ${completionsUrl(settings.url)}: the run is recorded once it answers…`;
    try {
      const answer = await runLoop({
        brain,
        workspace,
        settings,
        run,
        signal: controller.signal,
        onRun: async (started) => {
          run = started;
          saveRun({ ...started, running: true });
          if (resumed) return;
          clearTranscript();
          await workspace.reset();
          status.textContent = `Running session ${started.sessionId}, task ${started.taskId}…`;
        },
        onEntry: (entry) => {
          addTurn(transcriptMessage(entry));
          if (entry.kind === 'tool') void showFiles();
        },
      });
      if (run) saveRun({ ...run, running: false });
      page.state = 'done';
      status.textContent = run ? `Done: session ${run.sessionId}, task ${run.taskId}. ${answer}` : 'Done.';
    } catch (error) {
      if (leaving) return;
      page.state = 'failed';
      const stopped = controller.signal.aborted;
      if (run) {
        saveRun({ ...run, running: false });
        status.textContent = `Stopped: session ${run.sessionId}, task ${run.taskId} is unfinished; Resume continues it.`;
        resumeButton.hidden = false;
        if (!stopped) showError(error, 'The run stopped');
      } else {
        // Nothing was written: no session, the workspace and the run before (if any) as they were.
        status.textContent = `The run did not start${stopped ? ' (stopped before the model answered)' : ''}: nothing was recorded.`;
        resumeButton.hidden = !(await unfinished(brain, previous));
        if (!stopped)
          showError(
            error,
            'The run did not start',
            'Nothing was recorded: no session was created. Check the endpoint and start again.',
          );
      }
    } finally {
      [startButton.disabled, stopButton.disabled] = [false, true];
      await showFiles();
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void go(null);
  });
  resumeButton.addEventListener('click', () => {
    const run = loadRun();
    if (run) void go(run);
  });
  stopButton.addEventListener('click', () => controller?.abort());

  await showFiles();
  const stored = loadRun();
  if (!stored || (await runState(brain, stored)) === null) {
    status.textContent = 'Ready: enter an endpoint and start a run.';
    return;
  }
  // The tab's run, as the brain kept it: its transcript, then where it stands.
  const said = await showTranscript(brain, stored);
  if (await unfinished(brain, stored)) {
    if (stored.running) return go(stored);
    resumeButton.hidden = false;
    status.textContent = `Session ${stored.sessionId}, task ${stored.taskId} is unfinished: Resume continues it.`;
    return;
  }
  status.textContent = `Done: session ${stored.sessionId}, task ${stored.taskId}. ${said} Start a new run to begin again.`;
}

main().catch((error: unknown) => {
  status.textContent = 'The playground could not start.';
  showError(error, 'The playground could not start');
});
