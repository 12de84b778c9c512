/** Units that fed one session (a Claude Code session and its subagent files) reported as one session. */
import type { ImportedCounts, ImportedSession } from '../../core/api/importers';
import type { TranscriptStats } from '../../core/importers/types';

const addCounts = (a: ImportedCounts, b: ImportedCounts): ImportedCounts => {
  const sum: Record<keyof ImportedCounts, number> = { ...a };
  for (const k of Object.keys(a) as (keyof ImportedCounts)[]) sum[k] = a[k] + b[k];
  return sum;
};

const addTally = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) => {
  const out: Record<string, number> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
  return out;
};

const addStats = (a: TranscriptStats, b: TranscriptStats): TranscriptStats => ({
  records: a.records + b.records,
  skipped: addTally(a.skipped, b.skipped),
  unknown: addTally(a.unknown, b.unknown),
  malformed: a.malformed + b.malformed,
  duplicates: a.duplicates + b.duplicates,
  tornLastLine: a.tornLastLine || b.tornLastLine,
});

export function mergeSessions(sessions: readonly ImportedSession[]): ImportedSession[] {
  const bySession = new Map<number, ImportedSession>();
  for (const s of sessions) {
    const seen = bySession.get(s.sessionId);
    if (!seen) {
      bySession.set(s.sessionId, s);
      continue;
    }
    bySession.set(s.sessionId, {
      ...seen,
      title: s.title,
      files: [...seen.files, ...s.files],
      added: addCounts(seen.added, s.added),
      alreadyImported: seen.alreadyImported + s.alreadyImported,
      stats: addStats(seen.stats, s.stats),
      problems: [
        ...seen.problems,
        ...s.problems.map((p) => (p.file === undefined ? { ...p, file: s.files[0] as string } : p)),
      ],
    });
  }
  return [...bySession.values()];
}
