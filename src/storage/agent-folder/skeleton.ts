/**
 * A new `.agent` folder, offered when a project has none: starter memory files and the plan and skills folders.
 * Existing files are never overwritten (each is created only if absent).
 */
import { agentFilePaths } from '../../core/formats/agent-files';
import { agentDir } from '../../core/paths';
import type { AgentFolder } from './folder';
import { encodeText } from './text';

export const agentFolderStarterFiles: Readonly<Record<string, string>> = {
  [agentFilePaths.memory]: `# Memory

What the agent keeps across sessions: your preferences, standing instructions, lessons learned.

## Preferences

## Standing instructions

## Lessons
`,
  [agentFilePaths.projectMemory]: `---
version: 1
---

# Project memory

Facts about this project the agent should not have to rediscover.

## Architecture

## Commands

## Conventions

## Pitfalls
`,
};

/** Creates `.agent/` with its starter files and folders; returns the paths it created. */
export async function createAgentSkeleton(folder: AgentFolder): Promise<string[]> {
  const created: string[] = [];
  if ((await folder.kindOf(agentDir)) === null) created.push(agentDir);
  await folder.makeDirectory(agentDir);
  for (const [path, text] of Object.entries(agentFolderStarterFiles)) {
    if ((await folder.kindOf(path)) !== null) continue;
    await folder.write(path, encodeText(text), { expectedVersion: null });
    created.push(path);
  }
  for (const dir of [`${agentDir}/plan`, agentFilePaths.skillsDir]) {
    if ((await folder.kindOf(dir)) === null) {
      await folder.makeDirectory(dir);
      created.push(dir);
    }
  }
  return created;
}
