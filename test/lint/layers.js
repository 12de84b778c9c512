/**
 * The architecture as lint rules (used by eslint.config.js; proven by test/unit/layers.test.ts):
 * - `layers/imports`: each folder under src/ imports only the layers below it (table `allowed`). Relative imports
 *   are resolved against the importing file, so the rule judges where an import lands, not how it is spelled.
 * - `layers/sql`: SQL text (a string or template that starts a statement) only under src/storage/sqlite.
 */
import path from 'node:path';

const srcDir = path.resolve(import.meta.dirname, '../../src');

/** Layer → the layers (or single files, `layer/file`) it may import. Its own folder is always allowed. */
export const allowed = {
  core: [],
  storage: ['core'],
  engine: ['core', 'storage'],
  worker: ['core', 'engine'],
  lib: ['core', 'worker/protocol', 'worker/error-transfer', 'worker/owner-lock'],
  ui: ['lib'],
};

/** Packages a layer may not import (core stays pure: only the packages listed in `corePackages`). */
const corePackages = new Set([
  'yaml',
  // The tool-call classifier (src/core/tool-calls) applies unified diffs (`git apply`, `patch`) with it: pure JS.
  'diff',
]);
const deniedPackages = {
  lib: ['@journeyapps/wa-sqlite', 'fflate'],
  ui: ['@journeyapps/wa-sqlite', 'fflate'],
};

function layerOf(file) {
  const rel = path.relative(srcDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep)[0] ?? null;
}

function packageName(spec) {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Why `spec`, imported from `file`, breaks the layering — or null when it is allowed. */
export function layerViolation(file, spec) {
  const from = layerOf(path.resolve(file));
  if (!from || !(from in allowed)) return null;
  if (!spec.startsWith('.')) {
    const name = packageName(spec.split('?')[0]);
    if (from === 'core' && !corePackages.has(name) && !spec.startsWith('node:'))
      return `src/core is pure: it may import only core and ${[...corePackages].join(', ')}, not "${name}".`;
    if (from === 'core' && spec.startsWith('node:')) return `src/core runs everywhere: no "${spec}".`;
    if ((deniedPackages[from] ?? []).includes(name))
      return `src/${from} may not import "${name}" (it belongs to the engine's side of the worker).`;
    return null;
  }
  const target = path.resolve(path.dirname(file), spec.split('?')[0]);
  const to = layerOf(target);
  if (to === from) return null;
  if (!to) return `src/${from} imports "${spec}", outside src/.`;
  const rel = path
    .relative(srcDir, target)
    .split(path.sep)
    .join('/')
    .replace(/\.(ts|js)$/, '');
  const ok = allowed[from].some((entry) => entry === to || entry === rel);
  if (ok) return null;
  return `src/${from} may import ${allowed[from].join(', ') || 'only itself'}; "${spec}" is in src/${to}.`;
}

const importsRule = {
  meta: { type: 'problem', schema: [], docs: { description: 'Layer boundaries of src/' } },
  create(context) {
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const message = layerViolation(context.filename, source.value);
      if (message) context.report({ node: source, message });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** A string that begins (after whitespace) with an SQL statement keyword, upper case as this code writes SQL. */
const SQL =
  /^\s*(SELECT\s[\s\S]*\bFROM\b|INSERT\s+(OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(TEMP\s+|UNIQUE\s+|VIRTUAL\s+)?(TABLE|INDEX|TRIGGER|VIEW)\b|DROP\s+(TABLE|INDEX|TRIGGER|VIEW)\b|ALTER\s+TABLE\b|PRAGMA\s+\w+|WITH\s+(RECURSIVE\s+)?\w+\s+AS\s*\(|BEGIN\b|COMMIT\b|ROLLBACK\b|SAVEPOINT\b|VACUUM\b)/;

export function looksLikeSql(text) {
  return SQL.test(text);
}

const sqlRule = {
  meta: { type: 'problem', schema: [], docs: { description: 'SQL only in src/storage/sqlite' } },
  create(context) {
    const file = path.resolve(context.filename);
    const rel = path.relative(srcDir, file).split(path.sep).join('/');
    if (rel.startsWith('..') || rel.startsWith('storage/sqlite/')) return {};
    const report = (node) =>
      context.report({ node, message: 'SQL lives only in src/storage/sqlite: call a repository there.' });
    return {
      Literal(node) {
        if (typeof node.value === 'string' && looksLikeSql(node.value)) report(node);
      },
      TemplateLiteral(node) {
        const text = node.quasis.map((q) => q.value.cooked ?? q.value.raw).join('?');
        if (looksLikeSql(text)) report(node);
      },
    };
  },
};

export default { meta: { name: 'layers' }, rules: { imports: importsRule, sql: sqlRule } };
