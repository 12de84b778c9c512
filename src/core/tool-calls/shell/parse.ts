/**
 * Tokens → a flat list of pipelines joined by `&&`, `||`, `;`, `&` — the shape that decides which command's
 * exit status a tool call's exit code is. Grouping is flattened: `( … )` and `{ …; }` add no level, and the
 * reserved words of `if`/`while`/`until` are dropped so their commands are listed in order (`if pytest; then
 * echo ok; fi` → `pytest ; echo ok`). That keeps `a || b && c` exact (bash's `&&`/`||` are left-associative of
 * equal precedence) and misreads only `a && (b || c)`, which agents rarely write.
 */
import { lex, type Redirect, type Word } from './lex';

export interface SimpleCommand {
  /** `NAME=value` words before the command name. */
  readonly assignments: readonly Word[];
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  readonly start: number;
  readonly end: number;
}

export interface Pipeline {
  readonly commands: readonly SimpleCommand[];
  readonly negated: boolean;
}

export type Connector = '&&' | '||' | ';' | '&';

export interface ListItem {
  readonly pipeline: Pipeline;
  /** How the next pipeline follows (a newline and `;;` read as `;`); null after the last. */
  readonly next: Connector | null;
}

export interface CommandLine {
  readonly source: string;
  readonly items: readonly ListItem[];
  readonly problems: readonly string[];
}

const droppedWords = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '{',
  '}',
  'esac',
]);
const assignment = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

interface Building {
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
  start: number;
  end: number;
}

/** Parse a command line. */
export function parseCommandLine(source: string): CommandLine {
  const { tokens, problems } = lex(source);
  const items: { pipeline: Pipeline; next: Connector | null }[] = [];
  let commands: SimpleCommand[] = [];
  let negated = false;
  let cmd: Building = fresh();

  const endCommand = () => {
    if (cmd.words.length > 0 || cmd.assignments.length > 0 || cmd.redirects.length > 0) {
      commands.push({ ...cmd });
    }
    cmd = fresh();
  };
  const endPipeline = (next: Connector) => {
    endCommand();
    if (commands.length > 0) items.push({ pipeline: { commands, negated }, next });
    else {
      const last = items[items.length - 1];
      if (last && (next === '&&' || next === '||')) last.next = next;
    }
    commands = [];
    negated = false;
  };

  for (const token of tokens) {
    if (token.kind === 'word') {
      const atStart = cmd.words.length === 0 && cmd.assignments.length === 0;
      if (atStart && !token.quoted && droppedWords.has(token.value) && cmd.redirects.length === 0) continue;
      if (atStart && !token.quoted && token.value === '!' && commands.length === 0) {
        negated = !negated;
        continue;
      }
      if (cmd.words.length === 0 && assignment.test(token.raw)) cmd.assignments.push(token);
      else cmd.words.push(token);
      track(cmd, token.start, token.end);
    } else if (token.kind === 'redirect') {
      cmd.redirects.push(token);
      track(cmd, token.start, token.target ? token.target.end : token.end);
    } else if (token.op === '|' || token.op === '|&') {
      endCommand();
    } else if (token.op === '(' || token.op === ')') {
      if (token.op === ')') endCommand();
    } else {
      const op = token.op;
      endPipeline(op === '\n' || op === ';;' ? ';' : op);
    }
  }
  endCommand();
  if (commands.length > 0) items.push({ pipeline: { commands, negated }, next: null });
  const lastItem = items[items.length - 1];
  if (lastItem && lastItem.next !== '&') lastItem.next = null;
  return { source, items, problems };
}

function fresh(): Building {
  return { assignments: [], words: [], redirects: [], start: -1, end: -1 };
}

function track(cmd: Building, start: number, end: number) {
  if (cmd.start < 0) cmd.start = start;
  cmd.end = Math.max(cmd.end, end);
}

/** The source text of one command (its words and redirections; a here-document's body is not included). */
export function commandText(line: CommandLine, cmd: SimpleCommand): string {
  if (cmd.start < 0) return '';
  return line.source.slice(cmd.start, cmd.end);
}
