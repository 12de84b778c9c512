// The playground page: the endpoint form, the loop's transcript, and resuming a run after a reload.
import { openBrain, type Brain } from '../../../lib/index';
import { runCheck, type CheckResult } from './check';
import { EndpointError, type ChatSettings } from './endpoint';
import { runLoop, startRun, type LoopEntry, type Run } from './loop';
import { loadRun, loadSettings, saveRun, saveSettings } from './settings';
import { Workspace } from './workspace';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('settings');
const status = $<HTMLParagraphElement>('status');
const alertBox = $<HTMLDivElement>('error');
const transcript = $<HTMLOListElement>('transcript');
const filesBox = $<HTMLPreElement>('files');
const [startButton, resumeButton, stopButton] = [
  $<HTMLButtonElement>('start'),
  $<HTMLButtonElement>('resume'),
  $<HTMLButtonElement>('stop'),
];

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

function addEntry(entry: LoopEntry) {
  const li = document.createElement('li');
  if (entry.kind === 'context') li.textContent = `Context given to the model:\n${entry.text}`;
  else if (entry.kind === 'assistant') {
    const calls = (entry.message.tool_calls ?? []).map((c) => c.function.name).join(', ');
    li.textContent = `Model: ${entry.message.content ?? ''}${calls ? `\n→ calls ${calls}` : ''}`;
  } else li.textContent = `${entry.name}(${entry.input})\n${entry.result}`;
  li.dataset['kind'] = entry.kind;
  transcript.append(li);
}

function showError(error: unknown) {
  alertBox.hidden = false;
  if (error instanceof EndpointError) {
    const bytes = error.firstBytes ? `\nFirst bytes of the answer: ${error.firstBytes}` : '';
    alertBox.textContent = `${error.message}${error.status === null ? '' : ` (HTTP status ${error.status})`}${bytes}`;
  } else alertBox.textContent = `The run stopped: ${error instanceof Error ? error.message : String(error)}`;
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

  const go = async (run: Run, resume: boolean) => {
    const settings = readSettings();
    saveSettings(settings);
    saveRun({ ...run, running: true });
    controller = new AbortController();
    [startButton.disabled, resumeButton.hidden, stopButton.disabled] = [true, true, false];
    alertBox.hidden = true;
    page.state = 'running';
    status.textContent = `${resume ? 'Resuming' : 'Running'} session ${run.sessionId}, task ${run.taskId}…`;
    try {
      const answer = await runLoop({
        brain,
        workspace,
        settings,
        run,
        resume,
        signal: controller.signal,
        onEntry: (entry) => {
          addEntry(entry);
          if (entry.kind === 'tool') void showFiles();
        },
      });
      saveRun({ ...run, running: false });
      page.state = 'done';
      status.textContent = `Done: session ${run.sessionId}, task ${run.taskId}. ${answer}`;
    } catch (error) {
      if (leaving) return;
      saveRun({ ...run, running: false });
      page.state = 'failed';
      status.textContent = `Stopped: session ${run.sessionId}, task ${run.taskId} is unfinished; Resume continues it.`;
      resumeButton.hidden = false;
      if (!controller.signal.aborted) showError(error);
    } finally {
      [startButton.disabled, stopButton.disabled] = [false, true];
      await showFiles();
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      transcript.replaceChildren();
      await workspace.reset();
      await go(await startRun(brain), false);
    })();
  });
  resumeButton.addEventListener('click', () => {
    const run = loadRun();
    if (run) void go(run, true);
  });
  stopButton.addEventListener('click', () => controller?.abort());

  await showFiles();
  const stored = loadRun();
  if (stored && (await brain.getTask(stored.taskId)).state !== 'done') {
    if (stored.running) return go(stored, true);
    resumeButton.hidden = false;
    status.textContent = `Session ${stored.sessionId}, task ${stored.taskId} is unfinished: Resume continues it.`;
    return;
  }
  status.textContent = 'Ready: enter an endpoint and start a run.';
}

main().catch((error: unknown) => {
  status.textContent = 'The playground could not start.';
  showError(error);
});
