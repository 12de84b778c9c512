/**
 * `.agent/plan/PLAN.md`: what the agent is going to do and why, as an ordered checklist.
 *
 *     # Plan: Fix the off-by-one in paginate()
 *     ## Goal
 *     Page 3 shows the last item of page 2. Fix it without changing the public API.
 *     ## Steps
 *     - [x] Reproduce with a failing test {#reproduce}
 *     - [/] Fix the boundary in paginate {#fix}
 *     - [ ] Run the whole suite {#validate}
 *
 * Items are every task-list item (`- [ ]`, `* [x]`, `1. [ ]` …) outside code blocks, in file order, nested ones
 * included. The mark says the status: `[ ]` todo, `[x]`/`[X]` done, `[/]` (or `[~]`) started, `[-]` skipped. An
 * optional id `{#id}` at the end of the item's first line gives it a stable name. Changing a status rewrites that
 * one mark character and nothing else.
 */
import { BrainError } from '../errors';
import { createFrontMatter } from './front-matter';
import { parseListItems } from './list-items';
import { findSection, parseMarkdown, type MarkdownDocument } from './markdown';
import { problem, type FormatProblem } from './problems';
import { formatVersion } from './version';

export const planFormatVersion = 1;

export type PlanItemStatus = 'todo' | 'started' | 'done' | 'skipped';

export interface PlanItem {
  /** 0-based position among the plan's items. */
  readonly index: number;
  readonly id: string | null;
  /** The item's text without its checkbox and id. */
  readonly text: string;
  readonly status: PlanItemStatus;
  /** The character between the brackets, as written. */
  readonly mark: string;
  /** 0 for a top-level item, 1 for one nested under it, … */
  readonly depth: number;
  readonly line: number;
  /** Title of the section the item is in, or null before the first heading. */
  readonly section: string | null;
}

/** PLAN.md read (its items, not the task plan's steps in agent.db: core/plan/model.ts). */
export interface PlanFile {
  readonly version: number;
  /** The first `#` heading, without a leading "Plan:". */
  readonly title: string | null;
  /** The body of the "Goal" (or "Why") section, trimmed; null if there is none. */
  readonly goal: string | null;
  readonly items: readonly PlanItem[];
  readonly document: MarkdownDocument;
  readonly problems: readonly FormatProblem[];
}

export const planItemIdPattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const idSuffix = /[ \t]*\{#([A-Za-z0-9][A-Za-z0-9_.-]{0,63})\}[ \t]*$/;

const statusOfMark = (mark: string): PlanItemStatus =>
  mark === 'x' || mark === 'X'
    ? 'done'
    : mark === '/' || mark === '~'
      ? 'started'
      : mark === '-'
        ? 'skipped'
        : 'todo';

const markOfStatus: Record<PlanItemStatus, string> = { todo: ' ', started: '/', done: 'x', skipped: '-' };

interface LocatedItem extends PlanItem {
  /** Offset of the mark character in the whole text. */
  readonly markAt: number;
  readonly endAt: number;
  readonly indent: number;
}

function locateItems(text: string, document: MarkdownDocument): LocatedItem[] {
  const contentStart = document.bom.length + (document.frontMatter?.raw.length ?? 0);
  const items = parseListItems(text.slice(contentStart), document.preambleLine).filter(
    (i) => i.checkbox !== null,
  );
  const indents: number[] = [];
  return items.map((item, index) => {
    while (indents.length > 0 && (indents[indents.length - 1] as number) >= item.indent) indents.pop();
    const depth = indents.length;
    indents.push(item.indent);
    const [first = '', ...rest] = item.text.split('\n');
    const id = idSuffix.exec(first);
    const section = [...document.sections].reverse().find((s) => s.line < item.line)?.title ?? null;
    const mark = item.checkbox as string;
    return {
      index,
      id: id ? (id[1] as string) : null,
      text: [id ? first.slice(0, id.index) : first, ...rest].join('\n').trim(),
      status: statusOfMark(mark),
      mark,
      depth,
      line: item.line,
      section,
      markAt: contentStart + (item.checkboxAt as number),
      endAt: contentStart + item.end,
      indent: item.indent,
    };
  });
}

export function parsePlan(text: string): PlanFile {
  const document = parseMarkdown(text);
  const problems: FormatProblem[] = [...document.problems];
  const version = formatVersion(document, planFormatVersion, 'PLAN.md', problems);
  const items = locateItems(text, document).map(
    ({ markAt: _m, endAt: _e, indent: _i, ...item }): PlanItem => item,
  );
  const seen = new Map<string, number>();
  for (const item of items) {
    if (item.id === null) continue;
    const first = seen.get(item.id);
    if (first !== undefined) {
      problems.push(
        problem(
          'DuplicateId',
          'warning',
          `Plan item id "${item.id}" is used on line ${first} and again on line ${item.line}.`,
          item.line,
        ),
      );
    } else seen.set(item.id, item.line);
  }
  const h1 = document.sections.find((s) => s.level === 1)?.title ?? null;
  const goalIndex = [findSection(document, 'Goal'), findSection(document, 'Why')].find((i) => i >= 0);
  const goal = goalIndex === undefined ? null : (document.sections[goalIndex]?.body.trim() ?? null);
  return {
    version,
    title: h1 === null ? null : h1.replace(/^plan\s*:\s*/i, ''),
    goal: goal || null,
    items,
    document,
    problems,
  };
}

/** Which item: its id, or its 0-based position. */
export type PlanItemRef = { readonly id: string } | { readonly index: number };

function findItem(items: readonly LocatedItem[], ref: PlanItemRef): LocatedItem {
  const item = 'id' in ref ? items.find((i) => i.id === ref.id) : items[ref.index];
  if (!item) {
    const what = 'id' in ref ? `id "${ref.id}"` : `number ${ref.index + 1}`;
    throw new BrainError('NotFound', `The plan has no item with ${what} (it has ${items.length}).`);
  }
  return item;
}

/** Sets one item's status by rewriting its mark character; every other byte stays. */
export function setPlanItemStatus(text: string, ref: PlanItemRef, status: PlanItemStatus): string {
  const item = findItem(locateItems(text, parseMarkdown(text)), ref);
  if (item.status === status) return text;
  return text.slice(0, item.markAt) + markOfStatus[status] + text.slice(item.markAt + 1);
}

export interface NewPlanItem {
  readonly text: string;
  readonly id?: string;
  readonly status?: PlanItemStatus;
}

function itemLine(item: NewPlanItem, eol: string, indent = ''): string {
  if (item.id !== undefined && !planItemIdPattern.test(item.id)) {
    throw new BrainError(
      'InvalidArgument',
      `"${item.id}" is not a plan item id (letters, digits, . _ -; up to 64).`,
    );
  }
  const text = item.text.trim();
  if (text === '') throw new BrainError('InvalidArgument', 'A plan item needs text.');
  const lines = text.split(/\r\n|\r|\n/);
  const id = item.id === undefined ? '' : ` {#${item.id}}`;
  const first = `${indent}- [${markOfStatus[item.status ?? 'todo']}] ${lines[0] as string}${id}${eol}`;
  return (
    first +
    lines
      .slice(1)
      .map((l) => `${indent}  ${l}${eol}`)
      .join('')
  );
}

/**
 * Adds an item after the plan's last top-level item (at the end of the file when the plan has none yet).
 * Throws `Conflict` if the id is already taken.
 */
export function appendPlanItem(text: string, item: NewPlanItem): string {
  const document = parseMarkdown(text);
  const items = locateItems(text, document);
  if (item.id !== undefined && items.some((i) => i.id === item.id)) {
    throw new BrainError('Conflict', `The plan already has an item with id "${item.id}".`);
  }
  const eol = document.eol;
  const topLevel = items.filter((i) => i.depth === 0);
  const last = topLevel[topLevel.length - 1];
  // Nested items of the last top-level one come before the insertion point.
  const after = last
    ? Math.max(...items.filter((i) => i.index >= last.index).map((i) => i.endAt))
    : text.length;
  const head = text.slice(0, after);
  const sep = head === '' || /[\r\n]$/.test(head) ? '' : eol;
  return head + sep + itemLine(item, eol, last ? ' '.repeat(last.indent) : '') + text.slice(after);
}

export interface NewPlan {
  readonly title: string;
  readonly goal?: string;
  readonly items: readonly NewPlanItem[];
}

/** A fresh PLAN.md. */
export function createPlanText(plan: NewPlan, eol = '\n'): string {
  const ids = new Set<string>();
  for (const item of plan.items) {
    if (item.id === undefined) continue;
    if (ids.has(item.id)) throw new BrainError('InvalidArgument', `Plan item id "${item.id}" is used twice.`);
    ids.add(item.id);
  }
  const goal = plan.goal?.trim()
    ? `## Goal${eol}${eol}${plan.goal
        .trim()
        .split(/\r\n|\r|\n/)
        .join(eol)}${eol}${eol}`
    : '';
  return (
    createFrontMatter({ version: planFormatVersion }, eol).raw +
    `${eol}# Plan: ${plan.title.trim()}${eol}${eol}` +
    goal +
    `## Steps${eol}${eol}` +
    plan.items.map((item) => itemLine(item, eol)).join('')
  );
}
