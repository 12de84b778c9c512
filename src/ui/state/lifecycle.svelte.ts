import type {
  CleanupLogEntry,
  CleanupPlan,
  CleanupReport,
  CompactReport,
  StorageAudit,
} from '../../lib/index';
import type { BrainState } from './brain.svelte';
import { Operation } from './operation.svelte';
import { ViewState } from './view-state.svelte';

/** Tasks cleaned per call: each call holds the engine, so a long backlog goes in batches with other calls between. */
const cleanupBatch = 4;
/** Time per `maintain` call while giving free pages back. */
const maintainSliceMs = 150;

/**
 * The storage view's lifecycle data: the audit (what takes the bytes), the cleanup dry run (each task's verdict
 * and reason), the cleanup log, and the long actions — cleanup, idle upkeep, compact — with progress counts.
 */
export class LifecycleState extends ViewState {
  audit = $state.raw<StorageAudit | null>(null);
  cleanupPlan = $state.raw<CleanupPlan | null>(null);
  log = $state.raw<readonly CleanupLogEntry[]>([]);
  /** Task titles by id (the audit names tasks by id only). */
  titles = $state.raw<Readonly<Record<number, string>>>({});
  lastCleanup = $state.raw<CleanupReport | null>(null);
  lastMaintain = $state.raw<{
    readonly pagesFreed: number;
    readonly bytesFreed: number;
    readonly skipped: string | null;
  } | null>(null);
  lastCompact = $state.raw<CompactReport | null>(null);
  cleaning = new Operation();
  maintaining = new Operation();
  compacting = new Operation();
  loaded = $state(false);

  constructor(source: BrainState) {
    super(source, 120);
  }

  get busy(): boolean {
    return this.cleaning.running || this.maintaining.running || this.compacting.running;
  }

  /** While a long action runs, its own progress says enough; one refresh follows at the end. */
  protected override wants(): boolean {
    return !this.busy;
  }

  /** Runs the cleanup the dry run shows, a few tasks a call, counting tasks as they are done. */
  async cleanup(): Promise<CleanupReport | undefined> {
    const brain = this.source.brain;
    if (!brain) return undefined;
    const total = this.cleanupPlan?.counts.clean ?? null;
    const report = await this.cleaning.run(
      { phase: 'Cleaning', done: 0, total, unit: 'items' },
      async (progress) => {
        const cleaned: CleanupReport['cleaned'][number][] = [];
        const failed: CleanupReport['failed'][number][] = [];
        let last: CleanupReport;
        do {
          last = await brain.cleanup({ maxTasks: cleanupBatch });
          cleaned.push(...last.cleaned);
          failed.push(...last.failed);
          const all = cleaned.length + failed.length + last.remaining;
          progress({
            phase: 'Cleaning',
            done: cleaned.length + failed.length,
            total: Math.max(all, total ?? 0),
            unit: 'items',
          });
          // A batch that did nothing (every task in it failed) must not loop for ever.
        } while (last.remaining > 0 && last.cleaned.length > 0);
        return {
          ...last,
          cleaned,
          failed,
          bytesFreed: cleaned.reduce((sum, r) => sum + r.stepBytesRemoved + r.storedBytesRemoved, 0),
        };
      },
    );
    if (report) this.lastCleanup = report;
    this.refresh();
    return report;
  }

  /** Gives free pages back to the file system in short slices, counting pages. */
  async maintain(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const startFree = this.audit?.freelistCount ?? null;
    await this.maintaining.run(
      { phase: 'Giving free space back', done: 0, total: startFree, unit: 'items' },
      async (progress) => {
        let pagesFreed = 0;
        let bytesFreed = 0;
        for (;;) {
          const report = await brain.maintain({ budgetMs: maintainSliceMs, force: true });
          pagesFreed += report.pagesFreed;
          bytesFreed += report.bytesFreed;
          progress({
            phase: 'Giving free space back (pages)',
            done: pagesFreed,
            total: pagesFreed + report.freelistCount,
            unit: 'items',
          });
          if (report.skipped) {
            this.lastMaintain = {
              pagesFreed,
              bytesFreed,
              skipped:
                report.skipped.kind === 'no-auto-vacuum'
                  ? 'This database was created without incremental vacuum: free pages are reused by new data, and "Compact now" gives them back.'
                  : `Task ${report.skipped.taskId} is running.`,
            };
            return;
          }
          if (!report.more || report.pagesFreed === 0) break;
        }
        this.lastMaintain = { pagesFreed, bytesFreed, skipped: null };
      },
    );
    this.refresh();
  }

  /** Full VACUUM (the engine checks the browser's quota first). */
  async compact(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const size = this.audit?.fileBytes ?? null;
    const report = await this.compacting.run(
      { phase: 'Rewriting the database compactly', done: 0, total: null, unit: 'bytes' },
      () => brain.compact(),
    );
    if (report) this.lastCompact = report;
    else if (size === null) this.lastCompact = null;
    this.refresh();
  }

  async setAutoCleanup(enabled: boolean): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    await brain.setAutoCleanup({ enabled });
    this.refresh();
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const [audit, cleanupPlan, log] = await Promise.all([
      brain.audit(),
      brain.planCleanup(),
      brain.cleanupLog({ limit: 200 }),
    ]);
    this.audit = audit;
    this.cleanupPlan = cleanupPlan;
    this.log = log;
    this.titles = Object.fromEntries(cleanupPlan.tasks.map((t) => [t.taskId, t.title]));
    this.error = null;
    this.loaded = true;
  }
}
