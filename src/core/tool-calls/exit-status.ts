/**
 * A tool call's outcome, told in one place for every agent and every consumer (the classifier's checks, the step's
 * status, the stored result): the exit status of a shell command, the text its output really is, and the tool's own
 * error. Importers carry only what their file holds (`exitCode`, `isError`, `error`, the output text and the
 * structured `result`); what those mean together is decided here.
 */
import { exitCodeInOutput } from './output';
import type { ToolCall } from './types';

export interface CallOutcome {
  /** The command's exit status; null when it cannot be told (or the tool is not a shell). */
  readonly exitCode: number | null;
  /** The output's text without an envelope that only carried the exit status (Codex's JSON). */
  readonly text: string;
  /** The tool's own error (refused, failed as a tool call); null when it ran, whatever its exit status. */
  readonly error: string | null;
}

/**
 * Claude Code stores no exit code: a failed Bash is `is_error` with an `Exit code N` first line, and a Bash result
 * of its shape (`toolUseResult` with `interrupted: false`, not sent to the background) without an error exited 0.
 */
function claudeCodeExit(call: ToolCall): number | null {
  if (call.tool !== 'Bash' || call.isError === true || call.error !== undefined) return null;
  const result = call.result;
  if (typeof result !== 'object' || result === null) return null;
  const r = result as Record<string, unknown>;
  const background = typeof r['backgroundTaskId'] === 'string' || r['backgroundedByUser'] === true;
  return r['interrupted'] === false && !background ? 0 : null;
}

/** The outcome of a shell call: the exit code given, else written in the output or error text. */
export function shellOutcome(call: ToolCall): CallOutcome {
  const output = typeof call.output === 'string' ? call.output : '';
  const flagged = call.isError === true && output !== '' ? output : null;
  const errorText = typeof call.error === 'string' && call.error !== '' ? call.error : flagged;
  let text = flagged !== null ? '' : output;
  let exitCode =
    typeof call.exitCode === 'number' && Number.isInteger(call.exitCode)
      ? call.exitCode
      : claudeCodeExit(call);
  let error = errorText;
  if (exitCode === null) {
    const inText =
      (text !== '' ? exitCodeInOutput(text) : null) ??
      (errorText !== null ? exitCodeInOutput(errorText) : null);
    if (inText) {
      exitCode = inText.exitCode;
      if (text.startsWith('{')) text = inText.text;
      error = null;
    }
  }
  // A flagged output that is a command's exit is the command's output, not the tool's error.
  if (flagged !== null && error === null) text = flagged;
  return { exitCode, text, error };
}

/**
 * The outcome of a call of a tool that is not a shell: the exit status its caller gave (a playground's `run_check`),
 * else none; its error, given or flagged.
 */
export function toolOutcome(call: ToolCall): CallOutcome {
  const output = typeof call.output === 'string' ? call.output : '';
  const exitCode =
    typeof call.exitCode === 'number' && Number.isInteger(call.exitCode) ? call.exitCode : null;
  const error =
    typeof call.error === 'string' && call.error !== ''
      ? call.error
      : call.isError === true
        ? output || 'The tool reported an error.'
        : null;
  return { exitCode, text: output, error };
}
