/**
 * agent-brain's embedding API: `openBrain()` starts a dedicated worker that owns the brain's SQLite database on
 * OPFS and returns a typed client. Every method returns a Promise and rejects with a `BrainError` whose `code`
 * is stable (see ErrorCode).
 */
import * as Comlink from 'comlink';
import { BrainError } from '../core/errors';
import { installErrorTransfer } from '../worker/error-transfer';
import { ownerLockName } from '../worker/owner-lock';
import { checkCallArguments } from './bounds';
import { memoryClient } from './memory-client';
import { projectClient } from './project-client';
import { transferBytes, transferCopy, watchProgressVia } from './storage-client';
import { noteLeft, takeLeft } from './tab-handoff';
import { startBrainWorker } from './worker-start';
import type {
  ArchiveProgressListener,
  BrainApi,
  BrainArchiveImportOptions,
  BrainInfo,
  ChangeListener,
  EngineProgressListener,
  ImportReport,
  OwnerEvent,
} from '../worker/protocol';

export * from '../worker/protocol';
export { BrainError, isBrainError } from '../core/errors';
export * from './project-folder';
export * from './follow-folder';
export { leftOutOfSummary, type LeftOut, type LeftOutKind } from '../core/compression/left-out';
export { compressWithProse, type ProseWriter } from './memory-client';
export { defaultStartTimeoutMs, type WorkerStartStage } from './worker-start';
export * from './model-tools/index';
export * from './tool-recorder';

export interface OpenBrainOptions {
  /** The database file in OPFS; give each brain its own so several can coexist. Default `agent.db`. */
  readonly dbName?: string;
  /** Take the database over from another tab that has it open (that tab's brain then rejects every call). */
  readonly takeOver?: boolean;
  /**
   * Open an empty brain even though the one kept under `dbName` is missing or empty (removed outside agent-brain).
   * Without it, that is refused with `BrainMissing`, so a lost brain is never silently replaced by a new one.
   */
  readonly startEmpty?: boolean;
  /** Called when another tab takes this brain over, or when it closes. */
  readonly onOwnerEvent?: (event: OwnerEvent) => void;
  /**
   * Close the brain when the page is hidden for good (default true). The page notes it let go (tab-handoff.ts), so
   * the next page of the tab (a reload) waits for this page's worker to end instead of refusing with `OpenElsewhere`.
   */
  readonly closeOnPageHide?: boolean;
  /**
   * How long the worker may take to answer its first message (default `defaultStartTimeoutMs`, 8 s). A worker
   * that cannot be loaded, throws while starting or stays silent rejects with `WorkerUnavailable`, naming its URL.
   */
  readonly startTimeoutMs?: number;
}

export interface Brain extends Omit<BrainApi, 'subscribe' | 'watchProgress' | 'importDatabase'> {
  /** Like `subscribe`, for progress reports of long engine calls (compact). */
  watchProgress(listener: EngineProgressListener): Promise<() => Promise<void>>;
  /** As BrainApi's; `bytes` moves to the worker: afterwards it is empty unless it was a view into a larger buffer (then copied). Pass `bytes.slice()` to keep it. */
  importDatabase(bytes: Uint8Array): Promise<ImportReport>;
  readonly dbName: string;
  /** `listener` is called after every committed change; await the returned function to unsubscribe. */
  subscribe(listener: ChangeListener): Promise<() => Promise<void>>;
  /** Closes the database and stops the worker. Further calls reject with `Closed`. */
  close(): Promise<void>;
}

export async function openBrain(options: OpenBrainOptions = {}): Promise<Brain> {
  installErrorTransfer();
  const dbName = options.dbName ?? 'agent.db';
  // This opening's token, and those of earlier pages of this tab that let go of the database (tab-handoff.ts).
  const holder = crypto.randomUUID();
  const leftBy = takeLeft(dbName);
  const leaveOnPageHide = (options.closeOnPageHide ?? true) && typeof addEventListener === 'function';
  // Hidden for good while opening, the page leaves with its worker; once open, onPageHide (below) stops it.
  const onHiddenWhileOpening = (event: PageTransitionEvent) => {
    if (!event.persisted) noteLeft(dbName, holder);
  };
  if (leaveOnPageHide) addEventListener('pagehide', onHiddenWhileOpening);
  try {
    return await startAndOpen(options, dbName, holder, leftBy);
  } finally {
    if (leaveOnPageHide) removeEventListener('pagehide', onHiddenWhileOpening);
  }
}

async function startAndOpen(
  options: OpenBrainOptions,
  dbName: string,
  holder: string,
  leftBy: readonly string[],
): Promise<Brain> {
  // A structured-clone failure of what is posted rejects the call with InvalidArgument (lib/bounds.ts).
  const { worker, remote } = await startBrainWorker(`agent-brain:${dbName}`, options.startTimeoutMs);
  let closed = false;
  let closedError = new BrainError('Closed', 'This brain is closed.');
  // Set by close() until the worker is gone: calls made meanwhile reject at once instead of racing the shutdown.
  let closing: Promise<void> | null = null;
  const closingError = new BrainError('Closed', 'This brain is closing: open it again to use it.');
  // Calls sent and not yet answered. Comlink drops their listeners when the proxy is released, so terminate()
  // rejects them itself; otherwise a call whose answer was still on its way would never settle.
  const pending = new Map<Promise<unknown>, (error: BrainError) => void>();
  let info: BrainInfo;
  const onOwnerEvent = (event: OwnerEvent) => {
    if (event.kind === 'taken-over') {
      // The worker has already let go of the database; stop it too, and say why on every later call.
      closedError = new BrainError(
        'OpenElsewhere',
        'This brain was taken over by another tab. Open it again to take it back.',
      );
      terminate();
    }
    options.onOwnerEvent?.(event);
  };
  try {
    info = await remote.open(
      {
        dbName,
        takeOver: options.takeOver ?? false,
        startEmpty: options.startEmpty ?? false,
        holder,
        leftBy,
      },
      Comlink.proxy(onOwnerEvent),
    );
  } catch (error) {
    worker.terminate();
    throw error;
  }

  // The worker holds the owner lock for as long as it owns the database; this page queues for it. Granted while
  // the brain is open and not closing, it means the worker stopped without being asked (the browser ended it, out
  // of memory, or it crashed): no answer will come, so every waiting call is rejected instead of left hanging.
  const watch = new AbortController();
  if (typeof navigator !== 'undefined' && navigator.locks) {
    navigator.locks
      .request(ownerLockName(info.dbName), { signal: watch.signal }, () => {
        if (closed || closing) return;
        closedError = new BrainError(
          'Closed',
          "agent-brain's worker stopped while the brain was open (the browser ended it, e.g. out of memory). " +
            'A call that was running is either wholly saved or not at all; open the brain again to see.',
          { reason: 'worker-lost' },
        );
        terminate();
        options.onOwnerEvent?.({ kind: 'worker-lost' });
      })
      .catch(() => undefined); // aborted by terminate(): the page let the brain go first
  }

  function terminate() {
    if (closed) return;
    closed = true;
    watch.abort();
    remote[Comlink.releaseProxy]();
    worker.terminate();
    for (const reject of pending.values()) reject(closedError);
    pending.clear();
    if (typeof removeEventListener === 'function') removeEventListener('pagehide', onPageHide);
  }
  const onPageHide = () => {
    noteLeft(dbName, holder);
    terminate();
  };
  if ((options.closeOnPageHide ?? true) && typeof addEventListener === 'function') {
    addEventListener('pagehide', onPageHide);
  }

  /** Every call goes through here: refused once closing, rejected (not left hanging) if the worker goes. */
  function track<T>(send: () => Promise<T>): Promise<T> {
    if (closed) return Promise.reject(closedError);
    if (closing) return Promise.reject(closingError);
    let settle!: (error: BrainError) => void;
    const tracked = new Promise<T>((resolve, reject) => {
      settle = reject;
      send().then(resolve, reject);
    });
    pending.set(tracked, settle);
    const forget = () => void pending.delete(tracked);
    tracked.then(forget, forget);
    return tracked;
  }

  const call =
    <K extends keyof BrainApi>(name: K) =>
    (...args: Parameters<BrainApi[K]>): ReturnType<BrainApi[K]> =>
      track(() => {
        // Refused here, typed, what the engine would refuse or the worker could not take (too deep, too large).
        checkCallArguments(name, args);
        // Comlink's Remote<BrainApi>[K] does not resolve to a callable type for a generic K.
        const method = remote[name] as unknown as (...a: unknown[]) => Promise<unknown>;
        return method(...args);
      }) as ReturnType<BrainApi[K]>;

  const client: Omit<Brain, 'subscribe' | 'close' | 'dbName'> = {
    info: call('info'),
    ...memoryClient(call),
    ...projectClient(call),
    startSession: call('startSession'),
    listSessions: call('listSessions'),
    sessionsOverview: call('sessionsOverview'),
    getSession: call('getSession'),
    deleteSession: call('deleteSession'),
    startTask: call('startTask'),
    getTask: call('getTask'),
    listTasks: call('listTasks'),
    setTaskState: call('setTaskState'),
    setCurrentTask: call('setCurrentTask'),
    pinTask: call('pinTask'),
    addTaskReference: call('addTaskReference'),
    recordMessage: call('recordMessage'),
    listMessages: call('listMessages'),
    recordStep: call('recordStep'),
    recordToolCall: call('recordToolCall'),
    recordToolCalls: call('recordToolCalls'),
    listSteps: call('listSteps'),
    recordSummary: call('recordSummary'),
    listSummaries: call('listSummaries'),
    integrityCheck: call('integrityCheck'),
    exportDatabase: call('exportDatabase'),
    importDatabase: (bytes: Uint8Array) => call('importDatabase')(transferBytes(bytes)),
    // Progress listeners cross the worker by reference.
    exportBrain: (onProgress?: ArchiveProgressListener) =>
      call('exportBrain')(onProgress && Comlink.proxy(onProgress)),
    // A copy crosses: the caller still needs its bytes for the import that follows.
    previewBrainArchive: async (bytes: Uint8Array) => call('previewBrainArchive')(await transferCopy(bytes)),
    importBrain: (
      bytes: Uint8Array,
      options?: BrainArchiveImportOptions,
      onProgress?: ArchiveProgressListener,
    ) => call('importBrain')(bytes, options, onProgress && Comlink.proxy(onProgress)),
    planCleanup: call('planCleanup'),
    cleanup: (...[options, onProgress]: Parameters<BrainApi['cleanup']>) =>
      call('cleanup')(options, onProgress && Comlink.proxy(onProgress)),
    cleanupLog: call('cleanupLog'),
    // Files cross as Blobs/Files (the worker reads them in chunks) or bytes; the progress listener by reference.
    importTranscript: (...[input, onProgress]: Parameters<BrainApi['importTranscript']>) =>
      call('importTranscript')(input, onProgress && Comlink.proxy(onProgress)),
    listImportedSessions: call('listImportedSessions'),
    // The folder's handle crosses by structured clone (it stays readable in the worker).
    followFolder: call('followFolder'),
    unfollowFolder: call('unfollowFolder'),
    listFollowedFolders: call('listFollowedFolders'),
    pollFollowedFolder: call('pollFollowedFolder'),
    setFollowVisibility: call('setFollowVisibility'),
    audit: call('audit'),
    maintain: call('maintain'),
    compact: call('compact'),
    setAutoCleanup: call('setAutoCleanup'),
    checkpointFile: call('checkpointFile'),
    checkpointFiles: call('checkpointFiles'),
    listCheckpoints: call('listCheckpoints'),
    readCheckpoint: call('readCheckpoint'),
    readCheckpoints: call('readCheckpoints'),
    diffCheckpoint: call('diffCheckpoint'),
    sizeHistory: call('sizeHistory'),
    watchProgress: watchProgressVia(remote, track, () => closed || closing !== null),
  };

  return {
    ...client,
    dbName: info.dbName,
    async subscribe(listener: ChangeListener) {
      const remoteUnsubscribe = await track(() => remote.subscribe(Comlink.proxy(listener)));
      // The worker returns its unsubscribe function as a Comlink proxy: here it is a Remote, whose call is async.
      const unsubscribe = remoteUnsubscribe as unknown as Comlink.Remote<() => void>;
      return async () => {
        // Closing or closed: the worker drops every subscription with the database.
        if (closed || closing) return;
        await track(() => unsubscribe());
        unsubscribe[Comlink.releaseProxy]();
      };
    },
    close() {
      if (closed) return Promise.resolve();
      // Calls already sent finish first (the worker answers them); later ones reject with `Closed`.
      closing ??= Promise.allSettled([...pending.keys()])
        .then(() => remote.close())
        .catch(() => undefined)
        .then(() => terminate());
      return closing;
    },
  };
}
