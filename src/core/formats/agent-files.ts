/**
 * Which `.agent` file a path is, and a compact, plain-data view of its parsed content (what crosses the worker
 * boundary: no raw documents, just the typed fields and the problems).
 */
import { parseAgentLog, type AgentLogRecord } from './agent-log';
import { parseJsonl } from './jsonl';
import { parseMarkdown } from './markdown';
import { parseMemory } from './memory';
import { parsePlan, type PlanItem } from './plan';
import type { FormatProblem } from './problems';
import { parseProgress, type ProgressEntry } from './progress';
import { parseSessionSummary, type SessionSummaryContent } from './session-summary';
import { parseSkill } from './skill';

export const agentFileKinds = [
  'memory',
  'project-memory',
  'session-summary',
  'plan',
  'progress',
  'history',
  'session-log',
  'skill',
  'markdown',
  'jsonl',
  'other',
] as const;
export type AgentFileKind = (typeof agentFileKinds)[number];

/** The well-known files, relative to the project root. */
export const agentFilePaths = {
  memory: '.agent/MEMORY.md',
  projectMemory: '.agent/PROJECT_MEMORY.md',
  sessionSummary: '.agent/SESSION_SUMMARY.md',
  history: '.agent/HISTORY.jsonl',
  sessionLog: '.agent/SESSION.jsonl',
  plan: '.agent/plan/PLAN.md',
  progress: '.agent/plan/PROGRESS.md',
  skillsDir: '.agent/skills',
} as const;

const skillPath = /^\.agent\/skills\/([^/]+)\/SKILL\.md$/;

/** The skill folder name of `.agent/skills/<name>/SKILL.md`, else null. */
export function skillNameOfPath(path: string): string | null {
  return skillPath.exec(path)?.[1] ?? null;
}

export function skillFilePath(name: string): string {
  return `${agentFilePaths.skillsDir}/${name}/SKILL.md`;
}

/** The kind of a normalised project path (e.g. `.agent/plan/PLAN.md` → `plan`). */
export function agentFileKind(path: string): AgentFileKind {
  switch (path) {
    case agentFilePaths.memory:
      return 'memory';
    case agentFilePaths.projectMemory:
      return 'project-memory';
    case agentFilePaths.sessionSummary:
      return 'session-summary';
    case agentFilePaths.history:
      return 'history';
    case agentFilePaths.sessionLog:
      return 'session-log';
    case agentFilePaths.plan:
      return 'plan';
    case agentFilePaths.progress:
      return 'progress';
  }
  if (skillPath.test(path)) return 'skill';
  if (/\.(md|markdown)$/i.test(path)) return 'markdown';
  if (/\.jsonl$/i.test(path)) return 'jsonl';
  return 'other';
}

export const isJsonlKind = (kind: AgentFileKind) =>
  kind === 'history' || kind === 'session-log' || kind === 'jsonl';

/** Plain-data views, one per kind. */
export type AgentFileView =
  | {
      readonly kind: 'memory' | 'project-memory';
      readonly version: number;
      readonly title: string | null;
      readonly sections: readonly {
        readonly title: string;
        readonly line: number;
        readonly entries: readonly { readonly text: string; readonly line: number }[];
      }[];
    }
  | ({ readonly kind: 'session-summary'; readonly version: number } & SessionSummaryContent)
  | {
      readonly kind: 'plan';
      readonly version: number;
      readonly title: string | null;
      readonly goal: string | null;
      readonly items: readonly PlanItem[];
    }
  | { readonly kind: 'progress'; readonly version: number; readonly entries: readonly ProgressEntry[] }
  | {
      readonly kind: 'history' | 'session-log';
      readonly records: readonly { readonly line: number; readonly record: AgentLogRecord }[];
      readonly torn: boolean;
    }
  | {
      readonly kind: 'skill';
      readonly name: string;
      readonly description: string;
      readonly license: string | null;
      readonly compatibility: string | null;
      readonly metadata: Readonly<Record<string, string>>;
      readonly allowedTools: string | null;
    }
  | {
      readonly kind: 'markdown';
      readonly headings: readonly { readonly level: number; readonly title: string; readonly line: number }[];
    }
  | { readonly kind: 'jsonl'; readonly values: number; readonly torn: boolean }
  | { readonly kind: 'other' };

export interface InspectedFile {
  readonly view: AgentFileView;
  readonly problems: readonly FormatProblem[];
}

/** Parses `text` as the file at `path` says it is. Never throws on content: problems say what is wrong. */
export function inspectAgentFile(path: string, text: string): InspectedFile {
  const kind = agentFileKind(path);
  switch (kind) {
    case 'memory':
    case 'project-memory': {
      const m = parseMemory(text, path.slice(path.lastIndexOf('/') + 1));
      const sections = m.sections.map((s) => ({ title: s.title, line: s.line, entries: s.entries }));
      return { view: { kind, version: m.version, title: m.title, sections }, problems: m.problems };
    }
    case 'session-summary': {
      const { document: _d, problems, otherSections: _o, ...content } = parseSessionSummary(text);
      return { view: { kind, ...content }, problems };
    }
    case 'plan': {
      const p = parsePlan(text);
      return {
        view: { kind, version: p.version, title: p.title, goal: p.goal, items: p.items },
        problems: p.problems,
      };
    }
    case 'progress': {
      const p = parseProgress(text);
      return { view: { kind, version: p.version, entries: p.entries }, problems: p.problems };
    }
    case 'history':
    case 'session-log': {
      const log = parseAgentLog(text);
      return { view: { kind, records: log.entries, torn: log.document.torn }, problems: log.problems };
    }
    case 'skill': {
      const s = parseSkill(text, skillNameOfPath(path) ?? undefined);
      const { name, description, license, compatibility, metadata, allowedTools } = s;
      return {
        view: { kind, name, description, license, compatibility, metadata, allowedTools },
        problems: s.problems,
      };
    }
    case 'markdown': {
      const doc = parseMarkdown(text);
      return {
        view: { kind, headings: doc.sections.map(({ level, title, line }) => ({ level, title, line })) },
        problems: doc.problems,
      };
    }
    case 'jsonl': {
      const doc = parseJsonl(text);
      return {
        view: { kind, values: doc.lines.filter((l) => l.value !== undefined).length, torn: doc.torn },
        problems: doc.problems,
      };
    }
    case 'other':
      return { view: { kind }, problems: [] };
  }
}

/** Other agents' memory conventions, recognised read-only. */
export const otherAgentConventions = {
  'claude-md': { agent: 'Claude Code', role: 'project memory' },
  'agents-md': { agent: 'Codex and other AGENTS.md agents', role: 'instructions' },
  'claude-skill': { agent: 'Claude Code', role: 'skill' },
  'memory-bank': { agent: 'Cline', role: 'memory bank' },
  clinerules: { agent: 'Cline', role: 'rules' },
  'cursor-rule': { agent: 'Cursor', role: 'project rule' },
  cursorrules: { agent: 'Cursor', role: 'rules (legacy .cursorrules)' },
  windsurfrules: { agent: 'Windsurf', role: 'rules' },
  'gemini-md': { agent: 'Gemini CLI', role: 'context' },
  'copilot-instructions': { agent: 'GitHub Copilot', role: 'instructions' },
} as const satisfies Record<string, { readonly agent: string; readonly role: string }>;
export type OtherAgentConvention = keyof typeof otherAgentConventions;

/** Files of other agents at fixed paths, path → convention. */
export const otherAgentRootFiles: Readonly<Record<string, OtherAgentConvention>> = {
  'CLAUDE.md': 'claude-md',
  'AGENTS.md': 'agents-md',
  'GEMINI.md': 'gemini-md',
  '.clinerules': 'clinerules',
  '.cursorrules': 'cursorrules',
  '.windsurfrules': 'windsurfrules',
  '.github/copilot-instructions.md': 'copilot-instructions',
};

/** The folders holding other agents' files, and whether their files sit at any depth below. */
export const otherAgentFolders: readonly { readonly dir: string; readonly recursive: boolean }[] = [
  { dir: 'memory-bank', recursive: false },
  { dir: '.claude/skills', recursive: true },
  // Cline reads every file of the folder, sub-folders included (a file named .clinerules is the other form).
  { dir: '.clinerules', recursive: true },
  { dir: '.cursor/rules', recursive: true },
];

/** Which other agent's convention a normalised project path belongs to, else null. */
export function otherAgentConvention(path: string): OtherAgentConvention | null {
  if (Object.hasOwn(otherAgentRootFiles, path)) return otherAgentRootFiles[path] as OtherAgentConvention;
  if (/^\.claude\/skills\/[^/]+\/SKILL\.md$/.test(path)) return 'claude-skill';
  if (/^memory-bank\/[^/]+\.md$/.test(path)) return 'memory-bank';
  // Hidden files (.DS_Store and the like) are not rules.
  if (/^\.clinerules\/(?:[^/.][^/]*\/)*[^/.][^/]*$/.test(path)) return 'clinerules';
  if (/^\.cursor\/rules\/(?:[^/.][^/]*\/)*[^/.][^/]*\.mdc$/.test(path)) return 'cursor-rule';
  return null;
}
