/**
 * The `.agent` files of a project folder, read as text and parsed: listing with per-file problems (a bad file is
 * reported, never fatal to the listing), reading with its version and typed view, skills, and other agents'
 * memory. Pure format work happens in core/formats; this module adds bytes, sizes and versions.
 */
import { BrainError, isBrainError } from '../../core/errors';
import {
  agentFileKind,
  agentFilePaths,
  inspectAgentFile,
  isJsonlKind,
  otherAgentConvention,
  otherAgentConventions,
  otherAgentFolders,
  otherAgentRootFiles,
  parseSkill,
  problem,
  skillFilePath,
  type AgentFileKind,
  type FormatProblem,
} from '../../core/formats';
import { agentDir, normaliseProjectPath, type ProjectPath } from '../../core/paths';
import type {
  AgentFileContent,
  AgentFileSummary,
  OtherAgentFile,
  ProjectInfo,
  SkillSummary,
} from '../../core/api/project';
import type { AgentFolder } from './folder';
import { decodeText } from './text';

export type AgentFolderState = ProjectInfo['agentFolder'];

export async function agentFolderState(folder: AgentFolder): Promise<AgentFolderState> {
  const kind = await folder.kindOf(agentDir);
  return kind === 'directory' ? 'present' : kind === 'file' ? 'not-a-directory' : 'missing';
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** Problems of one file without throwing: unreadable bytes and oversize files become problems too. */
async function summarise(
  folder: AgentFolder,
  path: ProjectPath,
  kind: AgentFileKind,
): Promise<AgentFileSummary | null> {
  const info = await folder.stat(path);
  if (!info) return null;
  if (info.size > folder.limits.maxReadBytes) {
    const problems: FormatProblem[] = [
      problem(
        'TooLarge',
        'warning',
        `${mib(info.size)}: too large to check whole; ${isJsonlKind(kind) ? 'its tail can be read' : 'it is not loaded'}.`,
      ),
    ];
    if (isJsonlKind(kind) && info.size > 0) {
      const { bytes } = await folder.readRange(path, info.size - 1, info.size);
      if (bytes[0] !== 10 && bytes[0] !== 13)
        problems.push(
          problem('TornLine', 'error', 'The last line was cut short mid-write; the next append repairs it.'),
        );
    }
    return { ...info, kind, version: null, problems };
  }
  try {
    const read = await folder.read(path);
    const text = decodeText(read.bytes, path);
    return { ...info, kind, version: read.version, problems: inspectAgentFile(path, text).problems };
  } catch (error) {
    if (isBrainError(error, 'InvalidUtf8')) {
      return {
        ...info,
        kind,
        version: await folder.version(path),
        problems: [problem('InvalidUtf8', 'error', error.message)],
      };
    }
    throw error;
  }
}

/** Every file under `.agent/`, sorted, each with its problems; an empty list when there is no `.agent` folder. */
export async function listAgentFiles(folder: AgentFolder): Promise<AgentFileSummary[]> {
  if ((await agentFolderState(folder)) !== 'present') return [];
  const entries = await folder.list(agentDir, { recursive: true });
  const out: AgentFileSummary[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    const kind = agentFileKind(entry.path);
    const summary = await summarise(folder, entry.path, kind);
    if (!summary) continue;
    const expectedDir = entry.path === `${agentDir}/plan` || entry.path === agentFilePaths.skillsDir;
    out.push(
      expectedDir
        ? {
            ...summary,
            problems: [
              problem('NotADirectory', 'error', `"${entry.path}" is a file; a folder is expected here.`),
              ...summary.problems,
            ],
          }
        : summary,
    );
  }
  return out;
}

/** A text file with its version, kind, typed view and problems. `InvalidUtf8`, `TooLarge`, `NotFound` throw. */
export async function readTextFile(folder: AgentFolder, input: string): Promise<AgentFileContent> {
  const path = normaliseProjectPath(input);
  const read = await folder.read(path);
  const text = decodeText(read.bytes, path);
  const { view, problems } = inspectAgentFile(path, text);
  return {
    path,
    size: read.size,
    lastModified: read.lastModified,
    kind: agentFileKind(path),
    text,
    version: read.version,
    problems,
    view,
  };
}

async function skillsUnder(
  folder: AgentFolder,
  dir: string,
  pathOf: (name: string) => string,
): Promise<SkillSummary[]> {
  if ((await folder.kindOf(dir)) !== 'directory') return [];
  const out: SkillSummary[] = [];
  for (const entry of await folder.list(dir)) {
    if (entry.kind !== 'directory') continue;
    const name = entry.path.slice(dir.length + 1);
    const path = normaliseProjectPath(pathOf(name));
    try {
      const file = await folder.read(path);
      const skill = parseSkill(decodeText(file.bytes, path), name);
      out.push({
        name,
        path,
        description: skill.description,
        version: file.version,
        problems: skill.problems,
      });
    } catch (error) {
      if (
        !(error instanceof BrainError) ||
        !['NotFound', 'InvalidUtf8', 'TooLarge', 'NotADirectory'].includes(error.code)
      )
        throw error;
      const code =
        error.code === 'NotFound'
          ? 'MissingField'
          : error.code === 'NotADirectory'
            ? 'NotADirectory'
            : error.code;
      const message =
        error.code === 'NotFound' ? `The skill folder "${name}" has no SKILL.md.` : error.message;
      out.push({
        name,
        path,
        description: '',
        version: null,
        problems: [problem(code as FormatProblem['code'], 'error', message)],
      });
    }
  }
  return out;
}

export function listSkills(folder: AgentFolder): Promise<SkillSummary[]> {
  return skillsUnder(folder, agentFilePaths.skillsDir, skillFilePath);
}

/**
 * Other agents' files (core/formats `otherAgentConvention`: CLAUDE.md, AGENTS.md, GEMINI.md, `.clinerules` file or
 * folder, `.cursor/rules/**\/*.mdc`, `.cursorrules`, `.windsurfrules`, `.github/copilot-instructions.md`,
 * `.claude/skills`, `memory-bank/`): found, checked and named with their agent, never written.
 */
export async function listOtherAgentMemory(folder: AgentFolder): Promise<OtherAgentFile[]> {
  const candidates: string[] = Object.keys(otherAgentRootFiles);
  for (const { dir, recursive } of otherAgentFolders) {
    if ((await folder.kindOf(dir)) !== 'directory') continue;
    for (const entry of await folder.list(dir, { recursive })) {
      if (entry.kind === 'file' && otherAgentConvention(entry.path)) candidates.push(entry.path);
    }
  }
  const out: OtherAgentFile[] = [];
  for (const candidate of candidates) {
    const path = normaliseProjectPath(candidate);
    const convention = otherAgentConvention(path);
    if (!convention || (await folder.kindOf(path)) !== 'file') continue;
    const summary = await summarise(folder, path, 'markdown');
    if (!summary) continue;
    let problems = summary.problems;
    if (convention === 'claude-skill' && summary.version !== null && problems.length === 0) {
      const read = await folder.read(path);
      problems = parseSkill(decodeText(read.bytes, path), path.split('/')[2]).problems;
    }
    out.push({
      path,
      size: summary.size,
      lastModified: summary.lastModified,
      convention,
      ...otherAgentConventions[convention],
      version: summary.version,
      problems,
    });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}
