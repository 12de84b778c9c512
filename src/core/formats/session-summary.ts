/**
 * `.agent/SESSION_SUMMARY.md`: the active checkpoint of a session, written for the next context window and for
 * a person. What goes in it is the compression feature's business; this module fixes the layout:
 *
 *     ---
 *     version: 1
 *     session: 12
 *     task: 34
 *     updated: 2026-11-30T14:12:00.000Z
 *     ---
 *     # Session summary: Fix the off-by-one in paginate()
 *     ## Goal                 one paragraph
 *     ## Latest instruction   the user's last instruction, verbatim
 *     ## Decisions in force   list
 *     ## Changed files        list, e.g. "`src/paginate.ts` (checkpoint 12)"
 *     ## Validation           list of runs and results
 *     ## Blocker              paragraph, or "None."
 *     ## Next action          the first unfinished action
 *     ## Open questions       list
 *
 * Sections are found by title (aliases below, case-insensitive); any other section is kept and listed in
 * `otherSections`. Paragraph sections read as trimmed text (null when empty), list sections as their items.
 */
import type { FormatProblem } from './problems';
import { createFrontMatter, getField, getText, type FrontMatterValue } from './front-matter';
import { parseListItems } from './list-items';
import { normaliseTitle, parseMarkdown, type MarkdownDocument } from './markdown';
import { formatVersion } from './version';

export const sessionSummaryFormatVersion = 1;

type TextKey = 'goal' | 'latestInstruction' | 'blocker' | 'nextAction';
const listKeys = ['decisions', 'changedFiles', 'validation', 'openQuestions'] as const;
type ListKey = (typeof listKeys)[number];

/** Section titles each field is read from (first is the one written). */
export const sessionSummarySections: Readonly<Record<TextKey | ListKey, readonly string[]>> = {
  goal: ['Goal'],
  latestInstruction: ['Latest instruction', 'Latest user instruction'],
  decisions: ['Decisions in force', 'Decisions'],
  changedFiles: ['Changed files', 'Files changed'],
  validation: ['Validation', 'Validation done'],
  blocker: ['Blocker', 'Current blocker', 'Blockers'],
  nextAction: ['Next action', 'First unfinished action', 'Next'],
  openQuestions: ['Open questions', 'Questions'],
};

export interface SessionSummaryContent {
  readonly title: string | null;
  readonly sessionId: string | null;
  readonly taskId: string | null;
  /** The `updated` time, epoch ms, when it parses. */
  readonly updatedAt: number | null;
  readonly goal: string | null;
  readonly latestInstruction: string | null;
  readonly decisions: readonly string[];
  readonly changedFiles: readonly string[];
  readonly validation: readonly string[];
  readonly blocker: string | null;
  readonly nextAction: string | null;
  readonly openQuestions: readonly string[];
}

export interface SessionSummary extends SessionSummaryContent {
  readonly version: number;
  /** Sections this layout does not know, as written. */
  readonly otherSections: readonly { readonly title: string; readonly body: string }[];
  readonly document: MarkdownDocument;
  readonly problems: readonly FormatProblem[];
}

const keyOfTitle = new Map<string, TextKey | ListKey>(
  Object.entries(sessionSummarySections).flatMap(([key, titles]) =>
    titles.map((t) => [normaliseTitle(t), key as TextKey | ListKey]),
  ),
);

const idText = (value: FrontMatterValue | undefined) =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null;

export function parseSessionSummary(text: string): SessionSummary {
  const document = parseMarkdown(text);
  const problems: FormatProblem[] = [...document.problems];
  const version = formatVersion(document, sessionSummaryFormatVersion, 'SESSION_SUMMARY.md', problems);
  const texts: Partial<Record<TextKey, string | null>> = {};
  const lists: Partial<Record<ListKey, string[]>> = {};
  const otherSections: { title: string; body: string }[] = [];
  for (const section of document.sections) {
    if (section.level === 1) continue;
    const key = keyOfTitle.get(normaliseTitle(section.title));
    if (key === undefined || key in texts || key in lists) {
      otherSections.push({ title: section.title, body: section.body });
    } else if ((listKeys as readonly string[]).includes(key)) {
      lists[key as ListKey] = parseListItems(section.body, section.line + 1)
        .filter((i) => i.indent === 0)
        .map((i) => i.text);
    } else {
      const body = section.body.trim();
      texts[key as TextKey] = body === '' || /^(none\.?|—|-)$/i.test(body) ? null : body;
    }
  }
  const updated = getText(document.frontMatter, 'updated');
  const updatedAt = updated === undefined ? null : Date.parse(updated);
  const h1 = document.sections.find((s) => s.level === 1)?.title ?? null;
  return {
    version,
    title: h1 === null ? null : h1.replace(/^session summary\s*:\s*/i, ''),
    sessionId: idText(getField(document.frontMatter, 'session')),
    taskId: idText(getField(document.frontMatter, 'task')),
    updatedAt: updatedAt === null || Number.isNaN(updatedAt) ? null : updatedAt,
    goal: texts.goal ?? null,
    latestInstruction: texts.latestInstruction ?? null,
    decisions: lists.decisions ?? [],
    changedFiles: lists.changedFiles ?? [],
    validation: lists.validation ?? [],
    blocker: texts.blocker ?? null,
    nextAction: texts.nextAction ?? null,
    openQuestions: lists.openQuestions ?? [],
    otherSections,
    document,
    problems,
  };
}

/** A fresh SESSION_SUMMARY.md in the layout above; empty lists and null texts are written as "None." */
export function createSessionSummaryText(summary: SessionSummaryContent, eol = '\n'): string {
  const fields: Record<string, FrontMatterValue> = { version: sessionSummaryFormatVersion };
  if (summary.sessionId !== null) fields['session'] = asNumberIfNumeric(summary.sessionId);
  if (summary.taskId !== null) fields['task'] = asNumberIfNumeric(summary.taskId);
  if (summary.updatedAt !== null) fields['updated'] = new Date(summary.updatedAt).toISOString();
  const lines = (text: string) =>
    text
      .trim()
      .split(/\r\n|\r|\n/)
      .join(eol);
  const section = (key: TextKey | ListKey) => {
    const value = summary[key];
    const body = Array.isArray(value)
      ? value.length === 0
        ? 'None.'
        : value
            .map(
              (item: string) =>
                `- ${item
                  .trim()
                  .split(/\r\n|\r|\n/)
                  .join(`${eol}  `)}`,
            )
            .join(eol)
      : typeof value === 'string' && value.trim() !== ''
        ? lines(value)
        : 'None.';
    return `## ${sessionSummarySections[key][0] as string}${eol}${eol}${body}${eol}${eol}`;
  };
  const order: (TextKey | ListKey)[] = [
    'goal',
    'latestInstruction',
    'decisions',
    'changedFiles',
    'validation',
    'blocker',
    'nextAction',
    'openQuestions',
  ];
  const title = summary.title?.trim() ? `# Session summary: ${summary.title.trim()}` : '# Session summary';
  const text =
    createFrontMatter(fields, eol).raw + `${eol}${title}${eol}${eol}` + order.map(section).join('');
  return text.slice(0, text.length - eol.length);
}

function asNumberIfNumeric(id: string): FrontMatterValue {
  return /^\d{1,15}$/.test(id) ? Number(id) : id;
}
