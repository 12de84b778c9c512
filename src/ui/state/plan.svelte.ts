import type {
  BrainChange,
  CompressionResult,
  ContextBudget,
  ResumePoint,
  Session,
  SessionEvent,
  SessionId,
} from '../../lib/index';
import { Operation } from './operation.svelte';
import { ViewState } from './view-state.svelte';

/** The events that make the progress log: what happened to the plan, and what the agent said comes next. */
const progressKinds = ['progress', 'plan_step_started', 'plan_step_done'] as const;

/**
 * The plan & progress view's data for one session: its resume point (first unfinished action, plan, checks
 * already passed, files changed), the progress log, and the context budget a compression would give.
 */
export class PlanState extends ViewState {
  sessions = $state.raw<readonly Session[]>([]);
  session = $state.raw<Session | null>(null);
  resume = $state.raw<ResumePoint | null>(null);
  /** Newest first. */
  log = $state.raw<readonly SessionEvent[]>([]);
  budget = $state.raw<ContextBudget | null>(null);
  lastCompression = $state.raw<CompressionResult | null>(null);
  compressing = new Operation();
  loaded = $state(false);

  #want: SessionId | null = null;

  /** `null`: the most recent session. */
  select(sessionId: number | null): void {
    if (sessionId === this.#want) return;
    this.#want = sessionId as SessionId | null;
    this.lastCompression = null;
    this.refresh();
  }

  /** Compresses the session's context now (the engine also does it on its own past a bound). */
  async compress(): Promise<CompressionResult | undefined> {
    const brain = this.source.brain;
    const session = this.session;
    if (!brain || !session) return undefined;
    const result = await this.compressing.run(
      { phase: 'Compressing the context', done: 0, total: null, unit: 'items' },
      () => brain.compressContext(session.id),
    );
    if (result) this.lastCompression = result;
    return result;
  }

  protected override wants(change: BrainChange): boolean {
    return change.topic !== 'steps' && change.topic !== 'checkpoints';
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const want = this.#want;
    const sessions = await brain.listSessions();
    const session = sessions.find((s) => s.id === want) ?? (want === null ? (sessions[0] ?? null) : null);
    if (want !== null && !session) throw new Error(`Session ${want} does not exist (any more).`);
    const [resume, log, active] = session
      ? await Promise.all([
          brain.resumePoint(session.id),
          brain.listEvents(session.id, { kinds: progressKinds }),
          brain.activeCheckpoint(session.id),
        ])
      : [null, [], null];
    if (want !== this.#want) return;
    this.sessions = sessions;
    this.session = session;
    this.resume = resume;
    this.log = [...log].reverse();
    this.budget = active?.budget ?? null;
    this.error = null;
    this.loaded = true;
  }
}
