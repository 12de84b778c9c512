/**
 * Claude Code session JSONL (`~/.claude/projects/<project>/<session>.jsonl` and its `subagents/agent-*.jsonl`):
 * the streaming parser and the sniff. See ../README.md.
 */
export { createClaudeCodeParser } from './parser';
export { sniffClaudeCode } from './sniff';
export type { ClaudeCodeParserOptions, ClaudeCodeThreadOption } from './state';
