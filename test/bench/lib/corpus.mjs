/**
 * The replay corpus: successive published versions of real npm packages (downloaded once with `npm pack` into
 * the git-ignored .cache), turned into the file changes an agent would checkpoint: the first version of each
 * package adds every file, each later version changes, adds or deletes the files that differ.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export const CACHE = new URL('../.cache/', import.meta.url).pathname;

/** The packages and versions (oldest first), and which of their files take part. */
export const corpusSpec = [
  { name: 'react-dom', versions: ['18.1.0', '18.2.0', '18.3.0', '18.3.1'] },
  { name: 'vue', versions: ['3.4.33', '3.4.34', '3.4.35', '3.4.36', '3.4.37', '3.4.38'] },
  { name: 'lodash', versions: ['4.17.15', '4.17.16', '4.17.17', '4.17.19', '4.17.20', '4.17.21'] },
  {
    name: 'express',
    versions: [
      '4.18.0',
      '4.18.1',
      '4.18.2',
      '4.18.3',
      '4.19.0',
      '4.19.1',
      '4.19.2',
      '4.20.0',
      '4.21.0',
      '4.21.1',
      '4.21.2',
    ],
  },
  // One file of several MiB, as agents do edit generated bundles.
  { name: 'typescript', versions: ['5.5.3', '5.5.4'], files: /^lib\/typescript\.js$/ },
  // Binary bodies: a wasm build and its glue, across releases.
  {
    name: '@journeyapps/wa-sqlite',
    versions: ['1.7.2', '2.0.0', '2.0.4', '2.0.6'],
    files: /^(dist\/wa-sqlite\.(wasm|mjs)|src\/[^/]+\.js)$/,
  },
];

const tarballName = (name, version) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

/** Downloads the tarballs the cache lacks, in one `npm pack` call. */
function ensureTarballs(dir) {
  mkdirSync(dir, { recursive: true });
  const missing = corpusSpec.flatMap(({ name, versions }) =>
    versions
      .filter((version) => !existsSync(join(dir, tarballName(name, version))))
      .map((version) => `${name}@${version}`),
  );
  if (missing.length === 0) return;
  console.log(`  downloading ${missing.length} tarballs with npm pack…`);
  execFileSync('npm', ['pack', '--silent', ...missing], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Regular files of a .tgz, without the leading `package/`. */
export function untar(tgz) {
  const tar = gunzipSync(tgz);
  const files = new Map();
  let pos = 0;
  let longName = null;
  while (pos + 512 <= tar.length) {
    const header = tar.subarray(pos, pos + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start, length) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 48);
    const body = tar.subarray(pos + 512, pos + 512 + size);
    pos += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      const match = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      longName = match ? match[1] : null;
      continue;
    }
    if (type !== '0' && type !== '7') continue;
    const prefix = field(345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    longName = null;
    files.set(name.replace(/^[^/]+\//, ''), Buffer.from(body));
  }
  return files;
}

function isText(bytes) {
  if (bytes.subarray(0, 8000).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds (or reuses) the corpus: `bodies.bin` holds each distinct body once; `manifest.json` lists the bodies
 * (offset, length, text?, sha256) and the replay as batches of changes, one batch per package version.
 */
export function buildCorpus() {
  const specId = createHash('sha256')
    .update(JSON.stringify(corpusSpec, (k, v) => (v instanceof RegExp ? v.source : v)))
    .digest('hex')
    .slice(0, 12);
  const dir = join(CACHE, `corpus-${specId}`);
  const manifestPath = join(dir, 'manifest.json');
  if (existsSync(manifestPath)) return { dir, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) };

  const tgzDir = join(CACHE, 'tgz');
  ensureTarballs(tgzDir);
  const bodies = [];
  const chunks = [];
  let offset = 0;
  const indexByHash = new Map();
  const bodyIndex = (bytes) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    let index = indexByHash.get(sha256);
    if (index === undefined) {
      index = bodies.length;
      indexByHash.set(sha256, index);
      bodies.push({ offset, length: bytes.length, text: isText(bytes), sha256 });
      chunks.push(bytes);
      offset += bytes.length;
    }
    return index;
  };
  const batches = [];
  const snapshots = [];
  for (const { name, versions, files: filter } of corpusSpec) {
    let previous = new Map();
    for (const version of versions) {
      const all = untar(readFileSync(join(tgzDir, tarballName(name, version))));
      const current = new Map(
        [...all]
          .filter(([path]) => !filter || filter.test(path))
          .map(([path, bytes]) => [path, bodyIndex(bytes)]),
      );
      const changes = [];
      for (const path of new Set([...previous.keys(), ...current.keys()])) {
        const before = previous.get(path) ?? null;
        const after = current.get(path) ?? null;
        if (before !== after) changes.push({ path: `${name}/${path}`, before, after });
      }
      changes.sort((a, b) => (a.path < b.path ? -1 : 1));
      batches.push({ label: `${name}@${version}`, changes });
      snapshots.push({
        label: `${name}@${version}`,
        package: name,
        files: [...current].map(([path, body]) => [path, body]),
      });
      previous = current;
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bodies.bin'), Buffer.concat(chunks));
  const manifest = { specId, bodies, batches, snapshots };
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return { dir, manifest };
}

/** Logical bytes of the replay: every before and after body of every change, duplicates counted. */
export function corpusFigures(manifest) {
  let changes = 0;
  let sides = 0;
  let rawBytes = 0;
  let maxBody = 0;
  for (const batch of manifest.batches) {
    for (const change of batch.changes) {
      changes++;
      for (const index of [change.before, change.after]) {
        if (index === null) continue;
        sides++;
        rawBytes += manifest.bodies[index].length;
        maxBody = Math.max(maxBody, manifest.bodies[index].length);
      }
    }
  }
  const distinctBytes = manifest.bodies.reduce((sum, body) => sum + body.length, 0);
  return {
    batches: manifest.batches.length,
    changes,
    sides,
    rawBytes,
    distinctBodies: manifest.bodies.length,
    distinctBytes,
    maxBody,
  };
}

/**
 * The smoke run's corpus (`npm run bench -- --smoke`): no download, generated in a few milliseconds, the same
 * manifest shape as `buildCorpus` — two "packages" of text files edited over three versions (files changed, added
 * and deleted) and a binary body, ~0.3 MiB in all. A fixed seed: the same bytes every run.
 */
export function buildSmokeCorpus() {
  const dir = join(CACHE, 'corpus-smoke');
  let state = 12345;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const line = () =>
    `export const v${Math.floor(next() * 1e6)} = ${JSON.stringify(next().toString(36))}; // ${'x'.repeat(Math.floor(next() * 40))}\n`;
  const text = (lines) => Buffer.from(Array.from({ length: lines }, line).join(''));
  const edit = (bytes) => {
    const lines = bytes.toString('utf8').split(/(?<=\n)/);
    lines[Math.floor(next() * lines.length)] = line();
    lines.splice(Math.floor(next() * lines.length), 0, line());
    return Buffer.from(lines.join(''));
  };
  const binary = (length) => Buffer.from(Array.from({ length }, () => Math.floor(next() * 256)));
  const bodies = [];
  const chunks = [];
  let offset = 0;
  const indexByHash = new Map();
  const bodyIndex = (bytes, isTextBody) => {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (!indexByHash.has(sha256)) {
      indexByHash.set(sha256, bodies.length);
      bodies.push({ offset, length: bytes.length, text: isTextBody, sha256 });
      chunks.push(bytes);
      offset += bytes.length;
    }
    return indexByHash.get(sha256);
  };
  const batches = [];
  const snapshots = [];
  for (const name of ['smoke-a', 'smoke-b']) {
    let files = new Map(Array.from({ length: 8 }, (_, i) => [`src/f${i}.js`, text(60 + 40 * i)]));
    files.set('dist/app.wasm', binary(20_000));
    let previous = new Map();
    for (let version = 1; version <= 3; version++) {
      if (version > 1) {
        files = new Map(
          [...files].map(([path, bytes]) => [
            path,
            path.endsWith('.js') && next() < 0.6 ? edit(bytes) : bytes,
          ]),
        );
        files.delete(`src/f${version}.js`);
        files.set(`src/new${version}.js`, text(30));
        files.set(
          'dist/app.wasm',
          Buffer.concat([files.get('dist/app.wasm').subarray(0, 15_000), binary(5_000)]),
        );
      }
      const current = new Map(
        [...files].map(([path, bytes]) => [path, bodyIndex(bytes, !path.endsWith('.wasm'))]),
      );
      const changes = [];
      for (const path of new Set([...previous.keys(), ...current.keys()])) {
        const before = previous.get(path) ?? null;
        const after = current.get(path) ?? null;
        if (before !== after) changes.push({ path: `${name}/${path}`, before, after });
      }
      changes.sort((a, b) => (a.path < b.path ? -1 : 1));
      batches.push({ label: `${name}@${version}`, changes });
      snapshots.push({ label: `${name}@${version}`, package: name, files: [...current] });
      previous = current;
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'bodies.bin'), Buffer.concat(chunks));
  const manifest = { specId: 'smoke', bodies, batches, snapshots };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return { dir, manifest };
}
