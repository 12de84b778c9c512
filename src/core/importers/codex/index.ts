/**
 * Codex CLI rollout JSONL (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`): the streaming parser and the
 * sniff. See ../README.md.
 */
export { createCodexParser } from './parser';
export { sniffCodex } from './sniff';
export type { CodexParserOptions, CodexThreadOption } from './state';
