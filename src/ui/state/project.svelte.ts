import {
  describeSkipped,
  filesFromFileList,
  isBrainError,
  pickProjectFolder,
  rememberedProjectFolder,
  requestProjectFolderAccess,
  supportsFolderPicker,
  type AgentFileContent,
  type AgentFileSummary,
  type BrainChange,
  type JsonlTailResult,
  type OtherAgentFile,
  type ProjectFileInput,
  type ProjectImportResult,
  type ProjectInfo,
  type ProjectSource,
  type SkillSummary,
  type SkippedFolder,
  type StoredProject,
} from '../../lib/index';
import { messageOf } from '../errors';
import { noDrafts, withDraft, withoutDraft, type Drafts } from '../drafts';
import { downloadBlob } from '../files';
import { formatCount } from '../format';
import type { BrainState } from './brain.svelte';
import { Operation } from './operation.svelte';
import { createRefresher } from './refresher';
import { ViewState } from './view-state.svelte';

/** Which project to reopen on the next visit: a UI setting in localStorage (never agent.db). */
export const lastProjectKey = 'agent-brain.project';
type LastProject =
  { readonly kind: 'demo' } | { readonly kind: 'opfs'; readonly name: string } | { readonly kind: 'handle' };
type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** How a document is shown: editable markdown-ish text, a read-only log (JSONL tail), or read-only text. */
export type DocMode = 'edit' | 'log' | 'read-only';

export interface OpenDoc {
  readonly path: string;
  readonly mode: DocMode;
  /** Set for `.agent/skills/<name>/SKILL.md` (saved through `saveSkill`, which checks the skill's fields). */
  readonly skillName: string | null;
  /** As last read from the folder (text, version, problems, parsed view); null for a log. */
  readonly content: AgentFileContent | null;
  readonly log: JsonlTailResult | null;
}

/** A save refused because the file changed since it was read: what is on disk now, to choose between. */
export interface Conflict {
  readonly path: string;
  readonly message: string;
  /** The file as it is now; null when it was deleted meanwhile. */
  readonly theirs: AgentFileContent | null;
}

const skillPath = /^\.agent\/skills\/([^/]+)\/SKILL\.md$/;
const logWindowBytes = 256 * 1024;

function browserStore(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * The project view's data: which project is open, its `.agent` files, skills and other agents' memory, and the
 * document being read or edited. Unsaved edits are kept per file (switching files loses nothing) until saved or
 * reverted; a save is version-checked by the engine and a conflict is shown, never overwritten silently.
 */
export class ProjectState extends ViewState {
  info = $state.raw<ProjectInfo | null>(null);
  stored = $state.raw<readonly StoredProject[]>([]);
  /** A folder picked on an earlier visit whose access the browser wants confirmed by a click. */
  remembered = $state.raw<{ readonly name: string; readonly handle: FileSystemDirectoryHandle } | null>(null);
  agentFiles = $state.raw<readonly AgentFileSummary[]>([]);
  skills = $state.raw<readonly SkillSummary[]>([]);
  others = $state.raw<readonly OtherAgentFile[]>([]);
  doc = $state.raw<OpenDoc | null>(null);
  /** Unsaved text by path (only where it differs from what was read). */
  drafts = $state.raw<Drafts>(noDrafts);
  conflict = $state.raw<Conflict | null>(null);
  /** The open document changed in the folder since it was read (someone else wrote it). */
  changedOnDisk = $state(false);
  loaded = $state(false);
  docError = $state<string | null>(null);
  notice = $state<string | null>(null);
  opening = new Operation();
  saving = new Operation();
  importing = new Operation();
  exporting = new Operation();
  readonly canPickFolder = supportsFolderPicker();

  draft: string = $derived(this.doc ? (this.drafts.get(this.doc.path) ?? this.doc.content?.text ?? '') : '');
  dirty: boolean = $derived(this.doc !== null && this.drafts.has(this.doc.path));

  #want: string | null = null;
  #keepNotice = false;
  #store: KeyValueStore | null;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping of our own writes; nothing renders from it
  #ownWrites = new Set<string>();
  #docLoader = createRefresher(
    () => this.#loadDoc(),
    (error) => {
      this.docError = this.source.fail(error);
    },
  );

  constructor(source: BrainState, store: KeyValueStore | null = browserStore()) {
    super(source);
    this.#store = store;
  }

  /** The lists load as any view's (`load`); beside them, the open document, when it may have changed. */
  override start(): () => void {
    const stopLists = super.start();
    const stopDoc = this.source.onChange((change) => {
      if (!this.wants(change)) return;
      if (change.path !== undefined && change.path === this.doc?.path) {
        if (this.#ownWrites.delete(change.path)) return;
        // Someone else (the agent, another tool) wrote the open file: reload it unless the person is editing.
        if (this.dirty) this.changedOnDisk = true;
        else this.#docLoader.request();
      } else if (change.path === undefined) {
        this.#docLoader.request();
      }
    });
    this.#docLoader.request();
    return () => {
      stopLists();
      stopDoc();
      this.#docLoader.cancel();
    };
  }

  override settled(): Promise<void> {
    return Promise.all([super.settled(), this.#docLoader.settled()]).then(() => undefined);
  }

  protected override wants(change: BrainChange): boolean {
    return change.topic === 'project' || change.topic === 'database';
  }

  /** Opens the document at `path` (from the route); `null` shows none. */
  select(path: string | null): void {
    if (path === this.#want) return;
    this.#want = path;
    // The view opens the imported project's first document by itself: the import's message outlives that one move.
    if (this.#keepNotice) this.#keepNotice = false;
    else this.notice = null;
    this.conflict = null;
    this.changedOnDisk = false;
    this.docError = null;
    this.#docLoader.request();
  }

  edit(text: string): void {
    const doc = this.doc;
    if (!doc || doc.mode !== 'edit') return;
    this.notice = null;
    this.drafts = withDraft(this.drafts, doc.path, text, doc.content?.text);
  }

  revert(): void {
    const doc = this.doc;
    if (!doc) return;
    this.#dropDraft(doc.path);
    this.conflict = null;
    if (this.changedOnDisk) {
      this.changedOnDisk = false;
      this.#docLoader.request();
    }
  }

  /** Saves the draft over the version that was read; a file changed meanwhile becomes a `conflict`. */
  async save(): Promise<boolean> {
    const doc = this.doc;
    const brain = this.source.brain;
    if (!doc?.content || !brain || !this.dirty) return false;
    return this.#write(doc, this.draft, doc.content.version);
  }

  /** Conflict: drop my edits and show the file as it is now. */
  keepTheirs(): void {
    const conflict = this.conflict;
    if (!conflict) return;
    this.#dropDraft(conflict.path);
    this.conflict = null;
    this.changedOnDisk = false;
    this.#docLoader.request();
  }

  /** Conflict: write my text over what is on disk now (itself version-checked against that). */
  async overwriteWithMine(): Promise<boolean> {
    const conflict = this.conflict;
    const doc = this.doc;
    if (!conflict || !doc || doc.path !== conflict.path) return false;
    return this.#write(doc, this.draft, conflict.theirs?.version ?? null);
  }

  // ---- opening and moving projects ----

  async openDemo(reset = false): Promise<void> {
    await this.#open(
      { kind: 'demo', reset },
      { kind: 'demo' },
      reset ? 'Putting the demo project back' : 'Opening the demo project',
    );
  }

  async openStored(name: string): Promise<void> {
    await this.#open({ kind: 'opfs', name }, { kind: 'opfs', name }, `Opening ${name}`);
  }

  /** Asks for a folder (from a click) and opens it. */
  async pickFolder(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    await this.opening.run(
      { phase: 'Waiting for a folder', done: 0, total: null, unit: 'items' },
      async () => {
        const handle = await pickProjectFolder();
        if (!handle) return;
        await this.#openNow({ kind: 'handle', handle }, { kind: 'handle' });
      },
    );
  }

  /** The remembered folder: asks the browser for access again (from a click), then opens it. */
  async allowAccess(): Promise<void> {
    const remembered = this.remembered;
    if (!remembered) return;
    await this.opening.run(
      { phase: `Asking for access to ${remembered.name}`, done: 0, total: null, unit: 'items' },
      async () => {
        if (!(await requestProjectFolderAccess(remembered.handle))) {
          throw new Error(`The browser did not allow access to "${remembered.name}".`);
        }
        await this.#openNow({ kind: 'handle', handle: remembered.handle }, { kind: 'handle' });
        this.remembered = null;
      },
    );
  }

  /** Copies a chosen folder (`<input webkitdirectory>`) into this browser as a project, then opens it. */
  async importFolder(list: FileList | readonly File[], name: string, replace = false): Promise<void> {
    const files = filesFromFileList(list);
    await this.#importFiles(files, name, replace, files.skipped);
  }

  /**
   * Copies a dropped folder (or dropped files) into this browser as a project, then opens it. `files` is what
   * `filesFromDataTransfer` returns for the drop: it was started in the drop handler, and may still be walking.
   * The folders it left out (`skipped`, when it says) are reported with the import.
   */
  async importDropped(
    files: Promise<readonly ProjectFileInput[] & { readonly skipped?: readonly SkippedFolder[] }>,
    name: string,
  ): Promise<void> {
    let found: (readonly ProjectFileInput[] & { readonly skipped?: readonly SkippedFolder[] }) | undefined;
    await this.importing.run(
      { phase: 'Reading the dropped folder', done: 0, total: null, unit: 'items' },
      async () => {
        found = await files;
        if (found.length === 0) {
          throw new Error(
            'Nothing to import: the drop held no files (a dropped folder must hold at least one).',
          );
        }
      },
    );
    if (found && found.length > 0) await this.#importFiles(found, name, false, found.skipped ?? []);
  }

  async #importFiles(
    files: readonly ProjectFileInput[],
    name: string,
    replace: boolean,
    skipped: readonly SkippedFolder[],
  ): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const bytes = files.reduce(
      (sum, f) => sum + (f.data instanceof Blob ? f.data.size : f.data.byteLength),
      0,
    );
    await this.importing.run(
      { phase: `Importing ${formatCount(files.length, 'file')}`, done: 0, total: bytes, unit: 'bytes' },
      async (report) => {
        const result = await brain.importFolderFiles(files, { name, replace, skipped });
        report({
          phase: `Imported ${formatCount(result.files, 'file')}`,
          done: result.bytes,
          total: result.bytes,
          unit: 'bytes',
        });
        this.#imported(result);
      },
    );
  }

  async importZip(file: File, name: string, replace = false): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    await this.importing.run(
      { phase: 'Reading the zip', done: 0, total: file.size, unit: 'bytes' },
      async (report) => {
        const bytes = new Uint8Array(await file.arrayBuffer());
        report({ phase: 'Unpacking the zip', done: 0, total: null, unit: 'bytes' });
        const result = await brain.importProjectZip(bytes, { name, replace });
        this.#imported(result);
      },
    );
  }

  async exportZip(): Promise<void> {
    const brain = this.source.brain;
    const info = this.info;
    if (!brain || !info) return;
    await this.exporting.run(
      { phase: 'Packing the project', done: 0, total: null, unit: 'bytes' },
      async () => {
        const bytes = await brain.exportProjectZip();
        downloadBlob(
          new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/zip' }),
          `${info.name}.zip`,
        );
        this.notice = `Exported "${info.name}" as ${info.name}.zip.`;
      },
    );
  }

  async createAgentFolder(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    await this.opening.run({ phase: 'Creating .agent', done: 0, total: null, unit: 'items' }, async () => {
      const { project, created } = await brain.createAgentFolder();
      this.info = project;
      this.notice = `Created ${created.length} starter files in .agent/.`;
    });
  }

  /**
   * Deletes a project kept in this browser: its copied files in OPFS (agent.db — sessions, tasks, checkpoints — is
   * untouched). The open project is closed first when it is the one deleted.
   */
  async deleteStored(name: string): Promise<boolean> {
    const brain = this.source.brain;
    if (!brain) return false;
    const wasOpen = this.info?.kind === 'opfs' && this.info.name === name;
    const done = await this.opening.run(
      { phase: `Deleting ${name}`, done: 0, total: null, unit: 'items' },
      async () => {
        await brain.deleteProject(name);
        return true;
      },
    );
    if (done && wasOpen) {
      this.#store?.removeItem(lastProjectKey);
      this.info = null;
    }
    if (done) this.notice = `Deleted "${name}" from this browser.`;
    this.refresh();
    return done === true;
  }

  async close(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    await brain.closeProject();
    this.#store?.removeItem(lastProjectKey);
    this.info = null;
  }

  /** Reopens the project of the last visit (called once the brain is open). */
  async restore(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const last = this.#last();
    if (!last || (await brain.projectInfo())) return;
    try {
      if (last.kind === 'handle') {
        const remembered = await rememberedProjectFolder();
        if (!remembered) return;
        if (remembered.permission === 'granted')
          await this.#openNow({ kind: 'handle', handle: remembered.handle }, last);
        else this.remembered = { name: remembered.handle.name, handle: remembered.handle };
      } else {
        await this.#openNow(
          last.kind === 'demo' ? { kind: 'demo' } : { kind: 'opfs', name: last.name },
          last,
        );
      }
    } catch (error) {
      // A project deleted since, or a folder gone: say so, and open nothing.
      this.error = `The last project could not be reopened: ${messageOf(error)}`;
      this.#store?.removeItem(lastProjectKey);
    }
  }

  async #open(source: ProjectSource, remember: LastProject, phase: string): Promise<void> {
    await this.opening.run({ phase, done: 0, total: null, unit: 'items' }, () =>
      this.#openNow(source, remember),
    );
  }

  async #openNow(source: ProjectSource, remember: LastProject): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    this.info = await brain.openProject(source);
    this.#remember(remember);
    this.notice = null;
    this.error = null;
  }

  /** An import done: its project opened and remembered, and the message says what was left out. */
  #imported(result: ProjectImportResult) {
    this.#remember({ kind: 'opfs', name: result.project.name });
    this.info = result.project;
    const files = `${result.files} file${result.files === 1 ? '' : 's'}`;
    const left = describeSkipped(result.skipped);
    this.notice = `Imported ${files} into "${result.project.name}".${left ? ` ${left}` : ''}`;
    this.#keepNotice = true;
  }

  #remember(last: LastProject) {
    try {
      this.#store?.setItem(lastProjectKey, JSON.stringify(last));
    } catch {
      // Only the convenience of reopening is lost.
    }
  }

  #last(): LastProject | null {
    try {
      const value = JSON.parse(this.#store?.getItem(lastProjectKey) ?? 'null') as LastProject | null;
      if (value?.kind === 'demo' || value?.kind === 'handle') return value;
      if (value?.kind === 'opfs' && typeof value.name === 'string') return value;
    } catch {
      // A value this build does not understand: ignore it.
    }
    return null;
  }

  #dropDraft(path: string) {
    this.drafts = withoutDraft(this.drafts, path);
  }

  async #write(doc: OpenDoc, text: string, expectedVersion: string | null): Promise<boolean> {
    const brain = this.source.brain;
    if (!brain) return false;
    this.#ownWrites.add(doc.path);
    const written = await this.saving.run(
      { phase: `Saving ${doc.path}`, done: 0, total: null, unit: 'bytes' },
      async () => {
        try {
          return doc.skillName !== null
            ? await brain.saveSkill(doc.skillName, text, { expectedVersion })
            : await brain.writeAgentFile(doc.path, text, { expectedVersion });
        } catch (error) {
          this.#ownWrites.delete(doc.path);
          if (!isBrainError(error, 'Conflict')) throw error;
          const theirs = await brain
            .readAgentFile(doc.path)
            .catch((e: unknown) => (isBrainError(e, 'NotFound') ? null : Promise.reject(e)));
          this.conflict = { path: doc.path, message: error.message, theirs };
          return null;
        }
      },
    );
    if (!written) return false;
    this.conflict = null;
    this.changedOnDisk = false;
    const fresh = await brain.readAgentFile(doc.path);
    if (this.doc?.path === doc.path) this.doc = { ...doc, content: fresh };
    // Edits typed while saving stay a draft; otherwise the draft is gone.
    if (this.drafts.get(doc.path) === text) this.#dropDraft(doc.path);
    this.notice = `Saved ${doc.path}.`;
    return true;
  }

  /** The project, the stored projects and the open project's `.agent` files, skills and other agents' memory. */
  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const [info, stored] = await Promise.all([brain.projectInfo(), brain.listProjects()]);
    let agentFiles: AgentFileSummary[] = [];
    let skills: SkillSummary[] = [];
    let others: OtherAgentFile[] = [];
    if (info) {
      [agentFiles, skills, others] = await Promise.all([
        info.agentFolder === 'present' ? brain.listAgentFiles() : Promise.resolve([]),
        info.agentFolder === 'present' ? brain.listSkills() : Promise.resolve([]),
        brain.listOtherAgentMemory(),
      ]);
    }
    this.info = info;
    this.stored = stored;
    this.agentFiles = agentFiles;
    this.skills = skills;
    this.others = others;
    this.loaded = true;
  }

  async #loadDoc(): Promise<void> {
    const brain = this.source.brain;
    const path = this.#want;
    if (!brain) return;
    if (path === null || !(await brain.projectInfo())) {
      this.doc = null;
      return;
    }
    const isAgent = path.startsWith('.agent/');
    const skillName = skillPath.exec(path)?.[1] ?? null;
    let doc: OpenDoc;
    if (!isAgent) {
      doc = {
        path,
        mode: 'read-only',
        skillName: null,
        content: await brain.readProjectFile(path),
        log: null,
      };
    } else {
      doc = path.endsWith('.jsonl')
        ? {
            path,
            mode: 'log',
            skillName: null,
            content: null,
            log: await brain.readJsonlTail(path, { maxBytes: logWindowBytes, countLines: true }),
          }
        : { path, mode: 'edit', skillName, content: await brain.readAgentFile(path), log: null };
    }
    if (path !== this.#want) return;
    this.doc = doc;
    this.docError = null;
  }
}
