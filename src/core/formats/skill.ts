/**
 * `SKILL.md` as the Agent Skills convention (agentskills.io) has it: YAML front matter with `name` (1–64 chars,
 * lowercase letters, digits and single hyphens, not at either end; equal to the skill's folder name) and
 * `description` (1–1024 chars: what the skill does and when to use it), optional `license`, `compatibility`
 * (≤ 500 chars), `metadata` (string map) and `allowed-tools`; then markdown instructions.
 *
 * The parser reports a skill that breaks the rules (problems) but never refuses to read it; `validateNewSkill`
 * is the strict check used before saving.
 */
import { BrainError } from '../errors';
import {
  createFrontMatter,
  getField,
  getText,
  type FrontMatter,
  type FrontMatterValue,
} from './front-matter';
import { dominantEol } from './lines';
import { parseMarkdown, serialiseMarkdown, setFrontMatterField, type MarkdownDocument } from './markdown';
import { problem, type FormatProblem } from './problems';

export const skillNamePattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const maxSkillNameChars = 64;
export const maxSkillDescriptionChars = 1024;
export const maxSkillCompatibilityChars = 500;

export interface Skill {
  /** From the front matter; `''` when missing (a problem says so). */
  readonly name: string;
  readonly description: string;
  readonly license: string | null;
  readonly compatibility: string | null;
  readonly metadata: Readonly<Record<string, string>>;
  readonly allowedTools: string | null;
  /** The instructions: everything after the front matter, as written. */
  readonly body: string;
  readonly document: MarkdownDocument;
  readonly problems: readonly FormatProblem[];
}

/** Why `name` is not a valid skill name, or null when it is. */
export function skillNameProblem(name: string): string | null {
  if (name === '') return 'a skill needs a name';
  if (name.length > maxSkillNameChars) return `a skill name has at most ${maxSkillNameChars} characters`;
  if (!skillNamePattern.test(name)) {
    return 'a skill name uses lowercase letters, digits and single hyphens, and does not start or end with a hyphen';
  }
  return null;
}

/** Parses a SKILL.md; `folderName` (the `<name>` in `skills/<name>/SKILL.md`) is checked against `name`. */
export function parseSkill(text: string, folderName?: string): Skill {
  const document = parseMarkdown(text);
  const fm = document.frontMatter;
  const problems: FormatProblem[] = [...document.problems];
  const at = fm ? 1 : undefined;
  if (!fm)
    problems.push(
      problem(
        'MissingField',
        'error',
        'A SKILL.md starts with front matter (---) holding at least name and description.',
        1,
      ),
    );
  const readText = (key: string) => textField(fm, key, problems);
  const name = (readText('name') ?? '').trim();
  const description = (readText('description') ?? '').trim();
  if (fm) {
    const nameIssue = skillNameProblem(name);
    if (nameIssue && !isListOrMap(getField(fm, 'name')))
      problems.push(
        problem(name === '' ? 'MissingField' : 'InvalidField', 'error', `name: ${nameIssue}.`, at),
      );
    else if (folderName !== undefined && folderName !== name) {
      problems.push(
        problem('InvalidField', 'warning', `name "${name}" differs from its folder "${folderName}".`, at),
      );
    }
    if (description === '' && !isListOrMap(getField(fm, 'description')))
      problems.push(
        problem('MissingField', 'error', 'description: say what the skill does and when to use it.', at),
      );
    else if (description.length > maxSkillDescriptionChars) {
      problems.push(
        problem(
          'InvalidField',
          'warning',
          `description is longer than ${maxSkillDescriptionChars} characters.`,
          at,
        ),
      );
    }
  }
  const compatibility = readText('compatibility') ?? null;
  if (compatibility !== null && compatibility.length > maxSkillCompatibilityChars) {
    problems.push(
      problem(
        'InvalidField',
        'warning',
        `compatibility is longer than ${maxSkillCompatibilityChars} characters.`,
        at,
      ),
    );
  }
  return {
    name,
    description,
    license: readText('license') ?? null,
    compatibility,
    metadata: stringMap(getField(fm, 'metadata'), problems),
    allowedTools: readText('allowed-tools') ?? null,
    body: text.slice((document.bom + (fm?.raw ?? '')).length),
    document,
    problems,
  };
}

const isListOrMap = (value: FrontMatterValue | undefined) => typeof value === 'object' && value !== null;

/**
 * A field the convention wants as text. A number or boolean reads as written (`getText`); a list or a map is an
 * `InvalidField` problem and reads as absent — turning it into text would be a guess.
 */
function textField(fm: FrontMatter | null, key: string, problems: FormatProblem[]): string | undefined {
  if (isListOrMap(getField(fm, key))) {
    const required = key === 'name' || key === 'description';
    const message = `${key}: write it as text, not as a list or a map.`;
    problems.push(problem('InvalidField', required ? 'error' : 'warning', message, 1));
  }
  return getText(fm, key);
}

/**
 * `metadata`, a map of text. A number or boolean value becomes `String(value)` (YAML has already read `1.0` as 1:
 * quote it to keep it as written); a list or map value, or a `metadata` that is not a map, is reported and left out.
 */
function stringMap(value: FrontMatterValue | undefined, problems: FormatProblem[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === undefined || value === null) return out;
  const invalid = (what: string) =>
    problems.push(problem('InvalidField', 'warning', `metadata${what} is not text; it is left out.`, 1));
  if (typeof value !== 'object' || Array.isArray(value)) invalid('');
  else
    for (const [key, v] of Object.entries(value)) {
      if (isListOrMap(v)) invalid(`.${key}`);
      else if (v !== null) out[key] = String(v);
    }
  return out;
}

export interface NewSkill {
  readonly name: string;
  readonly description: string;
  /** Markdown instructions (without front matter). */
  readonly body: string;
  readonly license?: string;
  readonly compatibility?: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

/** A fresh SKILL.md text; throws `InvalidArgument` for a name or description the convention does not allow. */
export function createSkillText(skill: NewSkill): string {
  validateSkillFields(skill.name, skill.description);
  const fields: Record<string, FrontMatterValue> = {
    name: skill.name,
    description: skill.description.trim(),
  };
  if (skill.license) fields['license'] = skill.license;
  if (skill.compatibility) fields['compatibility'] = skill.compatibility;
  if (skill.metadata && Object.keys(skill.metadata).length > 0) fields['metadata'] = { ...skill.metadata };
  const eol = dominantEol(skill.body);
  const body = skill.body === '' || /[\r\n]$/.test(skill.body) ? skill.body : skill.body + eol;
  return createFrontMatter(fields, eol).raw + (body.startsWith(eol) || body === '' ? body : eol + body);
}

/** Sets one front matter field of an existing SKILL.md, every other byte kept. */
export function setSkillField(text: string, key: string, value: FrontMatterValue | undefined): string {
  return serialiseMarkdown(setFrontMatterField(parseMarkdown(text), key, value));
}

export function validateSkillFields(name: string, description: string): void {
  const nameIssue = skillNameProblem(name);
  if (nameIssue) throw new BrainError('InvalidArgument', `"${name}": ${nameIssue}.`);
  if (description.trim() === '')
    throw new BrainError('InvalidArgument', 'A skill needs a description: what it does and when to use it.');
  if (description.trim().length > maxSkillDescriptionChars) {
    throw new BrainError(
      'InvalidArgument',
      `A skill description has at most ${maxSkillDescriptionChars} characters.`,
    );
  }
}

/** The strict check before a save: the text parses as a skill named `name` with no errors. */
export function validateSkillText(text: string, name: string): Skill {
  const skill = parseSkill(text, name);
  const errors = skill.problems.filter((p) => p.severity === 'error' || p.code === 'InvalidField');
  if (errors.length > 0)
    throw new BrainError(
      'InvalidArgument',
      `This SKILL.md cannot be saved: ${errors.map((p) => p.message).join(' ')}`,
    );
  return skill;
}
