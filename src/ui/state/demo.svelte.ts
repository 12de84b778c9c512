import type { BrainChange, ResumePoint, Session } from '../../lib/index';
import type { AgentAction } from '../demo/actions';
import { createDemoAgent, type DemoAgent, type DemoRunResult } from '../demo/agent';
import { demoScript, scriptActions } from '../demo/script';
import { messageOf } from '../errors';
import type { BrainState } from './brain.svelte';
import type { ProjectState } from './project.svelte';
import { ViewState } from './view-state.svelte';

/** One line a person can read for what the agent just did. */
export function describeAction(action: AgentAction): string {
  switch (action.kind) {
    case 'instruct':
      return `Instruction: ${action.text}`;
    case 'plan':
      return `Made a plan: ${action.goal} (${action.steps.length} steps)`;
    case 'start_step':
      return `Started plan step ${action.n}`;
    case 'complete_step':
      return `Finished plan step ${action.n}`;
    case 'decide':
      return `Decided: ${action.text}`;
    case 'edit':
      return `Edited ${action.path}: ${action.note}`;
    case 'validate':
      return `Ran ${action.name}: ${action.result}`;
    case 'block':
      return `Blocked: ${action.text}`;
    case 'unblock':
      return `Unblocked: ${action.text}`;
    case 'ask':
      return `Asked: ${action.text}`;
    case 'answer':
      return `Answer: ${action.text}`;
    case 'spawn_child':
      return `Started a child agent: ${action.title}`;
    case 'finish_child':
      return `Child agent finished: ${action.title}`;
    case 'progress':
      return `Progress: ${action.text}`;
    case 'note':
      return `Note: ${action.text}`;
    case 'recall':
      return `Looked up “${action.query}” in the history`;
    case 'compress':
      return 'Compressed the context';
    case 'finish':
      return 'Finished the task';
    default: {
      const never: never = action;
      return String(never);
    }
  }
}

/**
 * The demo: the built-in project and the scripted long task, run through the public API like a playground's
 * agent. Start, pause (after the action in progress), kill (reload the page mid-action, as a crash would) and
 * resume (from `resumePoint`: finished work is not redone).
 */
export class DemoState extends ViewState {
  session = $state.raw<Session | null>(null);
  resume = $state.raw<ResumePoint | null>(null);
  running = $state(false);
  pausing = $state(false);
  /** The latest actions of this visit, newest first. */
  recent = $state.raw<readonly string[]>([]);
  performedThisRun = $state(0);
  lastRun = $state.raw<DemoRunResult | null>(null);
  /** Pause between actions, so a person can follow. */
  delayMs = $state(250);
  readonly totalActions = scriptActions(demoScript).length;

  #agent: DemoAgent | null = null;
  #project: ProjectState;
  #running: Promise<unknown> | null = null;

  constructor(source: BrainState, project: ProjectState) {
    super(source, 150);
    this.#project = project;
    // Importing a brain or a database replaces what the agent writes into: it pauses first.
    source.registerWriter(() => this.stop());
  }

  /** Pauses after the action in progress and resolves once the agent has stopped (at once when idle). */
  async stop(): Promise<void> {
    const running = this.#running;
    if (!running) return;
    this.pause();
    await running.catch(() => undefined);
  }

  /** Starts (or resumes) the demo task; resolves when it finishes or is paused. */
  run(): Promise<DemoRunResult | undefined> {
    if (!this.source.brain || this.running) return Promise.resolve(undefined);
    const running = this.#run();
    this.#running = running;
    void running.finally(() => {
      if (this.#running === running) this.#running = null;
    });
    return running;
  }

  async #run(): Promise<DemoRunResult | undefined> {
    const brain = this.source.brain;
    if (!brain) return undefined;
    this.error = null;
    this.running = true;
    this.pausing = false;
    this.performedThisRun = 0;
    try {
      // The agent edits the open project: make sure that is the demo, never a folder of the person's own.
      if (this.#project.info?.kind !== 'demo' || (await brain.projectInfo())?.kind !== 'demo')
        await this.#project.openDemo();
      if ((await brain.projectInfo())?.kind !== 'demo')
        throw new Error('The demo project could not be opened.');
      this.#agent = createDemoAgent(brain, {
        delayMs: this.delayMs,
        onAction: (report) => {
          this.performedThisRun = report.performed;
          this.recent = [describeAction(report.action), ...this.recent].slice(0, 12);
        },
      });
      if (this.pausing) return undefined;
      const result = await this.#agent.run();
      this.lastRun = result;
      this.resume = result.resume;
      return result;
    } catch (error) {
      this.error = this.source.fail(error) || messageOf(error);
      return undefined;
    } finally {
      this.#agent = null;
      this.running = false;
      this.pausing = false;
      this.refresh();
    }
  }

  /** Asks the agent to stop after the action in progress (or before its first one, while it starts). */
  pause(): void {
    if (!this.running) return;
    this.pausing = true;
    this.#agent?.pause();
  }

  protected override wants(change: BrainChange): boolean {
    return (
      change.topic === 'sessions' ||
      change.topic === 'plans' ||
      change.topic === 'events' ||
      change.topic === 'database'
    );
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const session =
      (await brain.listSessions())
        .filter((s) => s.title === demoScript.sessionTitle)
        .sort((a, b) => b.id - a.id)[0] ?? null;
    this.session = session;
    this.resume = session ? await brain.resumePoint(session.id) : null;
  }
}
