/**
 * `.agent/HISTORY.jsonl` and `.agent/SESSION.jsonl`: JSON Lines of records sharing one small envelope —
 * `{ "v": 1, "ts": <epoch ms>, "kind": "<what happened>", …fields }`. Which kinds exist and what they carry is
 * the session-events feature's business; this module only reads and checks the envelope. A line with valid JSON
 * but no usable envelope is reported (`InvalidRecord`) and kept verbatim, like a malformed one.
 */
import type { Json } from '../model';
import { parseJsonl, type JsonlDocument, type ParseJsonlOptions } from './jsonl';
import { problem, type FormatProblem } from './problems';

/** The envelope version this build writes; records with a higher `v` are read as far as the envelope goes. */
export const agentLogVersion = 1;

export interface AgentLogRecord {
  /** Envelope version; absent means 1. */
  readonly v?: number;
  /** When it happened, epoch ms. */
  readonly ts: number;
  /** What happened, e.g. `decision`, `file_change`, `validation` (defined by the events feature). */
  readonly kind: string;
  readonly [field: string]: Json | undefined;
}

export interface AgentLogEntry {
  readonly line: number;
  readonly record: AgentLogRecord;
}

export interface AgentLog {
  readonly document: JsonlDocument;
  /** Valid records in file order. */
  readonly entries: readonly AgentLogEntry[];
  readonly problems: readonly FormatProblem[];
}

export function isAgentLogRecord(value: unknown): value is AgentLogRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record['kind'] === 'string' &&
    record['kind'] !== '' &&
    typeof record['ts'] === 'number' &&
    Number.isFinite(record['ts']) &&
    (record['v'] === undefined || (typeof record['v'] === 'number' && Number.isInteger(record['v'])))
  );
}

export function parseAgentLog(text: string, options: ParseJsonlOptions = {}): AgentLog {
  const document = parseJsonl(text, options);
  const problems: FormatProblem[] = [...document.problems];
  const entries: AgentLogEntry[] = [];
  let newer = 0;
  let firstNewer = 0;
  for (const line of document.lines) {
    if (line.value === undefined) continue;
    if (!isAgentLogRecord(line.value)) {
      problems.push(
        problem(
          'InvalidRecord',
          'warning',
          `Line ${line.line} is JSON but not a record (it needs "ts" as epoch ms and a "kind"); it is kept as it is.`,
          line.line,
        ),
      );
      continue;
    }
    if ((line.value.v ?? 1) > agentLogVersion && newer++ === 0) firstNewer = line.line;
    entries.push({ line: line.line, record: line.value });
  }
  if (newer > 0) {
    problems.push(
      problem(
        'NewerVersion',
        'warning',
        `${newer} record(s) from line ${firstNewer} were written by a newer format (v > ${agentLogVersion}); their envelope is read, other fields are kept as they are.`,
        firstNewer,
      ),
    );
  }
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { document, entries, problems };
}

/** A record with this build's envelope: `v` first, then `ts` and `kind`, then the fields in the order given. */
export function createAgentLogRecord(
  kind: string,
  ts: number,
  fields: Readonly<Record<string, Json>> = {},
): AgentLogRecord {
  const { v: _v, ts: _ts, kind: _kind, ...rest } = fields;
  return { v: agentLogVersion, ts, kind, ...rest };
}
