/**
 * Content-addressed, verified bodies over a small row port (the SQL lives in storage/sqlite): dedupe by
 * SHA-256, per-body codec choice, delta chains bounded in depth, verified reads, and garbage collection that
 * rebases the survivors so no deletion ever breaks another body.
 */
import { BrainError } from '../../core/errors';
import { createBodyCache, type BodyCache } from './cache';
import type { RecentBodies } from './recent-bodies';
import { BodyDefect, decodeBody, encodeBody, type BodyCodec, type EncodeOptions } from './codec';
import { sha256, sameBytes, toHex } from './sha256';

export interface BodyMeta {
  readonly id: number;
  readonly hash: Uint8Array;
  readonly codec: BodyCodec;
  readonly rawSize: number;
  readonly storedSize: number;
  readonly storedCrc: number;
  readonly baseId: number | null;
  readonly depth: number;
}

export interface StoredForm {
  readonly codec: BodyCodec;
  readonly stored: Uint8Array;
  readonly storedCrc: number;
  readonly baseId: number | null;
  readonly depth: number;
}

/** What the store needs from storage. Every call runs inside the caller's transaction. */
export interface BodyRows {
  byHash(hash: Uint8Array): Promise<BodyMeta | undefined>;
  /** `id` then its bases, nearest first, at most `limit` rows (a damaged chain may loop; the limit ends it). */
  chain(id: number, limit: number): Promise<BodyMeta[]>;
  stored(ids: readonly number[]): Promise<Map<number, Uint8Array>>;
  insert(hash: Uint8Array, rawSize: number, form: StoredForm): Promise<number>;
  rewrite(id: number, form: StoredForm): Promise<void>;
  /** The newest body still referenced for `path`: the natural delta base of its next version. */
  latestForPath(path: string): Promise<BodyMeta | undefined>;
  /** Bodies that no entry references any more. */
  unreferenced(): Promise<BodyMeta[]>;
  /** Bodies outside `ids` whose base is in `ids`. */
  dependentsOutside(ids: readonly number[]): Promise<BodyMeta[]>;
  remove(ids: readonly number[]): Promise<void>;
  /** Recomputes the depth of `ids` and of every body below them from their actual chains. */
  refreshDepths(ids: readonly number[]): Promise<void>;
}

export interface BodyStoreOptions {
  /** Longest delta chain: a read applies at most this many deltas. */
  readonly maxDepth?: number;
  readonly cache?: BodyCache;
  readonly encode?: EncodeOptions;
  /** Bodies stored lately: an array given again is not hashed again. */
  readonly recent?: RecentBodies;
}

export interface CollectReport {
  readonly bodiesRemoved: number;
  /** Net: stored bytes of the removed bodies minus what rebasing their dependents added. */
  readonly storedBytesRemoved: number;
  readonly rawBytesRemoved: number;
  readonly bodiesRebased: number;
}

export const DEFAULT_MAX_DEPTH = 16;
/** Reads accept deeper chains than writes make, so lowering `maxDepth` in a later build never strands a body. */
const READ_DEPTH_LIMIT = 64;

export function createBodyStore(rows: BodyRows, options: BodyStoreOptions = {}) {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const cache = options.cache ?? createBodyCache();

  function defectError(error: BodyDefect, body: BodyMeta, label: string): BrainError {
    const details = { bodyId: body.id, defect: error.kind };
    if (error.kind === 'too-large') {
      return new BrainError(
        'TooLarge',
        `${label} cannot be read: body ${body.id} ${error.message}.`,
        details,
      );
    }
    return new BrainError(
      'CorruptBody',
      `${label} cannot be read: body ${body.id} (${body.codec}, ${body.rawSize} bytes) is damaged — ${error.message}. ` +
        'No partial content is returned; restore agent.db from an export to recover it.',
      details,
    );
  }

  /** The verified raw bytes of body `id`. `label` names what is being read in error messages. */
  async function read(id: number, label: string): Promise<Uint8Array> {
    const chain = await rows.chain(id, READ_DEPTH_LIMIT + 2);
    const head = chain[0];
    if (!head || head.id !== id)
      throw new BrainError('CorruptBody', `${label} cannot be read: its body ${id} is missing.`, {
        bodyId: id,
      });
    for (let i = 0; i < chain.length; i++) {
      const body = chain[i] as BodyMeta;
      const next = chain[i + 1];
      const linked = next ? body.baseId === next.id : body.baseId === null;
      if (!linked || (body.baseId === null) !== (body.codec !== 'delta') || i > READ_DEPTH_LIMIT) {
        throw defectError(
          new BodyDefect(`its delta chain is broken at body ${body.id}`, 'chain'),
          head,
          label,
        );
      }
    }
    // Start from the nearest body already verified in memory.
    let known = chain.findIndex((body) => cache.get(toHex(body.hash)) !== undefined);
    if (known === -1) known = chain.length;
    let raw = known < chain.length ? (cache.get(toHex((chain[known] as BodyMeta).hash)) as Uint8Array) : null;
    const stored = await rows.stored(chain.slice(0, known).map((body) => body.id));
    for (let i = known - 1; i >= 0; i--) {
      const body = chain[i] as BodyMeta;
      const bytes = stored.get(body.id);
      if (bytes === undefined)
        throw defectError(new BodyDefect('its stored bytes are missing', 'truncated'), body, label);
      try {
        raw = await decodeBody({ ...body, stored: bytes }, raw);
      } catch (error) {
        if (error instanceof BodyDefect) throw defectError(error, body, label);
        throw error;
      }
      if (!sameBytes(await sha256(raw), body.hash)) {
        throw defectError(new BodyDefect('its content does not match its SHA-256', 'hash'), body, label);
      }
      cache.put(toHex(body.hash), raw);
    }
    return raw as Uint8Array;
  }

  /** Decodes a base for a new delta; a damaged base is no reason to refuse a new body, only to store it whole. */
  async function readBase(base: BodyMeta): Promise<Uint8Array | null> {
    try {
      return await read(base.id, `delta base ${base.id}`);
    } catch (error) {
      if (error instanceof BrainError && (error.code === 'CorruptBody' || error.code === 'TooLarge'))
        return null;
      throw error;
    }
  }

  async function encodeAgainst(raw: Uint8Array, base: BodyMeta | null): Promise<StoredForm> {
    const baseRaw = base === null || base.depth >= maxDepth ? null : await readBase(base);
    const encoded = await encodeBody(raw, baseRaw, options.encode);
    const delta = encoded.codec === 'delta' && base !== null;
    return { ...encoded, baseId: delta ? base.id : null, depth: delta ? base.depth + 1 : 0 };
  }

  return {
    read,

    /**
     * Stores `raw` once; returns the id of the body with its hash (existing or new). A new body may be a delta
     * against `baseId` when given (an entry's after against its before), else against the newest body of `path`;
     * `null`: against nothing (a patch, which shares little with the file's bodies).
     */
    async put(
      raw: Uint8Array,
      path: string,
      baseId?: number | null,
    ): Promise<{ id: number; created: boolean; hash: Uint8Array }> {
      const hash = options.recent?.hashOf(raw) ?? (await sha256(raw));
      options.recent?.hashed(raw, hash);
      const existing = await rows.byHash(hash);
      if (existing) return { id: existing.id, created: false, hash };
      const base =
        baseId === null
          ? undefined
          : baseId === undefined
            ? await rows.latestForPath(path)
            : (await rows.chain(baseId, 1))[0];
      const form = await encodeAgainst(raw, base ?? null);
      const id = await rows.insert(hash, raw.length, form);
      cache.put(toHex(hash), raw);
      return { id, created: true, hash };
    },

    /**
     * Deletes every body no entry references. A referenced body whose delta base is among them is first
     * re-encoded against its nearest surviving ancestor (or stored whole, and then used as the base of its
     * siblings), so every survivor stays readable and no chain gets deeper. A survivor that cannot be decoded
     * (damaged before) keeps the bodies its chain needs instead of failing the cleanup. Run in the caller's
     * transaction.
     */
    async collect(): Promise<CollectReport> {
      const unreferenced = await rows.unreferenced();
      if (unreferenced.length === 0) {
        return { bodiesRemoved: 0, storedBytesRemoved: 0, rawBytesRemoved: 0, bodiesRebased: 0 };
      }
      const orphans = (await rows.dependentsOutside(unreferenced.map((body) => body.id))).sort(
        (a, b) => a.depth - b.depth || a.id - b.id,
      );
      // Decode every orphan first. One that cannot be decoded was already unreadable (its chain is damaged):
      // keep the chain it hangs on rather than block cleanup, so nothing readable is lost either way.
      const chains = new Map<number, BodyMeta[]>();
      const raws = new Map<number, Uint8Array>();
      const kept = new Set<number>();
      const unreferencedIds = new Set(unreferenced.map((body) => body.id));
      for (const orphan of orphans) {
        const chain = await rows.chain(orphan.id, READ_DEPTH_LIMIT + 2);
        chains.set(orphan.id, chain);
        try {
          raws.set(orphan.id, await read(orphan.id, `body ${orphan.id} (being rebased before cleanup)`));
        } catch (error) {
          if (!(error instanceof BrainError) || (error.code !== 'CorruptBody' && error.code !== 'TooLarge'))
            throw error;
          for (const body of chain.slice(1)) if (unreferencedIds.has(body.id)) kept.add(body.id);
        }
      }
      const garbage = unreferenced.filter((body) => !kept.has(body.id));
      const garbageIds = new Set(garbage.map((body) => body.id));
      const replacementByRoot = new Map<number, BodyMeta>();
      let addedStored = 0;
      let rebased = 0;
      for (const orphan of orphans) {
        const raw = raws.get(orphan.id);
        const chain = chains.get(orphan.id) as BodyMeta[];
        if (raw === undefined || !garbageIds.has(orphan.baseId as number)) continue;
        const ancestor = chain.slice(1).find((body) => !garbageIds.has(body.id));
        const root = (chain[chain.length - 1] as BodyMeta).id;
        const base = ancestor ?? replacementByRoot.get(root) ?? null;
        const form = await encodeAgainst(raw, base);
        await rows.rewrite(orphan.id, form);
        rebased++;
        addedStored += form.stored.length - orphan.storedSize;
        if (ancestor === undefined && form.depth === 0 && !replacementByRoot.has(root)) {
          replacementByRoot.set(root, { ...orphan, ...form, storedSize: form.stored.length });
        }
      }
      if (garbage.length > 0) await rows.remove([...garbageIds]);
      if (rebased > 0) await rows.refreshDepths(orphans.map((body) => body.id));
      return {
        bodiesRemoved: garbage.length,
        storedBytesRemoved: garbage.reduce((sum, body) => sum + body.storedSize, 0) - addedStored,
        rawBytesRemoved: garbage.reduce((sum, body) => sum + body.rawSize, 0),
        bodiesRebased: rebased,
      };
    },
  };
}

export type BodyStore = ReturnType<typeof createBodyStore>;
