/**
 * Opening another agent's history: the picked or dropped files imported (`importTranscript`), with progress and a
 * cancel; then, per imported session, its resume prompt (`resumePrompt`) for the clipboard and the handoff written
 * into the open project (`.agent/SESSION_SUMMARY.md`, and a pointer line in AGENTS.md or CLAUDE.md only when the
 * person asks for it).
 */
import {
  followedFolderHolding,
  isBrainError,
  rememberedProjectFolder,
  resumePrompt,
  type Brain,
  type ImportProgress,
  type ImportTranscriptResult,
  type SessionId,
  type SessionProject,
} from '../../lib/index';
import { withPointerLine, withoutPointerLine } from '../handoff-pointer';
import type { BrainState } from './brain.svelte';

export const handoffPath = '.agent/SESSION_SUMMARY.md';
export const pointerLine = `See ${handoffPath} for where the last session stopped and what to do next.`;

export interface PickedFile {
  readonly path: string;
  readonly data: Blob | Uint8Array;
}

export class HistoryImportState {
  running = $state(false);
  progress = $state.raw<ImportProgress | null>(null);
  result = $state.raw<ImportTranscriptResult | null>(null);
  error = $state<string | null>(null);
  notice = $state<string | null>(null);
  /** Every session imported so far (newest first), with its title: each keeps its resume buttons. */
  imported = $state.raw<
    readonly { readonly sessionId: SessionId; readonly title: string; readonly agent: string }[]
  >([]);
  #cancelled = false;
  readonly #sourceOf: () => BrainState;

  /** `source`: the app's brain (a function, so a component can hand over its prop). */
  constructor(source: () => BrainState) {
    this.#sourceOf = source;
  }

  get #source(): BrainState {
    return this.#sourceOf();
  }

  #brain(): Brain {
    const brain = this.#source.brain;
    if (!brain) throw new Error('The brain is not open.');
    return brain;
  }

  async import(files: readonly PickedFile[]): Promise<void> {
    if (this.running || files.length === 0) return;
    this.running = true;
    this.#cancelled = false;
    this.error = null;
    this.notice = null;
    this.result = null;
    this.progress = null;
    try {
      this.result = await this.#brain().importTranscript(
        { files: files.map((f) => ({ name: f.path, data: f.data })) },
        (progress) => {
          this.progress = progress;
          return this.#cancelled ? 'cancel' : undefined;
        },
      );
    } catch (error) {
      this.error = isBrainError(error, 'Cancelled')
        ? 'Import cancelled: nothing was kept.'
        : this.#source.fail(error);
    } finally {
      this.running = false;
    }
    await this.load();
  }

  /** Reads the imported sessions (after an import, and when the panel opens). */
  async load(): Promise<void> {
    const brain = this.#source.brain;
    if (!brain) return;
    try {
      const [imports, sessions] = await Promise.all([brain.listImportedSessions(), brain.listSessions()]);
      // Looked up by id, not searched: a thousand imports against a thousand sessions would hold the page.
      const titles: Record<number, string | undefined> = Object.fromEntries(
        sessions.map((s) => [s.id, s.title]),
      );
      this.imported = imports.flatMap((i) => {
        const title = titles[i.sessionId];
        return title === undefined ? [] : [{ sessionId: i.sessionId, title, agent: i.agent }];
      });
    } catch (error) {
      this.error = this.#source.fail(error);
    }
  }

  cancel(): void {
    this.#cancelled = true;
  }

  /** The markdown handoff of an imported session. */
  resumePrompt(sessionId: SessionId): Promise<string> {
    return resumePrompt(this.#brain(), sessionId);
  }

  /** The name of the project open in the brain now, or null (asked of the brain: any view may show a handoff). */
  async openProjectName(): Promise<string | null> {
    return (await this.#brain().projectInfo())?.name ?? null;
  }

  /** The folder the session's agent worked in, or null when its history does not say. */
  sessionProject(sessionId: SessionId): Promise<SessionProject | null> {
    return this.#brain().sessionProject(sessionId);
  }

  /** The person said the open folder is the session's project (`confirmSessionProject`). */
  confirmProject(sessionId: SessionId): Promise<SessionProject> {
    return this.#brain().confirmSessionProject(sessionId);
  }

  /**
   * Writes the handoff into `folder`, the open project the person confirmed by name; `pointer` (the person ticked
   * the box): also a line in AGENTS.md (or CLAUDE.md if only it exists). Refused, nothing written, when the open
   * project is not `folder` any more, or is not the session's own project (its agent worked in another folder):
   * never the open project in its place. Says what was written; a pointer that fails (a concurrent edit:
   * `Conflict`) is said, and the handoff stays written.
   */
  async writeHandoff(sessionId: SessionId, pointer: boolean, folder: string): Promise<string> {
    const brain = this.#brain();
    const [open, own] = await Promise.all([brain.projectInfo(), brain.sessionProject(sessionId)]);
    if (open?.name !== folder) throw new Error(`Nothing written: the open project is no longer "${folder}".`);
    if (own && !own.open)
      throw new Error(
        `Nothing written: this session's project is "${own.name}" (the agent worked in ${own.path}), not "${folder}".`,
      );
    // Never into an agent's own history folder opened as a project (the followed folders are remembered here).
    const picked = open.kind === 'handle' ? await rememberedProjectFolder() : null;
    const holder = picked ? await followedFolderHolding(picked.handle) : null;
    if (holder !== null)
      throw new Error(
        `Nothing written: "${folder}" is inside the followed history folder "${holder}" — agent-brain never writes into an agent's own history.`,
      );
    const text = await this.resumePrompt(sessionId);
    const current = await brain.readAgentFile(handoffPath).catch((error: unknown) => {
      if (isBrainError(error, 'NotFound')) return null;
      throw error;
    });
    await brain.writeAgentFile(handoffPath, text, { expectedVersion: current?.version ?? null });
    const written = `Written into ${folder}: ${handoffPath}`;
    if (!pointer) return `${written}.`;
    try {
      const { path, added } = await this.#writePointer(brain);
      return `${written}; ${added ? 'pointer line added to' : 'the pointer line was already in'} ${path}.`;
    } catch (error) {
      return `${written}. The pointer line was not written: ${this.#source.fail(error)}`;
    }
  }

  /**
   * Removes the pointer line from AGENTS.md and CLAUDE.md of the open project (one click undoes the box), the rest
   * of each file kept as it is. Says what it did.
   */
  async removePointer(): Promise<string> {
    const brain = this.#brain();
    const removed: string[] = [];
    for (const path of ['AGENTS.md', 'CLAUDE.md']) {
      const file = await brain.readProjectBytes(path).catch((error: unknown) => {
        if (isBrainError(error, 'NotFound')) return null;
        throw error;
      });
      if (!file) continue;
      const next = withoutPointerLine(file.bytes, pointerLine);
      if (next === null) continue;
      await brain.writeProjectFile(path, next, { expectedVersion: file.version, otherAgentMemory: true });
      removed.push(path);
    }
    return removed.length === 0
      ? 'No pointer line to remove.'
      : `Pointer line removed from ${removed.join(' and ')}.`;
  }

  /**
   * Appends the pointer line once to AGENTS.md (CLAUDE.md when only it exists; a new AGENTS.md when neither
   * does), the file's own bytes kept (`withPointerLine`). The one write of another agent's memory the app makes,
   * so the one place that passes `otherAgentMemory`; checked against the version read, so an edit made meanwhile
   * is a `Conflict` and nothing is lost.
   */
  async #writePointer(brain: Brain): Promise<{ path: string; added: boolean }> {
    const read = (path: string) =>
      brain.readProjectBytes(path).catch((error: unknown) => {
        if (isBrainError(error, 'NotFound')) return null;
        throw error;
      });
    const agents = await read('AGENTS.md');
    const claude = agents ? null : await read('CLAUDE.md');
    const [path, file] = agents
      ? ['AGENTS.md', agents]
      : claude
        ? ['CLAUDE.md', claude]
        : ['AGENTS.md', null];
    const next = withPointerLine(file?.bytes ?? new Uint8Array(), pointerLine);
    if (next === null) return { path, added: false };
    await brain.writeProjectFile(path, next, {
      expectedVersion: file?.version ?? null,
      otherAgentMemory: true,
    });
    return { path, added: true };
  }
}
