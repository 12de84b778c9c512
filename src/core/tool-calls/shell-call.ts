/**
 * A shell tool call: walk its command line (shell/units.ts) and read every command as a check, a script run, a
 * file effect and/or a read; then give each check its result from the exit code and the output.
 */
import { checkId, normaliseArgs } from './checks/identity';
import { checkResults, type PendingCheck } from './checks/result';
import { recognizeRunner } from './checks/runners';
import { scriptCertainty, scriptRun } from './checks/scripts';
import type { EditReading } from './effects/edit-tools';
import { shellEffects } from './effects/shell-effects';
import { withoutNotDone } from './effects/not-done';
import { showingOf, shownEffects, type Showing } from './effects/shown';
import { shellOutcome } from './exit-status';
import { maxScanChars, outputLines } from './output';
import { shellReads } from './reads';
import { shellLine } from './shell/units';
import type { CheckRun, ClassifyContext, ScriptRun, ToolCall } from './types';
import type { FileEffect, FileRead } from './effect-types';

export interface ShellReading extends EditReading {
  readonly checks: CheckRun[];
  readonly scripts: ScriptRun[];
  readonly reads: FileRead[];
  /** After the line: true when a `git stash` set the changes aside, false when one brought them back, else null. */
  setAside: boolean | null;
}

/** What a command does to the agent's changes: sets them aside (`git stash`), brings them back, or neither. */
function stashMove(effects: readonly FileEffect[], from: number): boolean | null {
  let move: boolean | null = null;
  for (const e of effects.slice(from)) {
    if (e.kind !== 'bulk') continue;
    if (e.via === 'git stash') move = true;
    else if (e.via === 'git stash pop' || e.via === 'git stash apply') move = false;
  }
  return move;
}

export const maxCommandChars = 1024 * 1024;

/**
 * A command line for cmd.exe or PowerShell (it names a drive path with backslashes: `cd c:\\App\\web && …`) uses the
 * backslash as the path separator, never as an escape: read as a POSIX shell would read it, `c:\\App\\web` became
 * `c:Appweb`. Its backslashes are read as `/` (a path means the same; a check's command shows `c:/App/web`).
 */
function windowsPaths(command: string): string {
  return /(?:^|[\s"'=(])[A-Za-z]:\\[^\s\\]/.test(command) ? command.replace(/\\/g, '/') : command;
}

export function readShellCall(
  command: string,
  workdir: string | null,
  call: ToolCall,
  context: ClassifyContext | undefined,
): ShellReading {
  const notes: string[] = [];
  let source = command;
  if (source.length > maxCommandChars) {
    source = source.slice(0, maxCommandChars);
    notes.push(
      `The command line is ${command.length} characters long: only the first ${maxCommandChars} were read.`,
    );
  }
  const line = shellLine(windowsPaths(source), context?.root ?? null, workdir);
  notes.push(...line.problems);
  const out: ShellReading = { effects: [], reads: [], notes, checks: [], scripts: [], setAside: null };
  const pending: PendingCheck[] = [];
  let aside = context?.changesSetAside === true;
  const showings: Showing[] = [];
  for (const unit of line.units) {
    const before = out.effects.length;
    shellEffects(unit, out);
    const move = stashMove(out.effects, before);
    if (move !== null) aside = out.setAside = move;
    const baseline = aside ? { baseline: true } : {};
    const showing = showingOf(unit);
    if (showing) showings.push(showing);
    out.reads.push(...shellReads(unit));
    const runner = recognizeRunner(unit.argv);
    if (runner) {
      const normalised = normaliseArgs(runner.args, runner.rules);
      const id = checkId(unit.scope, runner.runner, normalised.kept);
      pending.push({
        unit,
        id,
        kind: runner.kind,
        runner: runner.runner,
        targets: normalised.targets,
        certainty: 'known',
        family: runner.summary,
        ...baseline,
      });
      continue;
    }
    const script = scriptRun(unit.argv, unit.scope, context?.root);
    if (!script) continue;
    out.scripts.push(script);
    const certainty = scriptCertainty(script, context);
    if (certainty)
      pending.push({
        unit,
        id: script.id,
        kind: 'script',
        runner: 'script',
        targets: [script.path],
        certainty,
        family: 'any',
        ...baseline,
      });
  }
  if (pending.length > 0) {
    const outcome = callOutcome(call);
    out.checks.push(...checkResults(line, pending, outcome));
  }
  const o = shellOutcome(call);
  const text = o.error === null ? o.text : `${o.text}\n${o.error}`;
  const head = text.length > maxScanChars ? text.slice(0, maxScanChars) : text;
  // Evidence comes after the call's own effects: a file it changed itself is not listed twice.
  if (showings.length > 0) out.effects.push(...shownEffects(showings, head, context?.root ?? null));
  const done = withoutNotDone(out.effects, head, line.problems);
  out.effects.splice(0, out.effects.length, ...done.effects);
  out.notes.push(...done.notes);
  return out;
}

/** The call's outcome (exit-status.ts) and the lines the summary parsers read: the output, then any error text. */
function callOutcome(call: ToolCall) {
  const o = shellOutcome(call);
  const errorText = typeof call.error === 'string' ? call.error : o.error;
  const text = errorText === null ? o.text : o.text === '' ? errorText : `${o.text}\n${errorText}`;
  return { exitCode: o.exitCode, lines: outputLines(text), error: o.error };
}
