/**
 * What the recorder knows of a file before a call: whether the session recorded the path before, and its last
 * body — the after side of the checkpoint entry of its latest change, when that change had one, else the body the
 * recorder remembers for exactly that change (`BodyMemory`: a heredoc's text of a file whose earlier body is not
 * known has no entry, yet the `sed -i` that follows can be replayed on it). A batch keeps what it learns in memory
 * (the DB agrees with it at commit), so a replay of a whole session reads each path once.
 */
import type { SessionId } from '../../core/ids';
import { asCheckpointEntryId } from '../../core/ids';
import type { Body } from '../../core/tool-calls/file-changes';
import { bytesToText } from '../../storage/blobs/text';
import type { CheckpointsRepo } from '../../storage/sqlite/repos/checkpoints-repo';
import type { createEventsRepo } from '../../storage/sqlite/repos/events-repo';

type EventsRepo = ReturnType<typeof createEventsRepo>;

interface Known {
  readonly seen: boolean;
  /** undefined: not known. */
  readonly body: Body | undefined;
  /** The latest change has a checkpoint entry. */
  readonly entry: boolean;
}

/**
 * Bodies of recent changes that have no checkpoint entry, by session and path, each valid only for the change
 * (event id) it was the after-body of. Bounded (least recently used out past `maxBytes`); lost on restart, when
 * the body is simply not known.
 */
export function createBodyMemory(maxBytes = 32 * 1024 * 1024) {
  const bodies = new Map<string, { eventId: number; body: Body; bytes: number }>();
  let total = 0;
  const sizeOf = (body: Body) =>
    body === null ? 0 : typeof body === 'string' ? body.length * 2 : body.length;
  return {
    get(key: string, eventId: number): Body | undefined {
      const hit = bodies.get(key);
      if (!hit || hit.eventId !== eventId) return undefined;
      bodies.delete(key);
      bodies.set(key, hit);
      return hit.body;
    },
    set(key: string, eventId: number, body: Body) {
      const old = bodies.get(key);
      if (old) total -= old.bytes;
      bodies.delete(key);
      const bytes = sizeOf(body);
      if (bytes > maxBytes / 4) return;
      bodies.set(key, { eventId, body, bytes });
      total += bytes;
      for (const [k, v] of bodies) {
        if (total <= maxBytes) break;
        bodies.delete(k);
        total -= v.bytes;
      }
    },
  };
}

export type BodyMemory = ReturnType<typeof createBodyMemory>;

export const bodyKey = (sessionId: SessionId, path: string) => `${sessionId}\u0000${path}`;

export function createBodyKnowledge(events: EventsRepo, checkpoints: CheckpointsRepo, memory: BodyMemory) {
  const cache = new Map<string, Known>();
  const key = bodyKey;

  async function lookup(sessionId: SessionId, path: string): Promise<Known> {
    const latest = await events.latestChangeOf(sessionId, path);
    if (!latest) return { seen: false, body: undefined, entry: false };
    const entry = latest.checkpointEntryId !== null;
    if (latest.change === 'deleted') return { seen: true, body: null, entry };
    if (latest.checkpointEntryId === null)
      return { seen: true, body: memory.get(key(sessionId, path), latest.id), entry };
    try {
      const { record, after } = await checkpoints.readBodies(asCheckpointEntryId(latest.checkpointEntryId));
      const kind = record.after.kind;
      if (kind === 'absent') return { seen: true, body: null, entry };
      if (after === null) return { seen: true, body: undefined, entry };
      return { seen: true, body: kind === 'bytes' ? after : (bytesToText(after) ?? undefined), entry };
    } catch {
      // Removed by cleanup, or damaged: the body is not known (the next edit is recorded without it).
      return { seen: true, body: undefined, entry: false };
    }
  }

  const children = new Map<string, string[]>();

  return {
    /** Loads the files the session recorded under each directory, and what is known of them. */
    async loadUnder(sessionId: SessionId, dirs: readonly string[]) {
      for (const dir of dirs) {
        const prefix = dir === '.' ? '' : `${dir.replace(/\/+$/, '')}/`;
        const paths = new Set(await events.pathsUnder(sessionId, prefix));
        for (const k of cache.keys()) {
          const [s, path] = k.split('\u0000') as [string, string];
          if (Number(s) === sessionId && path.startsWith(prefix)) paths.add(path);
        }
        children.set(key(sessionId, dir), [...paths]);
        await this.load(sessionId, [...paths]);
      }
    },
    under: (sessionId: SessionId, dir: string) => children.get(key(sessionId, dir)) ?? [],
    /** Loads what is known of `paths` (each once per batch). */
    async load(sessionId: SessionId, paths: readonly string[]) {
      for (const path of paths) {
        const k = key(sessionId, path);
        if (!cache.has(k)) cache.set(k, await lookup(sessionId, path));
      }
    },
    body: (sessionId: SessionId, path: string) => cache.get(key(sessionId, path))?.body,
    seen: (sessionId: SessionId, path: string) => cache.get(key(sessionId, path))?.seen ?? false,
    hasEntry: (sessionId: SessionId, path: string) => cache.get(key(sessionId, path))?.entry ?? false,
    /** After a change is planned: what the file now is, and whether its change got a checkpoint entry. */
    set(sessionId: SessionId, path: string, body: Body | undefined, entry: boolean) {
      cache.set(key(sessionId, path), { seen: true, body, entry });
    },
  };
}

export type BodyKnowledge = ReturnType<typeof createBodyKnowledge>;
