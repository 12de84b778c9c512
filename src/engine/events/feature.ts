/** The public event methods: recordEvent, a typed helper per kind, and reading the log back. */
import type { EventsApi, ListEventsOptions } from '../../core/api/memory';
import { parseEventKind } from '../../core/events/model';
import { asEventId, asSessionId, type EventId, type SessionId } from '../../core/ids';
import { requireId } from '../../core/model';
import type { EventLog } from './log';

export { createEventLog, errorText, type EventLog } from './log';

const eventIdOf = (value: unknown, what: string) => asEventId(requireId(value, what));

export function createEventsFeature(log: EventLog) {
  const { events } = log.repos;
  const withKind = (kind: string, input: object, extra: object = {}) =>
    log.record({ ...input, ...extra, kind });
  return {
    recordEvent: (input) => log.record(input),
    recordEvents: (inputs) => log.recordMany(inputs),
    recordInstruction: (input) => withKind('instruction', input),
    recordDecision: (input) => withKind('decision', input),
    recordFileChange: (input) => withKind('file_change', input),
    recordValidation: (input) => withKind('validation', input),
    raiseBlocker: (input) => withKind('blocker', input),
    resolveBlocker: (input) =>
      withKind('blocker_resolved', input, { resolves: eventIdOf(input?.blockerId, 'blockerId') }),
    askQuestion: (input) => withKind('question', input),
    answerQuestion: (input) =>
      withKind('answer', input, { answers: eventIdOf(input?.questionId, 'questionId') }),
    recordNote: (input) => withKind('note', input),
    async listEvents(sessionId: SessionId, options: ListEventsOptions = {}) {
      const id = asSessionId(requireId(sessionId, 'sessionId'));
      await log.repos.sessions.get(id);
      return events.list(id, {
        ...(options.taskId === undefined ? {} : { taskId: options.taskId }),
        ...(options.kinds === undefined ? {} : { kinds: [...options.kinds].map(parseEventKind) }),
        ...(options.afterId === undefined ? {} : { afterId: eventIdOf(options.afterId, 'afterId') }),
        ...(options.activeOnly === undefined ? {} : { activeOnly: options.activeOnly === true }),
        ...(options.limit === undefined ? {} : { limit: requireId(options.limit, 'limit') }),
      });
    },
    getEvent: (id: EventId) => events.get(eventIdOf(id, 'eventId')),
  } satisfies EventsApi;
}
