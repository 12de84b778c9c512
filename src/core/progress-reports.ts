/**
 * Progress reports of long calls (not the agent's own `progress` notes): what they count and how often they go out.
 *
 * Progress of a full VACUUM in pages, from the bytes SQLite read and wrote on the database file since it began.
 * VACUUM first reads every live page into a temporary database (in memory: temp_store = MEMORY), then writes the
 * compacted pages back (journalling the old ones on the way). Both phases touch about the live page count:
 * the pages in use before it starts (page count − free pages). Pages still in SQLite's cache are not read again,
 * so "reading" may end short of its total; the written count may differ slightly from the estimate, so `total`
 * grows to `done` rather than showing more than 100 %.
 */

export type VacuumPhase = 'reading' | 'writing';

export interface VacuumProgress {
  readonly phase: VacuumPhase;
  readonly done: number;
  readonly total: number;
}

export function vacuumProgress(
  io: { readonly mainRead: number; readonly mainWritten: number },
  file: { readonly pageSize: number; readonly pageCount: number; readonly freelistCount: number },
): VacuumProgress {
  const live = Math.max(1, file.pageCount - file.freelistCount);
  const pages = (bytes: number) => Math.floor(bytes / Math.max(1, file.pageSize));
  if (io.mainWritten === 0)
    return { phase: 'reading', done: Math.min(live, pages(io.mainRead)), total: live };
  const written = pages(io.mainWritten);
  return { phase: 'writing', done: written, total: Math.max(live, written) };
}

/**
 * Progress of importDatabase (a database file, not a transcript import) in pages: SQLite's integrity check of the
 * candidate reads every page once before anything is replaced; the rest is whole-file work (the install, and
 * reading the installed file back to compare it byte for byte) with no page I/O. So the count runs to the file's
 * pages.
 */
export function importDatabaseProgress(
  io: { readonly mainRead: number },
  file: { readonly byteLength: number; readonly pageSize: number },
): { readonly phase: 'checking'; readonly done: number; readonly total: number } {
  const pageSize = Math.max(512, file.pageSize);
  const total = Math.max(1, Math.ceil(file.byteLength / pageSize));
  return { phase: 'checking', done: Math.min(total, Math.floor(io.mainRead / pageSize)), total };
}

/** The page size an SQLite file's header states (bytes 16–17, big-endian; 1 means 65536), or null. */
export function headerPageSize(bytes: Uint8Array): number | null {
  if (bytes.byteLength < 100) return null;
  const raw = ((bytes[16] ?? 0) << 8) | (bytes[17] ?? 0);
  const size = raw === 1 ? 65536 : raw;
  return size >= 512 && (size & (size - 1)) === 0 ? size : null;
}

/**
 * Rate limit for progress reports: `due()` is true at most once per `intervalMs` (and on the first call), or
 * whenever the phase changes, so a listener sees each phase start without being flooded.
 */
export function createProgressThrottle(now: () => number, intervalMs: number) {
  let last = -Infinity;
  let lastPhase: string | null = null;
  return {
    due(phase: string): boolean {
      const t = now();
      if (phase === lastPhase && t - last < intervalMs) return false;
      last = t;
      lastPhase = phase;
      return true;
    },
  };
}
