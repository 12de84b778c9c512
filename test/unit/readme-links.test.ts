/**
 * The docs stay navigable: every relative link in every markdown doc of the repository points at a file that exists
 * and, with a `#fragment`, at a heading of that file (GitHub's anchor slugs). README.md stays a newcomer's page (at
 * most 200 lines), and its embedding example is the code `npm run check` type-checks (test/unit/readme-example.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Folders that hold no hand-written docs: installs, builds, test output, and data fixtures (agent memory files). */
const skippedDirs = new Set([
  'node_modules',
  'dist',
  'dist-lib',
  'test/.artifacts',
  'test/bench/.cache',
  'test/fixtures',
  'test-results',
  'playwright-report',
]);

/** Every `.md` file under `dir`, as repository-relative paths with `/`. */
function markdownFiles(dir = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !skippedDirs.has(rel)) found.push(...markdownFiles(rel));
    } else if (entry.isFile() && entry.name.endsWith('.md')) {
      found.push(rel);
    }
  }
  return found.sort();
}

/** The text with fenced code blocks blanked (line numbers kept): links and headings there are code, not markdown. */
function withoutFences(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && marker) {
      fence = marker;
      return '';
    }
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = null;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor for a heading (as github-slugger): the rendered text, lower case, punctuation dropped, spaces → `-`. */
function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*/g, '')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown text offers: its headings' slugs, a repeated slug numbered `-1`, `-2`, … as GitHub does. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of withoutFences(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

interface DocLink {
  readonly line: number;
  readonly target: string;
}

/** Inline links and images `[text](target "title")` and reference definitions `[id]: target`, outside code. */
function links(text: string): DocLink[] {
  const found: DocLink[] = [];
  withoutFences(text).forEach((raw, index) => {
    const line = raw.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (code) => ' '.repeat(code.length));
    for (const match of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^()\s]+)(?:\s+"[^"]*")?\s*\)/g)) {
      found.push({ line: index + 1, target: match[1]!.replace(/^<|>$/g, '') });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (definition) found.push({ line: index + 1, target: definition[1]! });
  });
  return found;
}

/** What the checker needs from the file system, so the control case can run on docs in memory. */
interface DocFiles {
  exists(file: string): boolean;
  /** The text of a markdown file, or null when it is not one. */
  read(file: string): string | null;
}

/** Problems with the relative links of `file` (repository-relative), one sentence each; [] when all resolve. */
function checkLinks(file: string, text: string, files: DocFiles): string[] {
  const problems: string[] = [];
  for (const { line, target } of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http(s):, mailto: and other schemes
    const hash = target.indexOf('#');
    const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
    const fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const where = `${file}:${line}: [${target}]`;
    let resolved = file;
    if (pathPart !== '') {
      resolved = path.posix.normalize(
        pathPart.startsWith('/') ? pathPart.slice(1) : path.posix.join(path.posix.dirname(file), pathPart),
      );
      if (resolved.startsWith('..')) {
        problems.push(`${where} leaves the repository`);
        continue;
      }
      if (!files.exists(resolved.replace(/\/$/, '') || '.')) {
        problems.push(`${where}: ${resolved} does not exist`);
        continue;
      }
    }
    if (fragment === null || /^L\d+(-L\d+)?$/.test(fragment)) continue;
    const targetText = resolved === file ? text : files.read(resolved);
    if (targetText === null)
      problems.push(`${where}: #${fragment} points into ${resolved}, which has no headings`);
    else if (!anchors(targetText).has(fragment))
      problems.push(`${where}: ${resolved} has no heading #${fragment}`);
  }
  return problems;
}

const repoFiles: DocFiles = {
  exists: (file) => existsSync(path.join(root, file)),
  read(file) {
    const full = path.join(root, file);
    return file.endsWith('.md') && existsSync(full) && statSync(full).isFile()
      ? readFileSync(full, 'utf8')
      : null;
  },
};

describe('markdown links', () => {
  it('computes GitHub anchors: punctuation dropped, code kept as text, repeats numbered', () => {
    expect(slug('Write coalescing (`sqlite/coalescing-vfs.ts`)')).toBe(
      'write-coalescing-sqlitecoalescing-vfsts',
    );
    expect(slug('`planCleanup(): Promise<CleanupPlan>` — dry run')).toBe(
      'plancleanup-promisecleanupplan--dry-run',
    );
    expect(slug("Skills and other agents' memory")).toBe('skills-and-other-agents-memory');
    expect(slug('Whole-brain export/import')).toBe('whole-brain-exportimport');
    expect(slug('snake_case and Ünïcode 2')).toBe('snake_case-and-ünïcode-2');
    expect([
      ...anchors('# A\n## Methods\n```sh\n# not a heading\n```\n## Methods\n### Methods ##\n'),
    ]).toEqual(['a', 'methods', 'methods-1', 'methods-2']);
  });

  it('reports a missing file and a missing heading (control: the checker sees what it is meant to)', () => {
    const docs = new Map([
      ['docs/guide.md', '# Guide\n## Set up\nSee [setup](#set-up) and [the API](../src/API.md#open).\n'],
      [
        'src/API.md',
        [
          '# API',
          '## Open',
          'Good: [guide](../docs/guide.md#set-up), [home](/docs/guide.md), [site](https://example.org/x#y).',
          'Broken: [gone](missing.md), [bad anchor](../docs/guide.md#install), [here](#close).',
          '`[not a link](nowhere.md)`',
          '```md',
          '[also not a link](nowhere.md)',
          '```',
        ].join('\n'),
      ],
    ]);
    const files: DocFiles = {
      exists: (file) => docs.has(file) || [...docs.keys()].some((doc) => doc.startsWith(`${file}/`)),
      read: (file) => docs.get(file) ?? null,
    };
    expect(checkLinks('docs/guide.md', docs.get('docs/guide.md')!, files)).toEqual([]);
    expect(checkLinks('src/API.md', docs.get('src/API.md')!, files)).toEqual([
      'src/API.md:4: [missing.md]: src/missing.md does not exist',
      'src/API.md:4: [../docs/guide.md#install]: docs/guide.md has no heading #install',
      'src/API.md:4: [#close]: src/API.md has no heading #close',
    ]);
  });

  it('every relative link in the docs resolves to a file, and every #fragment to one of its headings', () => {
    const docs = markdownFiles();
    // Not vacuous: the docs this test exists for are found, and they do link to each other.
    expect(docs).toEqual(expect.arrayContaining(['README.md', 'src/lib/API.md', 'test/bench/README.md']));
    const texts = docs.map((file) => [file, readFileSync(path.join(root, file), 'utf8')] as const);
    const linkCount = texts.reduce((sum, [, text]) => sum + links(text).length, 0);
    expect(linkCount).toBeGreaterThan(50);
    expect(texts.flatMap(([file, text]) => checkLinks(file, text, repoFiles))).toEqual([]);
  });
});

describe('README.md', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

  it('is a newcomer-sized page: at most 200 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('shows the embedding example that npm run check type-checks (test/unit/readme-example.ts)', () => {
    const example = readFileSync(path.join(root, 'test/unit/readme-example.ts'), 'utf8');
    const checked = /\/\/ README example: start\n([\s\S]*?)\/\/ README example: end/.exec(example)?.[1];
    expect(checked).toBeDefined();
    const shown = /```ts\n(import \{ openBrain \} from 'agent-brain';\n[\s\S]*?)```/.exec(readme)?.[1];
    expect(shown).toBeDefined();
    expect(shown).toBe(checked!.replace("from '../../src/lib';", "from 'agent-brain';"));
  });
});
