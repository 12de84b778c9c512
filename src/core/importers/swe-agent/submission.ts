/**
 * A run's final submission that no call of the transcript showed (mini-swe-agent's exit with no submit command
 * waiting, SWE-agent's autosubmission), as a call of the `submit` tool — SWE-agent's own name for it — whose output
 * is the patch. The classifier reads it as every other submit (core/tool-calls/effects/shown.ts): the files of the
 * final patch, with their diffs. Its sourceId is `submission`, so a re-import finds it.
 */
import type { ToolCall } from '../../tool-calls/types';
import type { TranscriptItem } from '../types';

/** Whether a final submission is there and no call's output was that patch (the `submit` step's observation). */
export function unshownSubmission(items: readonly TranscriptItem[], submission: string | null): boolean {
  const text = submission?.trim() ?? '';
  if (text === '') return false;
  return !items.some(
    (i) => i.kind === 'tool_call' && i.call.output !== undefined && i.call.output.trim() === text,
  );
}

export function submissionItem(submission: string, line: number, at: number | null): TranscriptItem {
  const call: ToolCall = { tool: 'submit', input: {}, output: submission };
  return { kind: 'tool_call', at, line, thread: null, sourceId: 'submission', callId: null, call };
}
