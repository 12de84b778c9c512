/**
 * The storage floor of recording tool calls, in a worker of its own: the same wa-sqlite build on the same OPFS VFS,
 * agent.db's schema (migrated as the engine migrates it), and for each call only the two writes no recording can
 * skip — its step row (params and result JSON) and its search document (the decoded text the engine indexes) —
 * through the engine's own repositories, in transactions of `batchSize`; or, with `documents: false`, the step rows
 * alone (a recording that indexes behind its writes still writes them). No classification, no events, no
 * checkpoints, no Comlink: what the rows alone cost, measured in the same run as `recordToolCalls`.
 */
import { openDatabase } from '../../../src/storage/sqlite/database';
import { createHistoryRepo, type HistoryDoc } from '../../../src/storage/sqlite/repos/history-repo';
import { createTranscriptRepo } from '../../../src/storage/sqlite/repos/transcript-repo';
import { createOpfsSqliteEngine, readOpfsDatabase } from '../../../src/storage/sqlite/vfs/opfs';
import { createSessionsRepo } from '../../../src/storage/sqlite/repos/sessions-repo';
import { createTasksRepo } from '../../../src/storage/sqlite/repos/tasks-repo';
import { stepDocument } from '../../../src/engine/history/step-index';

export interface FloorRequest {
  readonly dbName: string;
  readonly batchSize: number;
  /** Per call: its params and result as the engine writes them, and its search text. */
  readonly rows: readonly (readonly [params: string, result: string, text: string])[];
  /** false: the step rows alone (what a recording that indexes behind its writes cannot go below). */
  readonly documents: boolean;
}

export interface FloorResult {
  readonly ms: number;
  readonly perSecond: number;
}

async function floor({ dbName, batchSize, rows, documents }: FloorRequest): Promise<FloorResult> {
  const engine = await createOpfsSqliteEngine();
  const database = await openDatabase(engine, dbName, {
    read: () => readOpfsDatabase(dbName),
    install: () => Promise.reject(new Error('The floor bench never installs a database.')),
  });
  try {
    const db = database.driver;
    const transcript = createTranscriptRepo(db);
    const history = createHistoryRepo(db);
    const sessionId = await db.transaction(() => createSessionsRepo(db).create('floor', Date.now()));
    const taskId = await db.transaction(() =>
      createTasksRepo(db).insert({
        sessionId,
        title: 'floor',
        parentTaskId: null,
        references: [],
        now: Date.now(),
      }),
    );
    const started = performance.now();
    for (let i = 0; i < rows.length; i += batchSize) {
      await db.transaction(async () => {
        const docs: HistoryDoc[] = [];
        for (const [params, result, text] of rows.slice(i, i + batchSize)) {
          const createdAt = Date.now();
          const added = await transcript.addStep({
            taskId,
            tool: 'bash',
            params,
            result,
            status: 'ok',
            createdAt,
          });
          const step = { ...added, taskId, sessionId, tool: 'bash', status: 'ok' as const };
          docs.push(stepDocument({ ...step, createdAt }, text));
        }
        if (documents) await history.indexSteps(docs);
      });
    }
    const ms = performance.now() - started;
    return { ms, perSecond: (rows.length * 1000) / ms };
  } finally {
    await database.close();
  }
}

self.onmessage = (event: MessageEvent<FloorRequest>) => {
  floor(event.data).then(
    (result) => self.postMessage({ result }),
    (error: unknown) => self.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
};
