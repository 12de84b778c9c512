/**
 * SWE-agent `.traj` files (SWE-agent/SWE-agent: sweagent/types.py and `DefaultAgent.get_trajectory_data` in
 * sweagent/agent/agents.py, pinned 3ea751c0, 2026-07): one JSON document `{trajectory, history, info,
 * replay_config, environment}` (a retry agent adds `attempts`, the chosen one copied to the top). Each
 * `trajectory[]` step's `action` is the command line the agent ran (editor calls included: `str_replace_editor
 * str_replace /testbed/x.py --old_str …`) → a `bash` call with its `observation`; `thought` is the agent's text.
 * The task is the first non-demo user message of `history`; `info.submission` (the final patch) is kept as text.
 * SWE-agent writes no exit codes and no times. `line` is the step's 1-based index.
 *
 * The final patch is also recorded as the files it changed, through the classifier: the `submit` step's
 * observation is the patch; a submission no step showed (an autosubmission after an error or a cost limit: the
 * step says "Exited (autosubmitted)") comes as a call of the `submit` tool of its own (sourceId `submission`).
 */
import type { ParsedTranscript, TranscriptItem, TranscriptMeta } from '../types';
import { outcomeOfExitStatus } from '../run-end';
import {
  createTally,
  emptyMeta,
  isRecord,
  leafText,
  parseJsonCounted,
  strField,
  withSourceIds,
} from '../tally';
import { submissionItem, unshownSubmission } from './submission';

const knownKeys = new Set(['trajectory', 'history', 'info', 'replay_config', 'environment', 'attempts']);

export interface TrajectoryOptions {
  /** The file's name (`<instance_id>.traj`): the session id. */
  readonly name?: string;
}

export function parseSweAgentTrajectory(text: string, options: TrajectoryOptions = {}): ParsedTranscript {
  const tally = createTally();
  const items: TranscriptItem[] = [];
  const sessionId = options.name
    ? (options.name.split('/').pop() ?? '').replace(/\.traj$/, '') || null
    : null;
  let meta: TranscriptMeta = emptyMeta('swe-agent', sessionId);
  const parsed = parseJsonCounted(text, tally);
  if (!parsed.ok) return { meta, items, stats: tally.stats(), problems: tally.problems };
  const doc = parsed.value;
  const history = isRecord(doc) && Array.isArray(doc['history']) ? doc['history'] : [];
  const steps =
    isRecord(doc) && Array.isArray(doc['trajectory']) ? doc['trajectory'] : stepsOfHistory(history);
  if (!isRecord(doc) || steps === null) {
    tally.malformed++;
    tally.problem(1, 'not a SWE-agent trajectory: no trajectory array, and no actions in its history');
    return { meta, items, stats: tally.stats(), problems: tally.problems };
  }
  const task = history.find((h: unknown) => isRecord(h) && h['role'] === 'user' && h['is_demo'] !== true);
  const taskText = isRecord(task) ? contentText(task['content']) : '';
  if (taskText)
    items.push({ kind: 'instruction', at: null, line: 0, thread: null, sourceId: null, text: taskText });
  let cwd: string | null = null;
  steps.forEach((step: unknown, index: number) => {
    tally.records++;
    const line = index + 1;
    if (!isRecord(step)) {
      tally.malformed++;
      tally.problem(line, 'step is not an object');
      return;
    }
    const common = { at: null, line, thread: null, sourceId: null };
    const thought = strField(step, 'thought') ?? '';
    if (thought.trim()) items.push({ ...common, kind: 'assistant', text: thought, reasoning: false });
    const action = strField(step, 'action') ?? '';
    cwd ??= strField(stateOf(step['state']), 'working_dir');
    if (action.trim() === '') {
      tally.skip('step without action');
      return;
    }
    const observation = strField(step, 'observation');
    const call =
      observation === null
        ? { tool: 'bash', input: { command: action } }
        : { tool: 'bash', input: { command: action }, output: observation, exitCode: null };
    items.push({ ...common, kind: 'tool_call', callId: null, call });
  });
  for (const key of Object.keys(doc)) {
    if (knownKeys.has(key)) continue;
    tally.unknownType(key);
    items.push({
      kind: 'other',
      at: null,
      line: 0,
      thread: null,
      sourceId: null,
      recordType: key,
      text: leafText(doc[key]),
    });
  }
  if (Array.isArray(doc['attempts'])) tally.skip('attempts');
  const info = isRecord(doc['info']) ? doc['info'] : {};
  const submission = strField(info, 'submission');
  if (submission !== null && unshownSubmission(items, submission))
    items.push(submissionItem(submission, tally.records, null));
  if (submission)
    items.push({
      kind: 'other',
      at: null,
      line: tally.records,
      thread: null,
      sourceId: null,
      recordType: 'submission',
      text: submission,
    });
  const status = strField(info, 'exit_status');
  // Without info (a demonstration keeps only its history), a last `submit` that printed the patch ended the run.
  const last = steps.at(-1);
  const submitted =
    status === null &&
    submission === null &&
    isRecord(last) &&
    /^submit\s*$/.test(strField(last, 'action') ?? '') &&
    /^diff --git /m.test(strField(last, 'observation') ?? '');
  const outcome = submitted ? 'submitted' : outcomeOfExitStatus(status, submission);
  if (outcome)
    items.push({
      kind: 'run_end',
      at: null,
      line: tally.records,
      thread: null,
      sourceId: null,
      outcome,
      text: status !== null ? `exit_status: ${status}` : submitted ? 'its last step, submit' : 'a submission',
    });
  meta = {
    ...meta,
    title:
      taskText
        .split('\n')
        .find((l) => l.trim() !== '')
        ?.slice(0, 200) ?? null,
    cwd,
    model: modelOf(doc['replay_config']),
    version: strField(info, 'swe_agent_version'),
  };
  return { meta, items: withSourceIds(items), stats: tally.stats(), problems: tally.problems };
}

/**
 * The steps of a trajectory that kept only its `history` (SWE-agent's demonstrations, trajectories/demonstrations/
 * *.traj: `{history}`): each assistant message with an `action` is a step, its `thought` the text and the next
 * `tool`/`user` message of `message_type: "observation"` its observation. Null when no message has an action.
 */
function stepsOfHistory(history: readonly unknown[]): Record<string, unknown>[] | null {
  const steps: Record<string, unknown>[] = [];
  history.forEach((m, i) => {
    if (!isRecord(m) || m['role'] !== 'assistant' || typeof m['action'] !== 'string') return;
    const next = history[i + 1];
    const observed = isRecord(next) && next['message_type'] === 'observation';
    const text = observed ? contentText(next['content']) : null;
    const dir = text === null ? null : currentDirectory(text);
    steps.push({
      action: m['action'],
      thought: strField(m, 'thought') ?? contentText(m['content']),
      ...(text === null ? {} : { observation: withoutFooter(text) }),
      ...(dir === null ? {} : { state: { working_dir: dir } }),
    });
  });
  return steps.length > 0 ? steps : null;
}

/**
 * A history observation without the lines the windowed tools append to it (`(Open file: …)`, `(Current directory:
 * …)`, the `bash-$` prompt), which the trajectory's own observations do not hold.
 */
function withoutFooter(text: string): string {
  return text.replace(/(?:\n\(Open file: [^\n]*\))?\n\(Current directory: [^\n]*\)\n?bash-\$\s*$/, '\n');
}

/** The `(Current directory: /repo)` line SWE-agent's windowed tools print after an observation. */
function currentDirectory(observation: string | null): string | null {
  const m = observation === null ? null : /^\(Current directory: (\/[^)\n]*)\)$/m.exec(observation);
  return m?.[1] ?? null;
}

/** A step's `state`: an object, or (SWE-agent before 1.0) the JSON text of one, `{"open_file": …, "working_dir": …}`. */
function stateOf(state: unknown): Record<string, unknown> {
  if (isRecord(state)) return state;
  if (typeof state !== 'string' || !state.trimStart().startsWith('{')) return {};
  try {
    const parsed: unknown = JSON.parse(state);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) => (isRecord(p) && typeof p['text'] === 'string' ? p['text'] : ''))
    .join('');
}

/** `replay_config` is the run's config as a JSON string: `agent.model.name`. */
function modelOf(replay: unknown): string | null {
  let config: unknown = replay;
  if (typeof replay === 'string') {
    try {
      config = JSON.parse(replay);
    } catch {
      return null; // A config that is not JSON says nothing about the model; the trajectory itself is intact.
    }
  }
  const agent = isRecord(config) ? config['agent'] : null;
  const model = isRecord(agent) ? agent['model'] : null;
  return isRecord(model) ? strField(model, 'name') : null;
}
