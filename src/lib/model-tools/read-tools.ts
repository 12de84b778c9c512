/**
 * Tools that read what the brain holds (history, the resume point) and the two memory files the model keeps,
 * and the one that drafts a skill from a finished task.
 */
import type { SessionId, TaskId } from '../../worker/protocol';
import { resumePrompt } from './resume-prompt';
import { id, object, oneOf, text, toolTextLimit } from './schema';
import type { ToolSpec } from './spec';

const memoryFiles = {
  'MEMORY.md': '.agent/MEMORY.md',
  'PROJECT_MEMORY.md': '.agent/PROJECT_MEMORY.md',
} as const;
type MemoryFileName = keyof typeof memoryFiles;

const memoryFile = oneOf(
  Object.keys(memoryFiles),
  "MEMORY.md: what you keep across sessions (the person's preferences, standing instructions, lessons). " +
    'PROJECT_MEMORY.md: facts about this project (architecture, commands, conventions).',
);
const noFolder =
  'No project folder is open, so there are no memory files: tell the person, or keep the fact with record_decision.';

/** Memory files a model may write whole; longer ones are refused before they reach the engine. */
export const memoryTextLimit = 100_000;

export const readTools = [
  {
    name: 'search_history',
    description:
      'Full-text search over everything this brain recorded: events (decisions, checks, blockers …), compacted ' +
      'summaries and tool steps, including what compaction dropped from your context. Call it before redoing ' +
      'work or when the resume point says something was left out. Cheap: one indexed read; returns at most ' +
      '`limit` hits (default 10), best first, each one line with its kind, ids and a snippet with [hits].',
    schema: (bound) =>
      object(
        { query: text('Words, a file name or an error message; all words must match, else any.', 500) },
        {
          sessionId: id('Only this session.'),
          kinds: {
            type: 'array',
            items: { type: 'string', minLength: 1, maxLength: 40 },
            maxItems: 20,
            description:
              'Only these kinds, e.g. ["decision", "validation", "file_change", "step", "summary"].',
          },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: 50,
            description: 'At most this many hits (default 10).',
          },
        },
        bound,
      ),
    async run(brain, input) {
      const { hits, matched } = await brain.searchHistory(input['query'] as string, {
        ...(input['sessionId'] === undefined ? {} : { sessionId: input['sessionId'] as SessionId }),
        ...(input['kinds'] === undefined ? {} : { kinds: input['kinds'] as string[] }),
        limit: (input['limit'] as number | undefined) ?? 10,
      });
      if (hits.length === 0)
        return `No history matches "${String(input['query'])}". Try fewer or other words.`;
      const lines = hits.map((hit) => {
        const ids = [
          hit.eventId === null ? null : `event ${hit.eventId}`,
          hit.sessionId === null ? null : `session ${hit.sessionId}`,
          hit.taskId === null ? null : `task ${hit.taskId}`,
          hit.checkpointEntryId === null ? null : `checkpoint entry ${hit.checkpointEntryId}`,
        ].filter((part) => part !== null);
        return `- [${hit.kind}] ${hit.title}${hit.path ? ` (${hit.path})` : ''} — ${hit.snippet.replace(/\s+/g, ' ').slice(0, 300)} (${ids.join(', ')})`;
      });
      const how = matched === 'any' ? ' (no hit has every word; these have some)' : '';
      return [`${hits.length} hit${hits.length === 1 ? '' : 's'}${how}:`, ...lines].join('\n');
    },
  },
  {
    name: 'read_resume_point',
    description:
      'Read where the session stands, as a markdown handoff: goal, where it stopped, the next action, checks done ' +
      'and still to run, files changed, decisions, open blockers and questions, and what the context no longer ' +
      'holds. Call it first after a restart or a compaction, or when unsure what is next. A read, no write; ' +
      'returns about 300–1,500 tokens.',
    schema: (bound) => object({ sessionId: id('The session to resume.') }, {}, bound),
    run: (brain, input) => resumePrompt(brain, input['sessionId'] as SessionId, { for: 'brain-tools' }),
  },
  {
    name: 'read_memory',
    description:
      "Read MEMORY.md or PROJECT_MEMORY.md from the project's .agent folder. Call it at the start of a task, " +
      'and before write_memory (which needs the version this returns). A read; returns the whole file ' +
      '(usually small) with its version.',
    schema: (bound) => object({ file: memoryFile }, {}, bound),
    hints: {
      NotFound: 'The file does not exist yet: create it with write_memory and expectedVersion null.',
      Closed: noFolder,
    },
    async run(brain, input) {
      const path = memoryFiles[input['file'] as MemoryFileName];
      const file = await brain.readAgentFile(path);
      const problems =
        file.problems.length === 0 ? '' : `\nProblems: ${file.problems.map((p) => p.message).join('; ')}`;
      return `${path} (version ${file.version}, ${file.text.length} characters):${problems}\n\n${file.text}`;
    },
  },
  {
    name: 'write_memory',
    description:
      'Replace MEMORY.md or PROJECT_MEMORY.md with new text (keep its headings and what still holds; add what ' +
      'you learnt). Pass the version read_memory returned, or null to create the file: if the person edited it ' +
      'since, this fails with Conflict and you read it again. Cheap: one file write. Returns the new version.',
    schema: (bound) =>
      object(
        {
          file: memoryFile,
          text: text('The whole new content (markdown).', memoryTextLimit),
          expectedVersion: {
            type: ['string', 'null'],
            maxLength: 200,
            description: 'The version read_memory returned; null when the file does not exist yet.',
          },
        },
        {},
        bound,
      ),
    hints: {
      Conflict:
        'The file changed since you read it (or exists already): call read_memory, merge, and write with its version.',
      NotFound: noFolder,
    },
    async run(brain, input) {
      const path = memoryFiles[input['file'] as MemoryFileName];
      const written = await brain.writeAgentFile(path, input['text'] as string, {
        expectedVersion: input['expectedVersion'] as string | null,
      });
      return `Wrote ${path} (${(input['text'] as string).length} characters); its version is now ${written.version}.`;
    },
  },
  {
    name: 'draft_skill',
    description:
      'Draft a reusable skill (SKILL.md: name, description, the steps and checks that worked) from a finished ' +
      'task whose checks passed. Call it when a task went well and is likely to recur. A read: nothing is saved; ' +
      'returns the draft text and where it would be saved, for you or the person to review.',
    schema: (bound) =>
      object(
        { taskId: id('The finished task.') },
        { name: text('The skill name (default: from the task title), kebab-case.', 64) },
        bound,
      ),
    hints: {
      Conflict: 'Only a finished task whose validation passed can become a skill: finish and check it first.',
    },
    async run(brain, input) {
      const draft = await brain.draftSkillFromTask(
        input['taskId'] as TaskId,
        input['name'] === undefined ? undefined : { name: input['name'] as string },
      );
      const exists = draft.exists ? ' A skill of that name exists already.' : '';
      return `Draft of skill "${draft.name}" (would be saved at ${draft.path}; nothing saved).${exists}\n\n${draft.text.slice(0, toolTextLimit)}`;
    },
  },
] as const satisfies readonly ToolSpec[];
