/**
 * A command line as the classifier walks it: every simple command in order, with its prefixes stripped, the
 * directory a `cd` put it in, and where it sits (its list item, what it is piped into). Shell wrappers (`bash -lc
 * '…'`, `sh -c`, `eval`, `bash <<EOF`) are opened and their commands spliced in place of the wrapper.
 */
import type { Word } from './lex';
import { commandText, parseCommandLine, type Connector, type SimpleCommand } from './parse';
import { shellScript, stripPrefixes } from './prefixes';
import { changeDirectory, enterDirectory } from './scope';

export interface ShellUnit {
  readonly command: SimpleCommand;
  /** The command underneath its prefixes: `timeout 600 npm test` → `npm test`. */
  readonly argv: readonly string[];
  readonly words: readonly Word[];
  /** `NAME=value` assignments in front of it (and `env` ones are among the stripped prefixes). */
  readonly env: readonly string[];
  readonly text: string;
  /** The check scope a `cd` gave it (see scope.ts): part of a check's identity. */
  readonly scope: string | null;
  /** The directory it ran in, for resolving the paths it names: absolute, or relative to the start; null: the
   * start directory. */
  readonly cwd: string | null;
  readonly timeout: string | null;
  /** Index of its pipeline in `ShellLine.connectors`. */
  readonly item: number;
  /** The names of the commands after it in its pipeline: its status is hidden behind the last one's. */
  readonly pipedInto: readonly string[];
  /** Its stdin is a pipe (`… | grep x`): a read command then reads no file. */
  readonly pipedFrom: boolean;
  /**
   * Its exit status does not reach the call's exit code as it is: piped into another command, negated (`!`),
   * or inside a wrapper script that shares a pipeline and is not the script's last command.
   */
  readonly statusHidden: boolean;
}

export interface ShellLine {
  readonly units: readonly ShellUnit[];
  /** Per list item: how the next one follows (null after the last). */
  readonly connectors: readonly (Connector | null)[];
  /** `set -o pipefail` came before: a pipeline fails when any part does. */
  readonly pipefail: boolean;
  readonly problems: readonly string[];
}

export const maxUnits = 2000;
const maxDepth = 4;

interface State {
  units: ShellUnit[];
  connectors: (Connector | null)[];
  problems: string[];
  scope: string | null;
  cwd: string | null;
  pipefail: boolean;
  root: string | null;
}

/** Parse and walk a command line; `workdir` is where it starts (Codex's `workdir`, Gemini's `directory`). */
export function shellLine(source: string, root: string | null, workdir: string | null = null): ShellLine {
  const scope = workdir ? enterDirectory(null, workdir, root) : null;
  const cwd = workdir ? changeDirectory(null, workdir) : null;
  const state: State = { units: [], connectors: [], problems: [], scope, cwd, pipefail: false, root };
  walk(source, state, 0, null);
  return state;
}

interface Outer {
  /** Commands after the wrapper in its pipeline. */
  readonly pipedInto: readonly string[];
  /** The wrapper shared a pipeline: its script's commands all take that item's index. */
  readonly item: number | null;
  /** A `timeout` around the wrapper bounds every command of its script. */
  readonly timeout: string | null;
}

function walk(source: string, state: State, depth: number, outer: Outer | null) {
  const line = parseCommandLine(source);
  state.problems.push(...line.problems);
  const firstUnit = state.units.length;
  for (const item of line.items) {
    const commands = item.pipeline.commands;
    const alone = commands.length === 1 && outer?.item == null;
    let itemIndex = outer?.item ?? null;
    // A lone command is read once, both to tell whether it is a wrapper and to walk it.
    const first = alone && commands[0] ? readCommand(commands[0], depth) : null;
    if (itemIndex === null && !(first !== null && first.inner !== null)) {
      itemIndex = state.connectors.length;
      state.connectors.push(item.next);
    }
    commands.forEach((command, k) => {
      if (state.units.length >= maxUnits) return;
      const later = commands.slice(k + 1).map((c) => c.words[0]?.value ?? '');
      const pipedInto = [...later, ...(outer?.pipedInto ?? [])];
      const { stripped, argv, inner } = k === 0 && first !== null ? first : readCommand(command, depth);
      if (inner !== null) {
        const before = state.connectors.length;
        walk(inner, state, depth + 1, {
          pipedInto,
          item: itemIndex,
          timeout: stripped.timeout ?? outer?.timeout ?? null,
        });
        // A wrapper alone in its pipeline: its script's last command is followed by the wrapper's connector.
        if (itemIndex === null && state.connectors.length > before)
          state.connectors[state.connectors.length - 1] = item.next;
        return;
      }
      const unit: ShellUnit = {
        command,
        argv,
        words: command.words.slice(stripped.start),
        env: command.assignments.map((w) => w.value),
        text: commandText(line, command),
        scope: state.scope,
        cwd: state.cwd,
        timeout: stripped.timeout ?? outer?.timeout ?? null,
        item: itemIndex ?? Math.max(0, state.connectors.length - 1),
        pipedInto,
        pipedFrom: k > 0,
        statusHidden: pipedInto.length > 0 || item.pipeline.negated,
      };
      state.units.push(unit);
      track(state, unit);
    });
  }
  // Inside a wrapper that shares a pipeline, only the script's last command gives the wrapper its status.
  if (outer?.item != null) {
    for (let u = firstUnit; u < state.units.length - 1; u++) {
      state.units[u] = { ...(state.units[u] as ShellUnit), statusHidden: true };
    }
  }
  if (state.units.length >= maxUnits && !state.problems.some((p) => p.startsWith('Only the first'))) {
    state.problems.push(`Only the first ${maxUnits} commands were read.`);
  }
}

/** A command's prefixes, the argv underneath them, and the script it runs when it is a wrapper (not past `maxDepth`). */
function readCommand(command: SimpleCommand, depth: number) {
  const stripped = stripPrefixes(command.words.map((w) => w.value));
  const argv = command.words.slice(stripped.start).map((w) => w.value);
  return { stripped, argv, inner: depth < maxDepth ? innerScript(command, argv) : null };
}

/** The command line a wrapper runs (`bash -lc '…'`, `eval …`, `bash <<EOF`), or null when it is no wrapper. */
function innerScript(command: SimpleCommand, argv: readonly string[]): string | null {
  const script = shellScript(argv, 0);
  if (!script) return null;
  if (script.script !== null) return script.script;
  const heredoc = command.redirects.find((r) => r.heredoc && (r.fd === null || r.fd === 0));
  return heredoc?.heredoc ? heredoc.heredoc.body : null;
}

/** `cd`/`pushd`/`popd` move the scope; `set -o pipefail` (or `set -euo pipefail`) turns pipefail on. */
function track(state: State, unit: ShellUnit) {
  const [name, ...args] = unit.argv;
  if (name === 'cd' || name === 'pushd') {
    const target = args.find((a) => !a.startsWith('-') || a === '-');
    state.scope = enterDirectory(state.scope, target ?? null, state.root);
    state.cwd = changeDirectory(state.cwd, target ?? null);
  } else if (name === 'popd') {
    state.scope = null;
    state.cwd = null;
  } else if (name === 'set') {
    const i = args.indexOf('-o');
    if (
      (i >= 0 && args[i + 1] === 'pipefail') ||
      args.some((a) => /^-[a-z]*o$/.test(a) && args.includes('pipefail'))
    )
      state.pipefail = true;
  }
}
