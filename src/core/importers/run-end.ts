/**
 * How a run ended, from what each format writes when its harness stops the agent: the exit statuses of
 * mini-swe-agent (`Submitted`, `LimitsExceeded`, `FormatError`, `TimeExceeded`, an exception's name…) and SWE-agent
 * (`submitted`, `submitted (exit_cost)`, `exit_cost`, `exit_context`, `exit_format`, `early_exit`…). A status that
 * says the agent submitted is a delivered run, whatever limit came with it; any other is a run stopped unfinished.
 */
import type { RunOutcome } from './types';

/** The outcome an exit status says, or null when there is none (the run was cut: no end recorded). */
export function outcomeOfExitStatus(status: string | null, submission: string | null): RunOutcome | null {
  const s = (status ?? '').trim();
  if (s === '') return submission !== null && submission.trim() !== '' ? 'submitted' : null;
  return /^submit/i.test(s) ? 'submitted' : 'stopped';
}

/** mini-swe-agent's command that ends a run by submitting (`echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`). */
export const isMiniSubmitCommand = (command: string) =>
  /\b(?:COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\b/.test(command);
