/**
 * Paths inside a project folder. Every path that reaches the folder goes through `normaliseProjectPath` first, so
 * nothing can name a file outside the project: `..`, absolute paths, drive letters, backslashes, look-alike
 * slashes, NUL and other control characters are refused with `PathEscapes` rather than "cleaned up".
 *
 * A normalised path is relative, uses `/` only, has no empty, `.` or `..` segments and no trailing slash.
 * The project root itself is the empty path `''` (only where a directory is meant, see `normaliseProjectDir`).
 */
import { BrainError } from './errors';

declare const projectPathBrand: unique symbol;
/** A path already checked by `normaliseProjectPath`. */
export type ProjectPath = string & { readonly [projectPathBrand]: true };

export const maxPathChars = 1024;
export const maxSegmentChars = 255;

/** The folder the agent's own files live in. */
export const agentDir = '.agent';

// Characters that look like or act as separators somewhere: backslash, fraction/division slashes, full-width
// and other slash look-alikes, plus C0/C1 controls (NUL included) and DEL.
// eslint-disable-next-line no-control-regex
const forbiddenChars = /[\\\u2044\u2215\u29F8\uFF0F\uFF3C\u0000-\u001F\u007F-\u009F]/;

function refuse(path: string, reason: string): never {
  throw new BrainError('PathEscapes', `The path "${printable(path)}" is refused: ${reason}.`, {
    path,
    reason,
  });
}

/** Control characters shown as \uXXXX so a message never carries a raw NUL or newline. */
function printable(path: string): string {
  const controls = /[\u0000-\u001F\u007F-\u009F]/g; // eslint-disable-line no-control-regex
  return path.replace(controls, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function segmentsOf(input: unknown, allowRoot: boolean): string[] {
  if (typeof input !== 'string') {
    throw new BrainError('InvalidArgument', `A project path must be a string, got ${typeof input}.`);
  }
  if (input.length > maxPathChars) refuse(input.slice(0, 80) + '…', `longer than ${maxPathChars} characters`);
  const bad = forbiddenChars.exec(input);
  if (bad) {
    const what =
      bad[0] === '\\'
        ? 'backslashes are not separators here'
        : 'it contains a control or look-alike separator character';
    refuse(input, what);
  }
  if (input.startsWith('/')) refuse(input, 'absolute paths leave the project folder');
  if (/^[A-Za-z]:/.test(input)) refuse(input, 'a drive letter leaves the project folder');
  if (input.startsWith('~')) refuse(input, 'a home-directory path leaves the project folder');

  const raw = input.split('/');
  // One trailing slash is tolerated ("dir/"); empty inner segments ("a//b") are not.
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop();
  const segments: string[] = [];
  for (const segment of raw) {
    if (segment === '..') refuse(input, '".." leaves the project folder');
    if (segment === '.') continue;
    if (segment === '') {
      if (raw.length === 1) break;
      refuse(input, 'it has an empty segment ("//")');
    }
    if (segment.length > maxSegmentChars)
      refuse(input, `a name is longer than ${maxSegmentChars} characters`);
    if (/^\.+$/.test(segment)) refuse(input, `"${segment}" is not a file name`);
    segments.push(segment);
  }
  if (segments.length === 0 && !allowRoot) refuse(input, 'it names the project folder itself, not a file');
  return segments;
}

/** A file path inside the project; throws `PathEscapes` (or `InvalidArgument` for a non-string). */
export function normaliseProjectPath(input: unknown): ProjectPath {
  return segmentsOf(input, false).join('/') as ProjectPath;
}

/** A directory inside the project; `''`, `'.'` and `'./'` are the project root. */
export function normaliseProjectDir(input: unknown): ProjectPath {
  return segmentsOf(input, true).join('/') as ProjectPath;
}

/** The segments of a normalised path (`''` → `[]`). */
export function pathSegments(path: ProjectPath): string[] {
  return path === '' ? [] : path.split('/');
}

/** Joins a normalised directory and a relative path, re-checking the result. */
export function joinProjectPath(dir: string, relative: string): ProjectPath {
  return normaliseProjectPath(dir === '' ? relative : `${dir}/${relative}`);
}

export function parentDir(path: ProjectPath): ProjectPath {
  const at = path.lastIndexOf('/');
  return (at < 0 ? '' : path.slice(0, at)) as ProjectPath;
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** True for `.agent` itself and anything below it. */
export function isAgentPath(path: ProjectPath): boolean {
  return path === agentDir || path.startsWith(`${agentDir}/`);
}
