/** What checkpoint calls accept (paths, bodies under the cap) and how stored bodies read back. */
import type { CheckpointBody } from '../../core/api/checkpoints';
import { BrainError } from '../../core/errors';
import { asCheckpointEntryId, asTaskId } from '../../core/ids';
import { requireId } from '../../core/model';
import { parseFilePatch } from '../../core/unified-patch';
import { utf8Length } from '../../core/utf8';
import type { RecentBodies } from '../../storage/blobs/recent-bodies';
import { bytesToText, looksBinary, textToBytes } from '../../storage/blobs/text';
import type { EntryRecord, NewEntrySide } from '../../storage/sqlite/repos/checkpoints-repo';

const MAX_PATH_CHARS = 4096;
/** Diffs of pathological inputs stop here rather than hold the engine for minutes. */
export const DIFF_TIMEOUT_MS = 5_000;

export const taskIdOf = (value: unknown) => asTaskId(requireId(value, 'taskId'));
export const entryIdOf = (value: unknown) => asCheckpointEntryId(requireId(value, 'entryId'));

export function prepareSide(
  value: unknown,
  what: string,
  cap: number,
  recent?: RecentBodies,
): { side: NewEntrySide; binary: boolean } {
  if (value === null) return { side: { kind: 'absent' }, binary: false };
  if (typeof value === 'string') {
    // Cheap pre-check: a string of more UTF-16 units than the cap is over it in UTF-8 too.
    const size = value.length > cap ? utf8Length(value) : -1;
    if (size > cap) return { side: { kind: 'too-large', size }, binary: false };
    const raw = recent ? recent.bytesOf(value, () => textToBytes(value, what)) : textToBytes(value, what);
    if (raw.length > cap) return { side: { kind: 'too-large', size: raw.length }, binary: false };
    return { side: { kind: 'text', raw }, binary: false };
  }
  if (value instanceof Uint8Array) {
    if (value.length > cap) return { side: { kind: 'too-large', size: value.length }, binary: true };
    // Our own copy: the caller may reuse its buffer, and the store caches what it writes.
    const raw = new Uint8Array(value);
    return { side: { kind: 'bytes', raw }, binary: looksBinary(raw) };
  }
  throw new BrainError('InvalidArgument', `${what} must be a string, a Uint8Array or null (file absent).`);
}

/**
 * A patch entry's diff: one file's unified diff with at least one hunk, at most `cap` bytes of UTF-8 (a patch over
 * the cap is refused, not recorded as too large: with no bodies there would be nothing left of the change).
 */
export function preparePatch(value: unknown, what: string, cap: number): Uint8Array {
  if (typeof value !== 'string')
    throw new BrainError('InvalidArgument', `${what} must be a unified diff text.`);
  const parsed = parseFilePatch(value);
  if (!parsed.ok)
    throw new BrainError('InvalidArgument', `${what} is not one file's unified diff: ${parsed.reason}.`);
  const raw = textToBytes(value, what);
  if (raw.length > cap)
    throw new BrainError(
      'TooLarge',
      `${what} is ${raw.length} bytes, over the ${cap}-byte cap of a checkpoint body.`,
    );
  return raw;
}

export function requirePath(value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new BrainError('InvalidArgument', 'A checkpoint path must be a non-empty string.');
  if (value.length > MAX_PATH_CHARS)
    throw new BrainError('TooLarge', `A checkpoint path is limited to ${MAX_PATH_CHARS} characters.`);
  if (value.includes('\0'))
    throw new BrainError('InvalidArgument', 'A checkpoint path cannot contain a NUL character.');
  return value;
}

export function bodyOf(
  raw: Uint8Array | null,
  kind: EntryRecord['before']['kind'],
  what: string,
): CheckpointBody {
  if (kind === 'absent') return null;
  if (raw === null) throw new BrainError('Internal', `${what} has no stored body.`);
  if (kind === 'bytes') return raw.slice();
  const text = bytesToText(raw);
  // The bytes passed their SHA-256, so they are the UTF-8 we wrote; anything else is a bug, not damage.
  if (text === null) throw new BrainError('Internal', `${what} was stored as text but is not UTF-8.`);
  return text;
}

export function notCheckpointedMessage(record: EntryRecord, cap: number): string {
  const sides = (['before', 'after'] as const).filter((side) => record[side].kind === 'too-large');
  const sizes = sides.map((side) => `${side}: ${record[side].size} bytes`).join(', ');
  return `Checkpoint entry ${record.id} (${record.path}) was not checkpointed in full: too large (${sizes}; the cap is ${cap} bytes).`;
}
