/**
 * The task's ui messages (`ui_messages.json`, `ClineMessage[]`: cline/cline src/shared/ExtensionMessage.ts) give
 * what the api history lacks: times (`ts`, placed on the api messages through `conversationHistoryIndex`), the
 * context truncations (`conversationHistoryDeletedRange`, each new range a compaction), and the task's title.
 * Kinds of message this parser does not know are counted and kept as `other` items.
 */
import type { TranscriptItem } from '../types';
import { isRecord, strField, type Tally } from '../tally';

const file = 'ui_messages.json';
/** `say` / `ask` values Cline and Roo write; everything else is counted as unknown. */
const knownSays = new Set(
  'task error api_req_started api_req_finished api_req_retried api_req_retry_delayed api_req_deleted text image reasoning completion_result plan_completion_result user_feedback user_feedback_diff command command_output tool shell_integration_warning shell_integration_warning_with_suggestion browser_action_launch browser_action browser_action_result mcp_server_request_started mcp_server_response mcp_notification use_mcp_server diff_error deleted_api_reqs clineignore_error rooignore_error command_permission_denied checkpoint_created checkpoint_saved load_mcp_documentation info task_progress hook_status hook_output_stream subagent use_subagents subagent_usage conditional_rules_applied compaction condense_context condense_context_error sliding_window_truncation codebase_search_result user_edit_todos too_many_tools_warning tool_use_error'.split(
    ' ',
  ),
);
const knownAsks = new Set(
  'followup plan_mode_respond act_mode_respond command command_output completion_result tool api_req_failed resume_task resume_completed_task mistake_limit_reached auto_approval_max_req_reached browser_action_launch use_mcp_server new_task condense summarize_task report_bug use_subagents'.split(
    ' ',
  ),
);

export interface UiReading {
  /** Earliest `ts` of the ui messages said while api message `i` was the last one. */
  readonly tsByHistoryIndex: Map<number, number>;
  /** Latest `ts` of the ui messages said while api message `i` was the last one. */
  readonly lastTsByHistoryIndex: Map<number, number>;
  readonly firstTs: number | null;
  readonly title: string | null;
  /** Items to place before api message `pos` (the end when past it). */
  readonly placed: { pos: number; item: TranscriptItem }[];
}

export function readUiMessages(messages: readonly unknown[], tally: Tally): UiReading {
  const tsByHistoryIndex = new Map<number, number>();
  const lastTsByHistoryIndex = new Map<number, number>();
  const placed: { pos: number; item: TranscriptItem }[] = [];
  let firstTs: number | null = null;
  let title: string | null = null;
  let range = '';
  let lastIndex = -1;
  messages.forEach((raw, k) => {
    tally.records++;
    if (!isRecord(raw)) {
      tally.malformed++;
      tally.problem(k + 1, 'message is not an object', file);
      return;
    }
    const ts = typeof raw['ts'] === 'number' ? raw['ts'] : null;
    if (ts !== null) firstTs ??= ts;
    const index =
      typeof raw['conversationHistoryIndex'] === 'number' ? raw['conversationHistoryIndex'] : lastIndex;
    lastIndex = index;
    if (ts !== null && index >= 0 && !tsByHistoryIndex.has(index)) tsByHistoryIndex.set(index, ts);
    if (ts !== null && index >= 0) lastTsByHistoryIndex.set(index, ts);
    const common = { at: ts, line: k + 1, thread: null, sourceId: ts === null ? null : `ui:${ts}` };
    const deleted = raw['conversationHistoryDeletedRange'];
    if (Array.isArray(deleted) && deleted.length === 2 && JSON.stringify(deleted) !== range) {
      range = JSON.stringify(deleted);
      const [from, to] = deleted as [unknown, unknown];
      const before = typeof from === 'number' && typeof to === 'number' ? to - from + 1 : null;
      placed.push({
        pos: index + 1,
        item: { ...common, kind: 'compaction', summary: null, trigger: 'truncation', before },
      });
    }
    const type = strField(raw, 'type');
    const say = type === 'say' ? strField(raw, 'say') : null;
    const ask = type === 'ask' ? strField(raw, 'ask') : null;
    if (say === 'task' && title === null)
      title = (strField(raw, 'text') ?? '').split('\n')[0]?.slice(0, 200) ?? null;
    const known = say !== null ? knownSays.has(say) : ask !== null ? knownAsks.has(ask) : false;
    if (!known) {
      const recordType =
        say !== null ? `say:${say}` : ask !== null ? `ask:${ask}` : `type:${type ?? '(none)'}`;
      tally.unknownType(recordType);
      placed.push({
        pos: index + 1,
        item: { ...common, kind: 'other', recordType, text: (strField(raw, 'text') ?? '').slice(0, 4096) },
      });
    }
  });
  return { tsByHistoryIndex, lastTsByHistoryIndex, firstTs, title, placed };
}
