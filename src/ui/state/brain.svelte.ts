import { isBrainError, openBrain, type Brain, type BrainInfo, type Session, type Task } from '../../lib/index';

export type BrainStatus = 'opening' | 'open' | 'elsewhere' | 'taken-over' | 'error';

/**
 * The app's view of its brain: raw snapshots from the worker, refreshed when the engine reports a change.
 * Components read these fields; they never reach the database or a file handle themselves.
 */
export class BrainState {
  status = $state<BrainStatus>('opening');
  error = $state<string | null>(null);
  info = $state.raw<BrainInfo | null>(null);
  sessions = $state.raw<Session[]>([]);
  selectedSessionId = $state<number | null>(null);
  tasks = $state.raw<Task[]>([]);
  brain: Brain | null = null;
  #unsubscribe: (() => Promise<void>) | null = null;
  #onOpen: (brain: Brain) => void;

  constructor(onOpen: (brain: Brain) => void = () => {}) {
    this.#onOpen = onOpen;
  }

  async open(takeOver = false): Promise<void> {
    this.status = 'opening';
    this.error = null;
    try {
      const brain = await openBrain({
        takeOver,
        onOwnerEvent: (event) => {
          if (event.kind === 'taken-over') {
            this.status = 'taken-over';
            this.brain = null;
          }
        },
      });
      this.brain = brain;
      this.#onOpen(brain);
      this.#unsubscribe = await brain.subscribe(() => void this.refresh());
      this.status = 'open';
      await this.refresh();
    } catch (error) {
      if (isBrainError(error, 'OpenElsewhere')) {
        this.status = 'elsewhere';
      } else {
        this.status = 'error';
        this.error = error instanceof Error ? error.message : String(error);
      }
    }
  }

  async refresh(): Promise<void> {
    const brain = this.brain;
    if (!brain) return;
    try {
      const [info, sessions] = await Promise.all([brain.info(), brain.listSessions()]);
      this.info = info;
      this.sessions = sessions;
      const selected = sessions.find((s) => s.id === this.selectedSessionId) ?? sessions[0] ?? null;
      this.selectedSessionId = selected?.id ?? null;
      this.tasks = selected ? await brain.listTasks(selected.id) : [];
    } catch (error) {
      if (isBrainError(error, 'OpenElsewhere')) this.status = 'taken-over';
      else this.error = error instanceof Error ? error.message : String(error);
    }
  }

  async selectSession(id: number): Promise<void> {
    this.selectedSessionId = id;
    await this.refresh();
  }

  async close(): Promise<void> {
    await this.#unsubscribe?.().catch(() => undefined);
    await this.brain?.close();
    this.brain = null;
  }
}
