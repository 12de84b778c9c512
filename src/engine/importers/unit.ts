/**
 * One import unit (a JSONL transcript streamed line by line, a JSON document, a task folder) read into the
 * session it belongs to: the session found or created at its first item, every item written, the session
 * retitled once the transcript named itself, and the import's row saved (all inside the caller's transaction).
 */
import type { ImportedSession } from '../../core/api/importers';
import { BrainError } from '../../core/errors';
import type {
  TranscriptItem,
  TranscriptMeta,
  TranscriptProblem,
  TranscriptStats,
} from '../../core/importers/types';
import { wholeText, sizeOf } from './bytes';
import { readLines } from './lines';
import { ReadAheadUnavailable, type ReadBatch, type ReadEnd, type UnitReading } from './read-ahead';
import type { PackedStep } from '../tool-calls/step-texts';
import { importedTitle, sessionTitle } from './naming';
import type { ImportUnit } from './sources';
import {
  createSessionWriter,
  openTarget,
  type SessionTarget,
  type SessionWriter,
  type WriterDeps,
} from './session-writer';

/** A document format is parsed whole: this bounds the text held (a file, or a folder's files together). */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

export interface UnitProgress {
  /** Bytes of this unit read so far. */
  bytes(done: number): Promise<void>;
  /** Between items: reports (throttled) and throws `Cancelled` when the caller asked to stop. */
  tick(counts: { readonly instructions: number; readonly toolCalls: number }): Promise<void>;
}

export type UnitResult =
  | { readonly kind: 'imported'; readonly session: ImportedSession; readonly maxLine: number }
  | { readonly kind: 'refused'; readonly file: string; readonly reason: string };

const nameOf = (unit: ImportUnit) => ('file' in unit ? unit.file.name : unit.folder || '(folder)');

export async function importUnit(
  deps: WriterDeps,
  unit: ImportUnit,
  progress: UnitProgress,
): Promise<UnitResult> {
  const name = nameOf(unit);
  let meta: () => TranscriptMeta = () => {
    throw new BrainError('Internal', 'No parser yet.');
  };
  let writer: ReturnType<typeof createSessionWriter> | null = null;
  let target: Awaited<ReturnType<typeof openTarget>> | null = null;
  let index = 0;
  let maxLine = 0;
  const feed = async (items: readonly TranscriptItem[], ahead?: readonly (PackedStep | null)[]) => {
    for (const [i, item] of items.entries()) {
      if (!writer) {
        target = await openTarget(
          deps,
          meta().agent,
          meta(),
          name,
          item.at ?? meta().startedAt ?? deps.ctx.clock.now(),
        );
        writer = createSessionWriter(deps, target, meta);
      }
      await writer.add(item, index++, ahead?.[i] ?? null);
      if (item.line > maxLine) maxLine = item.line;
      await progress.tick(writer.counts);
    }
  };

  let stats: TranscriptStats;
  let problems: readonly TranscriptProblem[];
  const elsewhere =
    'file' in unit && unit.format.shape === 'lines'
      ? (deps.readAhead?.({
          data: unit.file.data,
          format: unit.format.id,
          maxStepJsonChars: deps.ctx.limits.maxStepJsonChars,
        }) ?? null)
      : null;
  const end =
    elsewhere === null
      ? null
      : await readElsewhere(elsewhere, progress, (groupMeta, items, ahead) => {
          meta = () => groupMeta;
          return feed(items, ahead);
        });
  if (end !== null) {
    meta = () => end.meta;
    stats = end.stats;
    problems = end.problems;
  } else if ('file' in unit && unit.format.shape === 'lines') {
    const parser = unit.format.createParser();
    meta = () => parser.meta();
    const { torn } = await readLines(unit.file.data, {
      line: (text, lineNo) => feed(parser.push(text, lineNo)),
      ...(parser.skipBytes ? { skip: parser.skipBytes.bind(parser) } : {}),
      read: (done) => progress.bytes(done),
    });
    await feed(parser.finish({ torn }));
    stats = parser.stats();
    problems = parser.problems();
  } else {
    const parsed =
      'file' in unit
        ? unit.format.shape === 'document'
          ? unit.format.parse(await wholeText(unit.file.data, name, MAX_DOCUMENT_BYTES), unit.file.name)
          : null
        : unit.format.parse(
            await folderTexts(unit.folder, unit.files),
            unit.folder.slice(unit.folder.lastIndexOf('/') + 1),
          );
    if (parsed === null) throw new BrainError('Internal', `${name}: a folder format given one file.`);
    meta = () => parsed.meta;
    await progress.bytes(
      'file' in unit ? sizeOf(unit.file.data) : unit.files.reduce((n, f) => n + sizeOf(f.data), 0),
    );
    await feed(parsed.items);
    stats = parsed.stats;
    problems = parsed.problems;
  }

  if (!writer || !target) {
    const first = problems[0];
    const reason = first
      ? `no record could be read: line ${first.line}${first.file ? ` of ${first.file}` : ''}: ${first.message}`
      : 'it holds no record of a session';
    return { kind: 'refused', file: name, reason };
  }
  const w = writer as ReturnType<typeof createSessionWriter>;
  const t = target as Awaited<ReturnType<typeof openTarget>>;
  await w.finish({ torn: stats.tornLastLine });
  const m = meta();
  await saveUnit(deps, w, t, m, {
    format: unit.format.id,
    name,
    bytes: 'file' in unit ? sizeOf(unit.file.data) : unit.files.reduce((n, f) => n + sizeOf(f.data), 0),
    lastLine: maxLine,
  });
  return {
    kind: 'imported',
    maxLine,
    session: {
      sessionId: t.sessionId,
      taskId: t.taskId,
      agent: m.agent,
      sourceSessionId: t.sourceSession,
      title: (await deps.sessions.get(t.sessionId)).title,
      files: [name],
      format: unit.format.id,
      created: t.created,
      added: { ...w.counts },
      alreadyImported: w.alreadyImported,
      stats,
      problems: [...problems, ...w.problems],
    },
  };
}

/**
 * A line unit read on another thread (read-ahead.ts): its batches written in order, each group under the meta its
 * items came out with. Null when the reader could not start (nothing was read: the caller reads the unit here).
 */
async function readElsewhere(
  reading: UnitReading,
  progress: UnitProgress,
  write: (
    meta: TranscriptMeta,
    items: readonly TranscriptItem[],
    ahead: readonly (PackedStep | null)[],
  ) => Promise<void>,
): Promise<ReadEnd | null> {
  try {
    for (let first = true; ; first = false) {
      let batch: ReadBatch | null;
      try {
        batch = await reading.next();
      } catch (error) {
        if (first && error instanceof ReadAheadUnavailable) return null;
        throw error;
      }
      if (batch === null) return reading.end();
      for (const group of batch.groups) await write(group.meta, group.items, group.ahead);
      await progress.bytes(batch.bytesRead);
    }
  } finally {
    reading.close();
  }
}

/**
 * After a unit's items (or a followed file's new ones) are written: the session named for good once the transcript
 * named itself, and the import's row (file, size, last line, items so far) saved.
 */
export async function saveUnit(
  deps: WriterDeps,
  writer: SessionWriter,
  target: SessionTarget,
  meta: TranscriptMeta,
  source: {
    readonly format: string;
    readonly name: string;
    readonly bytes: number;
    readonly lastLine: number;
  },
  /** A follower's later look names the session again once the agent named it (its title may come late). */
  options: { readonly retitleNamed?: boolean } = {},
): Promise<void> {
  const title = importedTitle({
    agentTitle: meta.title,
    task: writer.firstInstruction,
    id: target.sourceSession,
  });
  if (target.created || (options.retitleNamed === true && meta.title !== null))
    await deps.imports.retitle(target.sessionId, sessionTitle(meta.agent, title), target.taskId, title);
  const previous = await deps.imports.find(meta.agent, target.sourceSession);
  const added = Object.values(writer.counts).reduce((a, b) => a + b, 0);
  await deps.imports.save({
    sessionId: target.sessionId,
    agent: meta.agent,
    sourceSession: target.sourceSession,
    taskId: target.taskId,
    format: source.format,
    fileName: source.name,
    fileBytes: source.bytes,
    lastLine: source.lastLine,
    items: (previous?.items ?? 0) + added,
    importedAt: deps.ctx.clock.now(),
  });
}

async function folderTexts(
  folder: string,
  files: readonly { name: string; data: Parameters<typeof sizeOf>[0] }[],
) {
  const total = files.reduce((n, f) => n + sizeOf(f.data), 0);
  if (total > MAX_DOCUMENT_BYTES)
    throw new BrainError(
      'TooLarge',
      `The folder ${folder} holds ${total} bytes; a task folder may hold at most ${MAX_DOCUMENT_BYTES}.`,
    );
  const out: { name: string; text: string }[] = [];
  for (const f of files) {
    const name = folder && f.name.startsWith(`${folder}/`) ? f.name.slice(folder.length + 1) : f.name;
    out.push({ name, text: await wholeText(f.data, f.name, MAX_DOCUMENT_BYTES) });
  }
  return out;
}
