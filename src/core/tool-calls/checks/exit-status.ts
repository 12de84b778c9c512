/**
 * Which command of a command line the call's exit code speaks for. The shell's status is that of the last
 * pipeline it ran, and a pipeline's is that of its last command (unless `set -o pipefail`). So, for a check:
 * - piped into something (`pytest | tail -20`): the code is the last command's — not the check's;
 * - exit 0 and only `&&` after it (`git stash && pytest && git stash pop`): it passed;
 * - exit ≠ 0: it is the check's when it is the only check whose failure reaches the end through `&&` alone
 *   (the commands around it — `cd`, `git stash` — are taken not to fail); with two such checks (`npm run lint &&
 *   npm test`) the code belongs to one of them and the summaries decide;
 * - `||` or `;` after it, or `&` (background): the code says nothing about it.
 */
import type { ShellLine, ShellUnit } from '../shell/units';

export interface OwnExit {
  readonly code: number | null;
  /** Why there is no code (or why it is one of several candidates). */
  readonly note: string | null;
  /** A non-zero code this check shares with others: it failed if the others are shown to have passed. */
  readonly shared: boolean;
}

/** Every connector from `item` to the end is `&&` (or `item` is the last). */
function andChainToEnd(line: ShellLine, item: number): boolean {
  for (let k = item; k < line.connectors.length - 1; k++) if (line.connectors[k] !== '&&') return false;
  return true;
}

/**
 * The exit status of `unit` (one of `checks`, the units recognised as checks) given the call's `exitCode`.
 */
export function ownExit(
  line: ShellLine,
  unit: ShellUnit,
  checks: readonly ShellUnit[],
  exitCode: number | null,
): OwnExit {
  if (exitCode === null) return { code: null, note: null, shared: false };
  if (unit.statusHidden) {
    if (line.pipefail && exitCode === 0) return { code: 0, note: null, shared: false };
    const last = unit.pipedInto[unit.pipedInto.length - 1] ?? 'another command';
    const note =
      unit.pipedInto.length > 0
        ? `piped into ${unit.pipedInto.join(' | ')}: the exit code is ${last}'s`
        : 'negated, or inside a script that shares a pipeline: the exit code is not its own';
    return { code: null, note, shared: false };
  }
  if (line.connectors[unit.item] === '&') return { code: null, note: 'run in the background', shared: false };
  const toEnd = andChainToEnd(line, unit.item);
  if (!toEnd) {
    const after = line.connectors.slice(unit.item).find((c) => c !== '&&' && c !== null);
    return {
      code: null,
      note: `followed by \`${after}\`: the exit code is a later command's`,
      shared: false,
    };
  }
  if (exitCode === 0) return { code: 0, note: null, shared: false };
  const culprits = checks.filter((c) => !c.statusHidden && andChainToEnd(line, c.item));
  if (culprits.length <= 1) return { code: exitCode, note: null, shared: false };
  return {
    code: null,
    note: `exit code ${exitCode} belongs to one of ${culprits.length} checks joined by &&`,
    shared: true,
  };
}

/** A non-zero code that means the runner could not run the checks, not that a check failed. */
export function errorExit(family: string, code: number, timeout: string | null): string | null {
  if (code === 124 || (timeout !== null && code === 137))
    return `timed out${timeout ? ` (timeout ${timeout})` : ''}`;
  if (code === 127) return 'command not found (exit 127)';
  if (code === 126) return 'not executable (exit 126)';
  if (family === 'pytest') {
    if (code === 5) return 'no tests ran (exit 5)';
    if (code === 2) return 'interrupted (exit 2: a collection error, or a keyboard interrupt)';
    if (code === 3) return 'pytest internal error (exit 3)';
    if (code === 4) return 'usage error (exit 4)';
  }
  if (family === 'unittest' && code === 5) return 'no tests ran (exit 5)';
  if ((family === 'mypy' || family === 'eslint' || family === 'ruff') && code === 2) {
    return `the tool could not run (exit 2)`;
  }
  if (family === 'pyright' && code >= 2 && code <= 4) return `the tool could not run (exit ${code})`;
  return null;
}
