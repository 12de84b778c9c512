/**
 * What an agent does, as data: the vocabulary an AgentDriver (the scripted demo, or a playground's model loop)
 * returns one at a time and the runner (agent.ts) carries out through the public API. Every action
 * records what it did as session events, so a restart can tell what is done.
 */

/** How an `edit` changes a file: replace exact text, append text, or create the file whole. */
export type EditOp =
  | { readonly op: 'create'; readonly content: string }
  | { readonly op: 'replace'; readonly from: string; readonly to: string }
  | { readonly op: 'append'; readonly text: string };

/** Which task an action belongs to: the main task (default) or a child agent's task, by its title. */
interface InTask {
  readonly child?: string;
}

export type AgentAction =
  | { readonly kind: 'instruct'; readonly text: string }
  | {
      readonly kind: 'plan';
      readonly goal: string;
      readonly steps: readonly { readonly what: string; readonly why: string }[];
    }
  | { readonly kind: 'start_step'; readonly n: number }
  | { readonly kind: 'complete_step'; readonly n: number; readonly note?: string }
  | ({
      readonly kind: 'decide';
      readonly text: string;
      readonly why?: string;
      readonly supersedes?: string;
    } & InTask)
  | ({ readonly kind: 'edit'; readonly path: string; readonly note: string; readonly edit: EditOp } & InTask)
  | ({
      readonly kind: 'validate';
      readonly name: string;
      /** The command line the check runs (default: its name, e.g. `npm test`). */
      readonly command?: string;
      readonly result: 'passed' | 'failed';
      readonly output: string;
    } & InTask)
  | ({ readonly kind: 'block'; readonly text: string } & InTask)
  | ({ readonly kind: 'unblock'; readonly blocker: string; readonly text: string } & InTask)
  | ({ readonly kind: 'ask'; readonly text: string } & InTask)
  | { readonly kind: 'answer'; readonly question: string; readonly text: string }
  | { readonly kind: 'spawn_child'; readonly title: string }
  | { readonly kind: 'finish_child'; readonly title: string }
  | ({ readonly kind: 'progress'; readonly text: string; readonly next?: string } & InTask)
  | ({ readonly kind: 'note'; readonly text: string } & InTask)
  /** Look a compressed-away detail up in the history, and note what was found. */
  | { readonly kind: 'recall'; readonly query: string; readonly why: string }
  | { readonly kind: 'compress'; readonly keepTail: number }
  | { readonly kind: 'finish' };

export type AgentActionKind = AgentAction['kind'];

/** The text of the note a `recall` records (how a restart tells the lookup was done). */
export const recallNote = (query: string, found: string) => `Looked up "${query}" in the history: ${found}`;

/** Applies an edit to a file's text (null: no such file). Returns null when the edit cannot apply. */
export function applyEdit(current: string | null, edit: EditOp): string | null {
  switch (edit.op) {
    case 'create':
      return edit.content;
    case 'replace':
      return current !== null && current.includes(edit.from) ? current.replace(edit.from, edit.to) : null;
    case 'append':
      return (current ?? '') + edit.text;
  }
}

/**
 * Whether the file already holds the edit's result (the edit ran, but the run stopped before recording it),
 * and if so what it held before — so a resumed edit checkpoints the true before/after and changes nothing twice.
 */
export function alreadyApplied(current: string | null, edit: EditOp): { before: string | null } | null {
  switch (edit.op) {
    case 'create':
      return current === edit.content ? { before: null } : null;
    case 'replace':
      // `to` may contain `from` (an edit that inserts before a line): the presence of `to` is what tells.
      return current !== null && current.includes(edit.to)
        ? { before: current.replace(edit.to, edit.from) }
        : null;
    case 'append':
      return current !== null && current.endsWith(edit.text)
        ? { before: current.slice(0, current.length - edit.text.length) }
        : null;
  }
}

/**
 * The tool call an action makes, in the shapes agents' transcripts use (Claude Code's `Edit`/`Write`/`Bash`), so
 * the demo's steps read like a real agent's; null for actions that are bookkeeping, not tool calls.
 */
export type ToolCallOf =
  | { readonly tool: 'Edit'; readonly input: { file_path: string; old_string: string; new_string: string } }
  | { readonly tool: 'Write'; readonly input: { file_path: string; content: string } }
  | { readonly tool: 'Bash'; readonly input: { command: string } }
  | { readonly tool: 'search_history'; readonly input: { query: string } };

/** The tool call of an `edit` (given the file's text after it, for an append), a `validate` or a `recall`. */
export function toolCallOf(action: AgentAction, after?: string): ToolCallOf | null {
  switch (action.kind) {
    case 'edit':
      if (action.edit.op === 'replace')
        return {
          tool: 'Edit',
          input: { file_path: action.path, old_string: action.edit.from, new_string: action.edit.to },
        };
      return {
        tool: 'Write',
        input: {
          file_path: action.path,
          content: action.edit.op === 'create' ? action.edit.content : (after ?? action.edit.text),
        },
      };
    case 'validate':
      return { tool: 'Bash', input: { command: action.command ?? action.name } };
    case 'recall':
      return { tool: 'search_history', input: { query: action.query } };
    default:
      return null;
  }
}
