/**
 * File System Access errors arrive as DOMExceptions (and the odd TypeError); they are translated here, where
 * they enter, into BrainErrors with a message that names the file and says what to do.
 */
import { BrainError } from '../../core/errors';

export function translateFsError(error: unknown, path: string, doing: string): BrainError {
  if (error instanceof BrainError) return error;
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  const where = path === '' ? 'the project folder' : `"${path}"`;
  switch (name) {
    case 'NotFoundError':
      return new BrainError('NotFound', `${cap(where)} does not exist (while ${doing}).`, { path });
    case 'TypeMismatchError':
      return new BrainError(
        'NotADirectory',
        `${cap(where)}: a file and a folder are mixed up here (a file where a folder is expected, or the reverse) while ${doing}.`,
        { path },
      );
    case 'NotAllowedError':
    case 'SecurityError':
      return new BrainError(
        'PermissionDenied',
        `The browser did not allow ${doing} ${where}. Grant access to the project folder again (the "Allow access" button), then retry.`,
        { path },
      );
    case 'QuotaExceededError':
      return new BrainError(
        'QuotaExceeded',
        `The browser's storage is full while ${doing} ${where}. Free some space (export and delete old projects or brains) and retry.`,
        { path },
      );
    case 'NoModificationAllowedError':
    case 'InvalidStateError':
      return new BrainError(
        'Busy',
        `${cap(where)} is locked by another writer (another tab or program); retry in a moment.`,
        { path },
      );
    case 'NotReadableError':
      return new BrainError(
        'Conflict',
        `${cap(where)} changed on disk while it was being read; read it again.`,
        { path },
      );
    case 'AbortError':
      return new BrainError('Busy', `${cap(doing)} ${where} was interrupted; retry.`, { path });
    case 'TypeError':
      return new BrainError(
        'InvalidArgument',
        `${cap(where)} is not a name this folder accepts (${(error as Error).message}).`,
        { path },
      );
    default:
      return new BrainError(
        'Internal',
        `${cap(doing)} ${where} failed: ${error instanceof Error ? error.message || error.name : String(error)}`,
        { path },
      );
  }
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A failed write, translated. Chromium sometimes rejects a write over a full quota with `AbortError` rather than
 * `QuotaExceededError` — "Failed to write data to data pipe" from `write()` (the browser side gave up on the quota
 * before the page finished sending), or the swap file's `close()` aborted — and read as "interrupted, retry" that
 * would be a retry that can never succeed. So an abort is checked: against the storage estimate, and (an estimate
 * can miss the limit that refused the write) by asking for the room itself — a swap file of `bytes` for `handle`,
 * made by `truncate` (nothing is written into it) and thrown away. Refused for want of room, it is `QuotaExceeded`.
 */
export async function translateWriteFailure(
  error: unknown,
  path: string,
  doing: string,
  bytes: number,
  handle?: FileSystemFileHandle,
): Promise<BrainError> {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  if ((name === 'AbortError' || name === 'InvalidStateError') && (await noRoomFor(bytes, handle))) {
    return translateFsError(new DOMException('quota', 'QuotaExceededError'), path, doing);
  }
  return translateFsError(error, path, doing);
}

async function noRoomFor(bytes: number, handle: FileSystemFileHandle | undefined): Promise<boolean> {
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => null);
  const free = estimate?.quota !== undefined ? estimate.quota - (estimate.usage ?? 0) : null;
  if (free !== null && free < bytes + 1024 * 1024) return true;
  if (!handle) return false;
  let probe: FileSystemWritableFileStream | undefined;
  try {
    probe = await handle.createWritable({ keepExistingData: false });
    await probe.truncate(bytes);
    return false;
  } catch (probeError) {
    return probeError instanceof DOMException && probeError.name === 'QuotaExceededError';
  } finally {
    await probe?.abort().catch(() => undefined);
  }
}
