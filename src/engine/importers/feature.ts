/**
 * importTranscript / listImportedSessions: other agents' transcripts imported as sessions. The files are sorted
 * (sources.ts), each unit read into its session (unit.ts), all in ONE transaction: a cancel or a failure leaves
 * nothing, and no reader ever sees half a session. Change notices go out after the commit; imported events are
 * not appended to an open project's `.agent/SESSION.jsonl` (they are another agent's history, not this one's).
 */
import type {
  ImportedSession,
  ImportersApi,
  ImportProgressListener,
  ImportTranscriptResult,
} from '../../core/api/importers';
import { BrainError } from '../../core/errors';
import { IMPORT_BODY_CACHE_BYTES } from '../../storage/blobs/cache';
import { createImportsRepo } from '../../storage/sqlite/repos/imports-repo';
import { createTranscriptRepo } from '../../storage/sqlite/repos/transcript-repo';
import { withRollbackJournal } from '../../storage/sqlite/journal-mode';
import { IMPORT_PAGE_CACHE_KIB, withPageCacheAtMost } from '../../storage/sqlite/page-cache';
import { createSessionsRepo } from '../../storage/sqlite/repos/sessions-repo';
import { createTasksRepo } from '../../storage/sqlite/repos/tasks-repo';
import type { CheckpointStore } from '../checkpoints/feature';
import type { EngineContext } from '../context';
import type { EventLog } from '../events/log';
import { createToolCallDeps } from '../tool-calls/feature';
import { createToolCallReplay } from '../tool-calls/replay';
import { createImportReporter } from './progress-reports';
import { parseFiles, sortSources } from './sources';
import { createBackupLookup } from './tool-call-input';
import { importUnit, type UnitResult } from './unit';
import { mergeSessions } from './merge';
import type { ReadAhead } from './read-ahead';
import { publishImported } from './publish';

const clockNow = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

export function createImportersFeature(
  ctx: EngineContext,
  log: EventLog,
  store: CheckpointStore,
  options: {
    /** Reads large JSONL units on another thread (read-ahead.ts); absent: every unit is read here. */
    readonly readAhead?: ReadAhead;
    readonly now?: () => number;
  } = {},
) {
  const now = options.now ?? clockNow;
  const imports = createImportsRepo(ctx.db);
  const sessions = createSessionsRepo(ctx.db);
  const tasks = createTasksRepo(ctx.db);
  const transcript = createTranscriptRepo(ctx.db);

  async function importTranscript(
    input: unknown,
    onProgress?: ImportProgressListener,
  ): Promise<ImportTranscriptResult> {
    if (onProgress !== undefined && typeof onProgress !== 'function')
      throw new BrainError('InvalidArgument', 'onProgress must be a function.');
    const sorted = await sortSources(parseFiles(input));
    const reporter = createImportReporter(onProgress, sorted.bytesTotal, now);
    // A recorder of its own: the bodies it remembers belong to this transaction and go with it.
    const replay = createToolCallReplay(ctx, createToolCallDeps(ctx, log, store));
    const deps = {
      ctx,
      log,
      replay,
      imports,
      sessions,
      tasks,
      transcript,
      backups: createBackupLookup(sorted.backups),
      ...(options.readAhead ? { readAhead: options.readAhead } : {}),
    };
    // Both caches bounded while the import writes far more than it reads back (page-cache.ts, blobs/cache.ts), and
    // a rollback journal rather than the WAL for its one large transaction of new pages (journal-mode.ts).
    const results: UnitResult[] = await withRollbackJournal(ctx.db, () =>
      withPageCacheAtMost(ctx.db, IMPORT_PAGE_CACHE_KIB, () =>
        store.withBodyCacheAtMost(IMPORT_BODY_CACHE_BYTES, () =>
          ctx.db.transaction(async () => {
            const out: UnitResult[] = [];
            for (const unit of sorted.units) {
              await reporter.startUnit('file' in unit ? unit.file.name : unit.folder);
              const result = await importUnit(deps, unit, reporter);
              if (result.kind === 'imported') reporter.endUnit(result.session.added, result.session.created);
              out.push(result);
            }
            await replay.finish();
            return out;
          }),
        ),
      ),
    );
    const imported = mergeSessions(results.flatMap((r) => (r.kind === 'imported' ? [r.session] : [])));
    const refused = [
      ...sorted.ignored.map((file) => ({ file, reason: 'not a transcript of a known format' })),
      ...results.flatMap((r) => (r.kind === 'refused' ? [{ file: r.file, reason: r.reason }] : [])),
    ];
    if (imported.length === 0) {
      const first = refused[0] as { file: string; reason: string };
      throw new BrainError('MalformedLine', `${first.file} was not imported: ${first.reason}.`, { refused });
    }
    await publishImported(
      ctx,
      log,
      imported.map((s) => s.sessionId),
      replay.touched,
    );
    await reporter.force('done');
    return { sessions: imported, refused };
  }

  return {
    importTranscript: (input, onProgress) => importTranscript(input, onProgress),
    async listImportedSessions() {
      return (await imports.list()).map((row) => ({
        sessionId: row.sessionId,
        taskId: row.taskId,
        agent: row.agent as ImportedSession['agent'],
        sourceSessionId: row.sourceSession,
        format: row.format,
        fileName: row.fileName,
        items: row.items,
        importedAt: row.importedAt,
      }));
    },
  } satisfies ImportersApi;
}
