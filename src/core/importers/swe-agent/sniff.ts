/**
 * SWE-agent and mini-swe-agent trajectories by name and first bytes. Both are pretty-printed JSON
 * (`json.dumps(data, indent=2)`): SWE-agent's opens with `"trajectory": [` and its steps hold `"action"` and
 * `"observation"`; mini-swe-agent's opens with `"info"` and says `"trajectory_format": "mini-swe-agent-…"`
 * (at the end of the file), and its `info` opens with `model_stats`.
 */
import type { Sniff } from '../types';

export const sniffSweAgentTrajectory: Sniff = (name, head) => {
  const text = head.slice(0, 16384);
  // OpenHands' trajectory API answers `{"trajectory": [` too, with events (`{"id": 0, "timestamp": …`), not steps.
  if (/^\{"trajectory":\[\{"id":\d+,"timestamp":/.test(text.slice(0, 400).replace(/\s+/g, ''))) return 0;
  if (/^\s*\{\s*"trajectory":\s*\[/.test(text) && text.includes('"observation"') && text.includes('"action"'))
    return 2;
  if (/^\s*\{\s*"(?:attempts|trajectory)"/.test(text) && /\.traj$/.test(name)) return 2;
  return /\.traj$/.test(name) && text.trimStart().startsWith('{') ? 1 : 0;
};

export const sniffMiniSweAgentTrajectory: Sniff = (name, head) => {
  const text = head.slice(0, 16384);
  if (
    /"trajectory_format":\s*"mini-swe-agent-/.test(text) ||
    (text.includes('"mini_version"') && text.includes('"messages"'))
  )
    return 2;
  // `info` comes first and opens with `model_stats`; the run's config (long templates) follows, so the version
  // and the messages may lie past the head.
  if (/^\{"info":\{"model_stats":\{"instance_cost":/.test(text.slice(0, 400).replace(/\s+/g, ''))) return 2;
  // The first releases wrote only the messages: `[{"role": "system", "content": …}, …]`.
  if (/\.traj\.json$/.test(name) && /^\[\s*\{\s*"role":\s*"system"/.test(text.trimStart())) return 2;
  return /\.traj\.json$/.test(name) && text.trimStart().startsWith('{') ? 1 : 0;
};
