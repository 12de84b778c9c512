/**
 * Every transcript format the importers read, with its sniff: the engine detects a file's format from its name and
 * first bytes (`detectFormat`), never from the name alone, and refuses a file no format claims, naming these.
 * Three shapes: `lines` (JSONL, streamed line by line into a `LineParser`), `document` (one JSON per file, parsed
 * whole) and `folder` (a folder of JSON files that make one session: Cline/Roo tasks, OpenHands conversations).
 */
import { createClaudeCodeParser } from './claude-code';
import { parseClineTask } from './cline';
import { createCodexParser } from './codex';
import { createGeminiLineParser, parseGeminiChatJson, sniffGeminiChatJson, sniffGeminiJsonl } from './gemini';
import {
  parseOpenHandsConversation,
  parseOpenHandsTrajectory,
  sniffOpenHandsTrajectory,
  type NamedText,
} from './openhands';
import {
  parseMiniSweAgentTrajectory,
  parseSweAgentTrajectory,
  sniffMiniSweAgentTrajectory,
  sniffSweAgentTrajectory,
} from './swe-agent';
import { sniffClaudeCode } from './claude-code/sniff';
import { sniffClineTaskFile } from './cline/sniff';
import { sniffCodex } from './codex/sniff';
import { sniffOpenHandsFile } from './openhands/sniff';
import { BrainError } from '../errors';
import type { LineParser, ParsedTranscript, Sniff } from './types';

export type TranscriptFormatId =
  | 'claude-code'
  | 'codex'
  | 'gemini-jsonl'
  | 'gemini-json'
  | 'cline'
  | 'openhands'
  | 'openhands-trajectory'
  | 'swe-agent'
  | 'mini-swe-agent';

interface FormatCommon {
  readonly id: TranscriptFormatId;
  /** What a person calls it: "Claude Code session (.jsonl)". */
  readonly label: string;
  readonly sniff: Sniff;
}

export interface LineFormat extends FormatCommon {
  readonly shape: 'lines';
  readonly createParser: () => LineParser;
}

export interface DocumentFormat extends FormatCommon {
  readonly shape: 'document';
  /** `name`: the file's name (some formats take the session id from it). */
  readonly parse: (text: string, name: string) => ParsedTranscript;
}

export interface FolderFormat extends FormatCommon {
  readonly shape: 'folder';
  /** `files`: the folder's files, named relative to it; `folder`: the folder's own name. */
  readonly parse: (files: readonly NamedText[], folder: string) => ParsedTranscript;
}

export type TranscriptFormat = LineFormat | DocumentFormat | FolderFormat;

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function clineFiles(files: readonly NamedText[]) {
  const byName = new Map(files.map((f) => [baseName(f.name), f.text]));
  return {
    apiConversationHistory: byName.get('api_conversation_history.json'),
    uiMessages: byName.get('ui_messages.json'),
    taskMetadata: byName.get('task_metadata.json'),
  };
}

/** In order of preference when two formats are equally sure. */
export const transcriptFormats: readonly TranscriptFormat[] = [
  {
    id: 'claude-code',
    label: 'Claude Code session (.jsonl)',
    shape: 'lines',
    sniff: sniffClaudeCode,
    createParser: () => createClaudeCodeParser(),
  },
  {
    id: 'codex',
    label: 'Codex CLI rollout (.jsonl)',
    shape: 'lines',
    sniff: sniffCodex,
    createParser: () => createCodexParser(),
  },
  {
    id: 'gemini-jsonl',
    label: 'Gemini CLI chat (.jsonl)',
    shape: 'lines',
    sniff: sniffGeminiJsonl,
    createParser: () => createGeminiLineParser(),
  },
  {
    id: 'gemini-json',
    label: 'Gemini CLI chat (.json)',
    shape: 'document',
    sniff: sniffGeminiChatJson,
    parse: (text) => parseGeminiChatJson(text),
  },
  {
    id: 'swe-agent',
    label: 'SWE-agent trajectory (.traj)',
    shape: 'document',
    sniff: sniffSweAgentTrajectory,
    parse: (text, name) => parseSweAgentTrajectory(text, { name: baseName(name) }),
  },
  {
    id: 'mini-swe-agent',
    label: 'mini-swe-agent trajectory (.traj.json)',
    shape: 'document',
    sniff: sniffMiniSweAgentTrajectory,
    parse: (text, name) => parseMiniSweAgentTrajectory(text, { name: baseName(name) }),
  },
  {
    id: 'cline',
    label: 'Cline / Roo Code task folder',
    shape: 'folder',
    sniff: sniffClineTaskFile,
    parse: (files, folder) => parseClineTask(clineFiles(files), { taskId: folder }),
  },
  {
    id: 'openhands',
    label: 'OpenHands conversation folder',
    shape: 'folder',
    sniff: sniffOpenHandsFile,
    parse: (files) => parseOpenHandsConversation(files),
  },
  {
    id: 'openhands-trajectory',
    label: 'OpenHands trajectory (.json)',
    shape: 'document',
    sniff: sniffOpenHandsTrajectory,
    parse: (text, name) => parseOpenHandsTrajectory(text, name),
  },
];

/** The formats' labels, for a refusal that says what can be opened. */
export const knownFormatLabels: readonly string[] = transcriptFormats.map((f) => f.label);

/**
 * The format surest that `name` (a path, `/`-separated) with first bytes `head` (≤ 64 KiB) is its own; a tie goes
 * to the earlier format. Null when none says more than 0.
 */
export function detectFormat(name: string, head: string): TranscriptFormat | null {
  let best: TranscriptFormat | null = null;
  let bestScore = 0;
  for (const format of transcriptFormats) {
    const score = format.sniff(name, head);
    if (score > bestScore) {
      best = format;
      bestScore = score;
    }
  }
  return best;
}

export function formatById(id: TranscriptFormatId): TranscriptFormat {
  const format = transcriptFormats.find((f) => f.id === id);
  if (!format) throw new BrainError('Internal', `No transcript format ${id}.`);
  return format;
}
