/**
 * A large JSONL transcript read on a second thread while this one writes it (issue 32: an import at native speed).
 * The worker that owns SQLite spends its time writing; reading the file, decoding and parsing its lines and packing
 * each tool call's step (zlib, 15–20 % of an import) need none of it. So a unit of at least READ_AHEAD_MIN_BYTES is
 * read by a reader thread (src/worker/line-reader.worker.ts) running `serveReadAhead`: the same `readLines` and the
 * same format's parser as a read here, each tool call's step packed ahead (step-texts.ts `packStepAhead`); the
 * writer (`readAheadWith`, unit.ts) takes the items in batches and writes them as it would have.
 *
 * What the writer sees is what a read here gives:
 * - the items, in order, each batch at most ~1 MiB of transcript or MAX_BATCH_ITEMS items;
 * - the parser's meta **as it stood when each item came out** (a group of items shares one; the reader sends it
 *   again only when it changed), since the writer reads the meta while it writes (the cwd, the start time);
 * - after the last batch, the parse's end: meta, stats and problems after `finish`;
 * - a step packed ahead is stored only for the very text the writer computed itself (`packedFor`). Packing is the
 *   reader's spare work: while the writer has fewer than PACK_FROM_BACKLOG batches waiting, the reader sends its
 *   calls unpacked (the writer packs them), so the slower thread sets the pace, whichever it is on a machine.
 *
 * Memory: the reader is at most READ_AHEAD_WINDOW batches ahead (the writer acknowledges each one it takes). A reader that
 * cannot start (a bundler that did not emit its script, no nested workers) fails before its first message:
 * unit.ts then reads the unit here (`ReadAheadUnavailable`). One that fails later fails the import (it rolls back).
 */
import { BrainError, errorCodes, type ErrorCode } from '../../core/errors';
import { formatById, type TranscriptFormatId } from '../../core/importers/registry';
import type {
  TranscriptItem,
  TranscriptMeta,
  TranscriptProblem,
  TranscriptStats,
} from '../../core/importers/types';
import { packJsonNative, type StoredJson } from '../../storage/sqlite/repos/step-json';
import { packStepAhead, type PackedStep } from '../tool-calls/step-texts';
import { sizeOf, type Bytes } from './bytes';
import { readLines } from './lines';

/** A unit smaller than this is read where it is written: a second thread costs more to start than it saves. */
export const READ_AHEAD_MIN_BYTES = 4 * 1024 * 1024;
/** Batches the reader may be ahead of the writer (each at most ~1 MiB of transcript). */
export const READ_AHEAD_WINDOW = 4;
const MAX_BATCH_ITEMS = 1_000;
/** The writer's backlog (batches sent, not yet taken) from which the reader packs steps ahead. */
const PACK_FROM_BACKLOG = 2;

/** Items that came out under one meta, each with its step packed ahead (tool calls) or null. */
export interface ReadGroup {
  readonly meta: TranscriptMeta;
  readonly items: readonly TranscriptItem[];
  readonly ahead: readonly (PackedStep | null)[];
}

export interface ReadBatch {
  readonly groups: readonly ReadGroup[];
  /** Bytes of the unit read so far. */
  readonly bytesRead: number;
}

export interface ReadEnd {
  readonly meta: TranscriptMeta;
  readonly stats: TranscriptStats;
  readonly problems: readonly TranscriptProblem[];
}

/** One unit being read elsewhere. */
export interface UnitReading {
  /** The next batch; null after the last one (`end` then says how the parse ended). */
  next(): Promise<ReadBatch | null>;
  end(): ReadEnd;
  /** Stops the reader (at the end, or when the import stops early). */
  close(): void;
}

export interface ReadAheadUnit {
  readonly data: Bytes;
  readonly format: TranscriptFormatId;
  readonly maxStepJsonChars: number;
}

/** Starts reading a line unit elsewhere, or null: read it here. */
export type ReadAhead = (unit: ReadAheadUnit) => UnitReading | null;

/** The reader could not start: nothing was read, and the unit is read here instead. */
export class ReadAheadUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadAheadUnavailable';
  }
}

/** A worker or a MessagePort, as both sides use it. */
export interface ReaderPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
}

/** The reader's thread as the writer holds it. */
export interface ReaderThread {
  readonly port: ReaderPort;
  /** Calls `listener` when the thread could not start or died (a worker's `error` event). */
  onFailure(listener: (message: string) => void): void;
  terminate(): void;
}

type ToReader =
  | ({ readonly type: 'start' } & ReadAheadUnit)
  /** The writer took a batch: the reader may send one more. */
  | { readonly type: 'ack' };

/** A group on the wire: `meta` only when it changed since the reader last sent one. */
interface WireGroup {
  meta?: TranscriptMeta;
  readonly items: TranscriptItem[];
  readonly ahead: (PackedStep | null)[];
}

type FromReader =
  | { readonly type: 'batch'; readonly groups: WireGroup[]; readonly bytesRead: number }
  | ({ readonly type: 'end' } & ReadEnd)
  | {
      readonly type: 'error';
      readonly code: ErrorCode | null;
      readonly name: string;
      readonly message: string;
      readonly details?: Record<string, unknown>;
    };

/**
 * The reader's side: answers one `start` on `port` (the line reader worker's whole job). `pack`: how a step is
 * packed — native zlib by default (no fflate state left to this thread's collector: `packJsonNative`); a test that
 * compares stored bytes with a read on one thread passes `packJson`.
 */
export function serveReadAhead(
  port: ReaderPort,
  options: {
    readonly pack?: (text: string) => StoredJson | Promise<StoredJson>;
    /** Pack while at least this many batches wait for the writer (PACK_FROM_BACKLOG; 0: always). */
    readonly packFromBacklog?: number;
  } = {},
): void {
  const pack = options.pack ?? packJsonNative;
  const packFrom = options.packFromBacklog ?? PACK_FROM_BACKLOG;
  let sent = 0;
  let acked = 0;
  let wake: (() => void) | null = null;
  let started = false;
  port.onmessage = (event: MessageEvent) => {
    const message = event.data as ToReader;
    if (message.type === 'ack') {
      acked++;
      wake?.();
    } else if (message.type === 'start' && !started) {
      started = true;
      const send = (m: FromReader, transfer: Transferable[] = []) => port.postMessage(m, transfer);
      const roomToSend = async () => {
        while (sent - acked >= READ_AHEAD_WINDOW) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      };
      const packNow = () => sent - acked >= packFrom;
      readUnit(message, pack, packNow, async (batch, transfer) => {
        await roomToSend();
        sent++;
        send(batch, transfer);
      }).then(
        (end) => send({ type: 'end', ...end }),
        (error: unknown) => send(errorMessage(error)),
      );
    }
  };
}

function errorMessage(error: unknown): FromReader {
  if (error instanceof BrainError)
    return {
      type: 'error',
      code: error.code,
      name: error.name,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    };
  const e = error instanceof Error ? error : new Error(String(error));
  return { type: 'error', code: null, name: e.name, message: e.message };
}

async function readUnit(
  unit: ReadAheadUnit,
  pack: (text: string) => StoredJson | Promise<StoredJson>,
  packNow: () => boolean,
  ship: (batch: FromReader & { type: 'batch' }, transfer: Transferable[]) => Promise<void>,
): Promise<ReadEnd> {
  const format = formatById(unit.format);
  if (format.shape !== 'lines') throw new BrainError('Internal', `${unit.format} is not read line by line.`);
  const parser = format.createParser();
  let groups: WireGroup[] = [];
  let group: WireGroup | null = null;
  let count = 0;
  let sentMeta = '';
  let bytesRead = 0;
  let transfer: Transferable[] = [];
  const take = async (items: readonly TranscriptItem[]) => {
    if (items.length === 0) return;
    const meta = parser.meta();
    const json = JSON.stringify(meta);
    if (group === null || json !== sentMeta) {
      group = { items: [], ahead: [], ...(json === sentMeta ? {} : { meta }) };
      sentMeta = json;
      groups.push(group);
    }
    // The meta was read above, before any wait: the next line is pushed only once this resolves.
    const into = group;
    for (const item of items) {
      const ahead =
        item.kind === 'tool_call' && packNow()
          ? await packStepAhead(item.call, unit.maxStepJsonChars, pack)
          : null;
      if (ahead?.params) transfer.push(ahead.params.stored.buffer as ArrayBuffer);
      if (ahead?.result) transfer.push(ahead.result.stored.buffer as ArrayBuffer);
      into.items.push(item);
      into.ahead.push(ahead);
      count++;
    }
  };
  const flush = async () => {
    const batch = { type: 'batch' as const, groups, bytesRead };
    const buffers = transfer;
    groups = [];
    group = null;
    count = 0;
    transfer = [];
    await ship(batch, buffers);
  };
  const { torn } = await readLines(unit.data, {
    line: async (text, lineNo) => {
      await take(parser.push(text, lineNo));
      if (count >= MAX_BATCH_ITEMS) await flush();
    },
    ...(parser.skipBytes ? { skip: parser.skipBytes.bind(parser) } : {}),
    read: (done) => {
      bytesRead = done;
      return flush();
    },
  });
  await take(parser.finish({ torn }));
  if (count > 0) await flush();
  return { meta: parser.meta(), stats: parser.stats(), problems: parser.problems() };
}

/**
 * The writer's side: each unit of a Blob of at least `minBytes` (READ_AHEAD_MIN_BYTES) read on a thread `start`
 * gives (null: none, read here). Bytes in memory are read here: sending them would copy them.
 */
export function readAheadWith(
  start: () => ReaderThread | null,
  options: { readonly minBytes?: number } = {},
): ReadAhead {
  const minBytes = options.minBytes ?? READ_AHEAD_MIN_BYTES;
  return (unit) => {
    if (unit.data instanceof Uint8Array || sizeOf(unit.data) < minBytes) return null;
    const thread = start();
    if (thread === null) return null;
    const queue: FromReader[] = [];
    let failure: string | null = null;
    let heard = false;
    let wake: (() => void) | null = null;
    let ended: ReadEnd | null = null;
    let meta: TranscriptMeta | null = null;
    thread.port.onmessage = (event: MessageEvent) => {
      heard = true;
      queue.push(event.data as FromReader);
      wake?.();
    };
    thread.onFailure((message) => {
      failure ??= message;
      wake?.();
    });
    thread.port.postMessage({ type: 'start', ...unit } satisfies ToReader);
    return {
      async next() {
        while (queue.length === 0 && failure === null) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        const message = queue.shift();
        if (message === undefined) {
          if (!heard) throw new ReadAheadUnavailable(`The transcript reader did not start: ${failure}`);
          throw new BrainError('Internal', `The transcript reader stopped: ${failure}`);
        }
        if (message.type === 'end') {
          ended = message;
          return null;
        }
        if (message.type === 'error') {
          if (message.code !== null && errorCodes.includes(message.code))
            throw new BrainError(message.code, message.message, message.details);
          const error = new Error(message.message);
          error.name = message.name;
          throw error;
        }
        thread.port.postMessage({ type: 'ack' } satisfies ToReader);
        const groups = message.groups.map((g): ReadGroup => {
          meta = g.meta ?? meta;
          if (meta === null)
            throw new BrainError('Internal', 'The transcript reader sent items before a meta.');
          return { meta, items: g.items, ahead: g.ahead };
        });
        return { groups, bytesRead: message.bytesRead };
      },
      end() {
        if (ended === null) throw new BrainError('Internal', 'The transcript reader has not ended.');
        return ended;
      },
      close() {
        thread.terminate();
      },
    };
  };
}
