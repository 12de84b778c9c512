/**
 * One agent session's items written into the brain, inside the import's transaction: the session (found again
 * by agent + the agent's session id, else created, titled with the agent's name), its main task, a child task per
 * thread, instructions, tool calls through the recorder (assistant text before a call is its `thought`),
 * compactions as the agent's own summary, and every other item as a searchable note. Items imported before (by
 * source id) are skipped. Writes are flushed in batches so memory stays bounded over a long transcript.
 */
import type { PackedStep } from '../tool-calls/step-texts';
import type { ReadAhead } from './read-ahead';
import type { ImportedCounts } from '../../core/api/importers';
import { isBrainError } from '../../core/errors';
import type {
  AgentKind,
  RunOutcome,
  TranscriptItem,
  TranscriptMeta,
  TranscriptProblem,
} from '../../core/importers/types';
import { parseEventInput, type EventRecord } from '../../core/events/model';
import type { SessionId, TaskId } from '../../core/ids';
import type { EventLog, DeferredWrites } from '../events/log';
import type { ToolCallReplay } from '../tool-calls/replay';
import type { ImportsRepo } from '../../storage/sqlite/repos/imports-repo';
import type { createTranscriptRepo } from '../../storage/sqlite/repos/transcript-repo';
import type { createSessionsRepo } from '../../storage/sqlite/repos/sessions-repo';
import type { createTasksRepo } from '../../storage/sqlite/repos/tasks-repo';
import type { EngineContext } from '../context';
import { bareToolName, completionTools } from '../../core/tool-calls/tool-names';
import { bounded, clip, itemKey, maxTitleChars, sessionTitle } from './naming';

/** Agents whose files record no end of a run: their last turn, an answer with no call after it, is the end. */
/**
 * Agents whose reply without a tool call ends their turn: the run waits for the person (OpenHands: a message
 * action puts the agent in `awaiting_user_input`, as its V0 trajectories record).
 */
const chatAgents: ReadonlySet<AgentKind> = new Set(['claude-code', 'codex', 'gemini-cli', 'openhands']);
import { createThoughts, type WaitingThought } from './thoughts';
import { toolCallInput, type BackupLookup } from './tool-call-input';

export interface WriterDeps {
  readonly ctx: EngineContext;
  readonly log: EventLog;
  readonly replay: ToolCallReplay;
  readonly imports: ImportsRepo;
  readonly sessions: ReturnType<typeof createSessionsRepo>;
  readonly tasks: ReturnType<typeof createTasksRepo>;
  readonly transcript: ReturnType<typeof createTranscriptRepo>;
  readonly backups: BackupLookup;
  /** Reads a large line unit on another thread, ahead of the writer (read-ahead.ts); absent: read here. */
  readonly readAhead?: ReadAhead;
}

export interface SessionTarget {
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
  readonly created: boolean;
  readonly sourceSession: string;
}

const FLUSH_EVERY = 500;
const MAX_TEXT = 100_000;

export type Counts = { -readonly [K in keyof ImportedCounts]: number };

export const noCounts = (): Counts => ({
  instructions: 0,
  toolCalls: 0,
  fileChanges: 0,
  checks: 0,
  compactions: 0,
  threads: 0,
  others: 0,
  assistantTexts: 0,
  messages: 0,
  backups: 0,
});

/** Finds the session an agent session became, or creates it with its main task. */
export async function openTarget(
  deps: WriterDeps,
  agent: AgentKind,
  meta: TranscriptMeta,
  fallbackId: string,
  at: number,
): Promise<SessionTarget> {
  const sourceSession = meta.sessionId ?? fallbackId;
  const found = await deps.imports.find(agent, sourceSession);
  if (found) return { sessionId: found.sessionId, taskId: found.taskId, created: false, sourceSession };
  // A first title; the import names it for good once the transcript is read (`importedTitle`).
  const title = clip(meta.title ?? sourceSession, maxTitleChars);
  const sessionId = await deps.sessions.create(sessionTitle(agent, title), at);
  const taskId = await deps.tasks.insert({
    sessionId,
    title,
    parentTaskId: null,
    references: [],
    now: at,
  });
  await deps.sessions.setCurrentTask(sessionId, taskId, at);
  return { sessionId, taskId, created: true, sourceSession };
}

/** The agent's text waiting for its next call; a follower carries it from one look to the next. */
export type Thoughts = ReturnType<typeof createThoughts>;

export const newThoughts = (from?: readonly WaitingThought[]): Thoughts => createThoughts(MAX_TEXT, from);

export function createSessionWriter(
  deps: WriterDeps,
  target: SessionTarget,
  meta: () => TranscriptMeta,
  thoughts: Thoughts = newThoughts(),
) {
  const { ctx, log, replay, imports } = deps;
  const counts = noCounts();
  const threads = new Map<string, TaskId>();
  const links = new Map<string, Promise<unknown>>();
  const deferred: DeferredWrites = { docs: [], touch: new Map() };
  let keys: string[] = [];
  let pending = 0;
  let alreadyImported = 0;
  let firstInstruction: string | null = null;
  let summaries = false;
  const problems: TranscriptProblem[] = [];
  /** How the main thread's run ended, as far as the items written so far say (null: not ended, or resumed). */
  let ended: { readonly outcome: RunOutcome; readonly text: string } | null = null;
  /** The main thread's last item was the agent's own answer (no instruction or tool call after it). */
  let answeredLast = false;
  let wroteMain = false;

  /** The latest time a record gave so far: an item without one happened after it. */
  let lastAt: number | null = null;
  const timeOf = (item: TranscriptItem) => {
    if (item.at !== null) lastAt = Math.max(lastAt ?? item.at, item.at);
    return item.at ?? lastAt ?? meta().startedAt ?? ctx.clock.now();
  };

  async function taskOf(thread: string | null, title = thread ?? '', at = ctx.clock.now()): Promise<TaskId> {
    if (thread === null) return target.taskId;
    const known = threads.get(thread) ?? (await imports.taskOf(target.sessionId, `thread:${thread}`));
    if (known !== null && known !== undefined) {
      threads.set(thread, known);
      return known;
    }
    const taskId = await deps.tasks.insert({
      sessionId: target.sessionId,
      title: bounded(title || `Thread ${thread}`, 500),
      parentTaskId: target.taskId,
      references: [],
      now: at,
    });
    await imports.addWithTask(target.sessionId, `thread:${thread}`, taskId);
    threads.set(thread, taskId);
    counts.threads++;
    return taskId;
  }

  async function events(records: EventRecord[], at: number) {
    await log.insertAll(records, at, links, deferred);
  }

  const note = (taskId: TaskId, text: string, said = false) =>
    parseEventInput({
      sessionId: target.sessionId,
      taskId,
      kind: 'note',
      text: bounded(text, MAX_TEXT),
      ...(said ? { said: true } : {}),
    });

  /** Assistant text no call followed (an answer, a last word): kept as the agent's own note, at its own time. */
  async function flushThought(thread: string | null) {
    const said = thoughts.take(thread);
    if (said !== null) await events([note(await taskOf(thread), said.text, true)], said.at);
  }

  /**
   * The person's words and the agent's replies are also the task's messages (light rows, kept while the session
   * is), each at the time of its own record. Search finds the same text through the instruction, note and tool
   * call events, so messages are not indexed twice.
   */
  async function message(thread: string | null, role: 'user' | 'assistant', text: string, at: number) {
    if (text.trim() === '') return;
    await deps.transcript.addMessage({
      sessionId: target.sessionId,
      taskId: await taskOf(thread),
      role,
      content: bounded(text, ctx.limits.maxMessageChars),
      createdAt: at,
    });
    counts.messages++;
  }

  /** What an item says of the main thread's run: resumed by an instruction or a call, ended by a completion. */
  function followRun(item: TranscriptItem) {
    // A thread's items, the item that opens a thread and a backup say nothing of how the main run went: a
    // subagent's file (all of it a thread) must not reopen a session its main file ended.
    if (item.thread !== null || item.kind === 'thread' || item.kind === 'file_backup') return;
    wroteMain = true;
    if (item.kind === 'assistant') {
      if (!item.reasoning) answeredLast = true;
    } else if (item.kind === 'instruction') {
      answeredLast = false;
      ended = null;
    } else if (item.kind === 'tool_call') {
      answeredLast = false;
      if (completionTools.has(bareToolName(item.call.tool).toLowerCase()))
        ended = { outcome: 'finished', text: `the agent called ${item.call.tool}` };
    } else if (item.kind === 'run_end') {
      answeredLast = false;
      ended = item.outcome === 'stopped' ? null : { outcome: item.outcome, text: item.text };
    }
  }

  async function write(item: TranscriptItem, ahead: PackedStep | null): Promise<void> {
    const at = timeOf(item);
    followRun(item);
    switch (item.kind) {
      case 'assistant':
        thoughts.add(item.thread, item.text, item.reasoning, at);
        // Reasoning (thinking, summaries of it) is not said to the person: a thought at most, never a reply.
        if (!item.reasoning) await message(item.thread, 'assistant', item.text, at);
        counts.assistantTexts++;
        return;
      case 'instruction': {
        await flushThought(item.thread);
        firstInstruction ??= item.text;
        const taskId = await taskOf(item.thread);
        const text = bounded(item.text, MAX_TEXT);
        if (text.trim() === '') return;
        await events(
          [parseEventInput({ sessionId: target.sessionId, taskId, kind: 'instruction', text })],
          at,
        );
        await message(item.thread, 'user', item.text, at);
        counts.instructions++;
        return;
      }
      case 'tool_call': {
        const taskId = await taskOf(item.thread);
        const thought = thoughts.take(item.thread)?.text ?? null;
        const input = await toolCallInput(item, {
          sessionId: target.sessionId,
          taskId,
          thought,
          at,
          meta: meta(),
          sourceSession: target.sourceSession,
          backups: deps.backups,
          counts,
        });
        let recorded;
        try {
          // A savepoint: a call the recorder refuses (too large, not valid) leaves nothing, and the rest goes on.
          recorded = await ctx.db.transaction(() => replay.record(input, ahead));
        } catch (error) {
          if (!isBrainError(error) || error.code === 'Internal' || error.code === 'Cancelled') throw error;
          problems.push({
            line: item.line,
            message: `Tool call ${item.call.tool} not recorded: ${error.message}`,
          });
          return;
        }
        counts.toolCalls++;
        counts.fileChanges += recorded.files.length;
        counts.checks += recorded.checks.length;
        pending++;
        return;
      }
      case 'compaction': {
        const taskId = await taskOf(item.thread);
        const how = [item.trigger, item.before === null ? null : `${item.before} before`]
          .filter(Boolean)
          .join(', ');
        if (item.summary !== null && item.summary.trim() !== '') {
          await deps.transcript.addSummary({
            sessionId: target.sessionId,
            taskId,
            kind: 'agent-compaction',
            content: bounded(item.summary, ctx.limits.maxMessageChars),
            createdAt: at,
          });
          summaries = true;
        }
        await events(
          [
            note(
              taskId,
              `The agent's context was compacted${how ? ` (${how})` : ''}.${item.summary ? ` Its own summary: ${item.summary}` : ''}`,
            ),
          ],
          at,
        );
        counts.compactions++;
        return;
      }
      case 'thread':
        await taskOf(item.id, item.title, at);
        return;
      case 'run_end': {
        await flushThought(item.thread);
        const how =
          item.outcome === 'stopped' ? 'stopped before the agent finished' : `ended: ${item.outcome}`;
        const progress = parseEventInput({
          sessionId: target.sessionId,
          taskId: await taskOf(item.thread),
          kind: 'progress',
          text: bounded(`The run ${how} (${item.text}).`, MAX_TEXT),
        });
        await events([progress], at);
        counts.others++;
        return;
      }
      case 'file_backup':
        deps.backups.note(target.sourceSession, item);
        return;
      case 'rewind':
        await events(
          [
            note(
              await taskOf(item.thread),
              `The conversation was rewound to ${item.toSourceId}${item.inclusive ? ' (inclusive)' : ''}: what followed was abandoned.`,
            ),
          ],
          at,
        );
        counts.others++;
        return;
      case 'other':
        await events([note(await taskOf(item.thread), `[${item.recordType}] ${item.text}`)], at);
        counts.others++;
        return;
      default: {
        const never: never = item;
        throw new Error(`Unknown item ${(never as { kind: string }).kind}`);
      }
    }
  }

  /**
   * The main task's state from how its run ended: done when the agent delivered (a recorded end, a completion
   * tool, or — for chat agents, whose files record no end — a final answer with no call after it); a task this
   * import had marked done and that went on since is running again. A run cut mid-way is left as it is.
   */
  /**
   * `noteEnd`: say in a progress note that a chat agent's final answer ended the run. A follower passes false: a
   * chat session pauses at every answer until the person writes again, and a note each time would be noise (the
   * task's state says it).
   */
  async function settleRunState(noteEnd: boolean, torn: boolean) {
    if (!wroteMain) return;
    // A file cut inside its last record was still being written: the answer before it was not the last word.
    const finalAnswer = chatAgents.has(meta().agent) && answeredLast && !torn;
    const done = ended !== null || finalAnswer;
    const task = await deps.tasks.get(target.taskId);
    // The run's own time: its last record's (the note, the task's and so the session's last change are when the
    // run ended, not when it began, nor when it was imported).
    const at = lastAt ?? meta().startedAt ?? ctx.clock.now();
    if (done && task.state === 'running') {
      if (ended === null && noteEnd) {
        const text = 'The run ended: the agent gave its final answer with no tool call pending.';
        await events(
          [parseEventInput({ sessionId: target.sessionId, taskId: target.taskId, kind: 'progress', text })],
          at,
        );
      }
      await deps.tasks.setState(target.taskId, 'done', at);
    } else if (!done && task.state === 'done') {
      await deps.tasks.setState(target.taskId, 'running', at);
    }
  }

  async function flush() {
    await replay.flush();
    await log.flushDeferred(deferred);
    if (keys.length > 0) await imports.add(target.sessionId, keys);
    keys = [];
    pending = 0;
  }

  return {
    counts,
    problems,
    get alreadyImported() {
      return alreadyImported;
    },
    get firstInstruction() {
      return firstInstruction;
    },
    get summaries() {
      return summaries;
    },
    /** `ahead`: a tool call's step packed on the reader's thread (read-ahead.ts), when it was read there. */
    async add(item: TranscriptItem, index: number, ahead: PackedStep | null = null): Promise<void> {
      const key = itemKey(item, index);
      if (!target.created && (await imports.has(target.sessionId, key))) {
        alreadyImported++;
        return;
      }
      await write(item, ahead);
      keys.push(key);
      if (keys.length >= FLUSH_EVERY * 4 || pending >= FLUSH_EVERY) await flush();
    },
    /**
     * `keepThoughts`: text still waiting for a call stays in `thoughts` (a follower's next look may bring it);
     * `noteEnd: false`: no progress note for a chat agent's final answer (see settleRunState); `torn`: the file
     * ends inside a record (its run was still being written), so its last answer did not end the run.
     */
    async finish(
      options: { readonly keepThoughts?: boolean; readonly noteEnd?: boolean; readonly torn?: boolean } = {},
    ): Promise<void> {
      if (options.keepThoughts !== true) for (const thread of thoughts.threads()) await flushThought(thread);
      await settleRunState(options.noteEnd !== false, options.torn === true);
      await flush();
    },
  };
}

export type SessionWriter = ReturnType<typeof createSessionWriter>;
