import {
  isBrainError,
  type ArchiveProgress,
  type Brain,
  type BrainArchiveImportReport,
  type BrainChange,
  type BrainArchivePreview,
  type ProjectInfo,
} from '../../lib/index';
import { archiveFileName, describeArchiveProgress, projectNameFromArchive } from '../archive';
import { messageOf } from '../errors';
import { bytesToBlob, readFileWithProgress } from '../files';
import { moveToWorker } from '../transfer';
import type { BrainState } from './brain.svelte';
import { Operation, type ReportProgress } from './operation.svelte';
import { lastProjectKey } from './project.svelte';
import { ViewState } from './view-state.svelte';

/** What the brain holds now: the part an import replaces. */
export interface BrainHoldings {
  readonly sessions: number;
  readonly databaseBytes: number;
  readonly project: Pick<ProjectInfo, 'kind' | 'name'> | null;
  readonly agentFiles: readonly string[];
}

/** An archive read and waiting for the person's go-ahead. */
export interface PendingImport {
  readonly fileName: string;
  readonly size: number;
  /** The engine's reading of the archive's manifest; null when it refused the archive (then `refusal` says why). */
  readonly preview: BrainArchivePreview | null;
  /** Why the engine will not import this archive, as a sentence; null when the preview passed. */
  readonly refusal: string | null;
  readonly current: BrainHoldings;
  /** The OPFS project the archive's `.agent` files go into when no project is open. */
  readonly projectName: string;
}

const refusals = [
  'CorruptArchive',
  'PathEscapes',
  'NewerSchema',
  'TooLarge',
  'NotSqlite',
  'CorruptDatabase',
] as const;

const isRefusal = (error: unknown) => refusals.some((code) => isBrainError(error, code));

/** A refused archive is said plainly with the engine's reason; the engine guarantees nothing changed. */
function importFailure(error: unknown): string {
  if (isRefusal(error)) {
    const message = messageOf(error);
    return `Import refused. ${message}${/nothing was changed/i.test(message) ? '' : ' Nothing was changed.'}`;
  }
  return `The import failed: ${messageOf(error)}`;
}

/** The preview's refusal as the confirmation shows it: why this archive cannot be imported. */
function previewRefusal(error: unknown): string {
  const message = messageOf(error);
  return message.startsWith('This archive cannot be imported')
    ? message
    : `This archive cannot be imported. ${message}`;
}

type KeyValueStore = Pick<Storage, 'setItem'>;

function browserStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The storage view's whole-brain archive: export (agent.db and the open project's `.agent` folder, downloaded as
 * one zip) and import (read the file, have the engine read its manifest, show what it would replace — or why the
 * engine refuses it — then hand it to the engine, which validates everything before it changes anything). Progress comes from the engine's listener.
 */
export class ArchiveState extends ViewState {
  exporting = new Operation();
  importing = new Operation(importFailure);
  /** The open project and its `.agent` files: what an export will hold. */
  holdings = $state.raw<BrainHoldings | null>(null);
  pending = $state.raw<PendingImport | null>(null);
  lastExport = $state.raw<{
    readonly bytes: number;
    readonly fileName: string;
    readonly files: number;
  } | null>(null);
  lastImport = $state.raw<(BrainArchiveImportReport & { readonly fileName: string }) | null>(null);
  #bytes: Uint8Array | null = null;
  #store: KeyValueStore | null;

  constructor(source: BrainState, store: KeyValueStore | null = browserStore()) {
    super(source, 150);
    this.#store = store;
  }

  /** The archive as a Blob to download, or undefined when it failed (see `exporting.error`). */
  async exportBrain(): Promise<{ blob: Blob; fileName: string } | undefined> {
    const brain = this.source.brain;
    if (!brain) return undefined;
    return this.exporting.run(
      { phase: 'Copying the database', done: 0, total: null, unit: 'bytes' },
      async (report) => {
        const holdings = await this.#holdings(brain);
        const zip = await this.#withProgress(report, (listener) => brain.exportBrain(listener));
        const blob = await bytesToBlob(zip, (done, total) =>
          report({ phase: 'Preparing the download', done, total, unit: 'bytes' }),
        );
        const fileName = archiveFileName(
          holdings.project?.name ?? brain.dbName.replace(/\.db$/i, ''),
          Date.now(),
        );
        this.lastExport = { bytes: blob.size, fileName, files: holdings.agentFiles.length };
        return { blob: new Blob([blob], { type: 'application/zip' }), fileName };
      },
    );
  }

  /** Reads a picked archive and asks for confirmation (`pending`); nothing is changed yet. */
  async choose(file: File): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    this.lastImport = null;
    this.cancel();
    await this.importing.run(
      { phase: 'Reading the file', done: 0, total: file.size, unit: 'bytes' },
      async (report) => {
        const bytes = await readFileWithProgress(file, (done, total) =>
          report({ phase: 'Reading the file', done, total, unit: 'bytes' }),
        );
        const [reading, current] = await Promise.all([this.#preview(brain, bytes), this.#holdings(brain)]);
        this.#bytes = bytes;
        this.pending = {
          fileName: file.name,
          size: file.size,
          ...reading,
          current,
          projectName: projectNameFromArchive(file.name),
        };
      },
    );
  }

  cancel(): void {
    this.pending = null;
    this.#bytes = null;
  }

  /** Imports the confirmed archive; `projectName` is used only when no project is open. */
  async confirm(projectName?: string): Promise<BrainArchiveImportReport | undefined> {
    const brain = this.source.brain;
    const pending = this.pending;
    const bytes = this.#bytes;
    if (!brain || !pending || !bytes || pending.refusal !== null) return undefined;
    this.cancel();
    const target = projectName ?? pending.projectName;
    return this.importing.run(
      { phase: 'Checking the archive (hashes, paths, database)', done: 0, total: null, unit: 'items' },
      async (report) => {
        await this.source.stopWriters();
        const result = await this.#withProgress(report, (listener) =>
          brain.importBrain(moveToWorker(bytes), { projectName: target }, listener),
        );
        // Files put into a new project: open that one on the next visit, like a project imported by hand.
        if (!pending.current.project && result.project) this.#rememberProject(result.project);
        this.lastImport = { ...result, fileName: pending.fileName };
        this.refresh();
        return result;
      },
    );
  }

  /** The engine reads the archive's manifest (from a copy: the bytes stay here for the import); a refusal is kept. */
  async #preview(brain: Brain, bytes: Uint8Array): Promise<Pick<PendingImport, 'preview' | 'refusal'>> {
    try {
      return { preview: await brain.previewBrainArchive(bytes), refusal: null };
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return { preview: null, refusal: previewRefusal(error) };
    }
  }

  /** Forwards the engine's progress until `work` ends; a report arriving late is dropped. */
  async #withProgress<T>(
    report: ReportProgress,
    work: (listener: (progress: ArchiveProgress) => void) => Promise<T>,
  ): Promise<T> {
    let open = true;
    try {
      return await work((progress) => {
        if (open) report(describeArchiveProgress(progress));
      });
    } finally {
      open = false;
    }
  }

  #rememberProject(name: string) {
    try {
      // The project view's "reopen on the next visit" setting (see ProjectState): an OPFS project by name.
      this.#store?.setItem(lastProjectKey, JSON.stringify({ kind: 'opfs', name }));
    } catch {
      // Only the convenience of reopening is lost.
    }
  }

  async #holdings(brain: Brain): Promise<BrainHoldings> {
    const [info, sessions, project] = await Promise.all([
      brain.info(),
      brain.listSessions(),
      brain.projectInfo(),
    ]);
    const agentFiles =
      project?.agentFolder === 'present' ? (await brain.listAgentFiles()).map((f) => f.path) : [];
    return {
      sessions: sessions.length,
      databaseBytes: info.fileBytes,
      project: project ? { kind: project.kind, name: project.name } : null,
      agentFiles,
    };
  }

  /** What an export holds changes with the open project and the database. */
  protected override wants(change: BrainChange): boolean {
    return change.topic === 'project' || change.topic === 'database';
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const holdings = await this.#holdings(brain);
    if (brain === this.source.brain) this.holdings = holdings;
  }
}

const statesByBrain = new WeakMap<BrainState, ArchiveState>();

/** One archive state per brain, so an export or import keeps running (and reporting) across view changes. */
export function archiveStateFor(brain: BrainState): ArchiveState {
  let state = statesByBrain.get(brain);
  if (!state) {
    state = new ArchiveState(brain);
    statesByBrain.set(brain, state);
  }
  return state;
}
