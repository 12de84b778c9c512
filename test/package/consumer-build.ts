/**
 * Node side of the consumer fixture: `npm pack` this repository, install the tarball into a generated app in a
 * temporary directory, type-check and build that app with Vite (the repository's own vite and typescript, run
 * with the app as root and no configuration file), measure it and serve it with `vite preview`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { build, createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { consumerFiles } from './consumer-app';

const repo = path.resolve(import.meta.dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const run = (command: string, args: readonly string[], cwd: string) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export interface ConsumerApp {
  readonly dir: string;
  readonly dist: string;
  readonly tarball: string;
}

/** Builds and packs the package and installs the tarball into a fresh app. */
export function createConsumerApp(): ConsumerApp {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-brain-consumer-'));
  // What `prepack` runs, run first so that `npm pack` prints only its JSON.
  run(npm, ['run', 'build:lib'], repo);
  const packed = JSON.parse(
    run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], repo),
  ) as {
    filename: string;
  }[];
  const tarball = path.join(dir, packed[0]!.filename);
  for (const [file, text] of Object.entries(consumerFiles)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { 'agent-brain': `file:${tarball}` } }, null, 2)}\n`,
  );
  // --prefer-offline: the package's few dependencies come from npm's local cache once they were fetched.
  run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], dir);
  return { dir, dist: path.join(dir, 'dist'), tarball };
}

/** `tsc --noEmit` over the app with the repository's TypeScript; throws with the compiler's output. */
export function typeCheck(app: ConsumerApp): void {
  const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
  try {
    run(process.execPath, [tsc, '--noEmit', '-p', path.join(app.dir, 'tsconfig.json')], app.dir);
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc --noEmit failed in the consumer app:\n${stdout ?? ''}${stderr ?? ''}`, {
      cause: error,
    });
  }
}

export async function buildApp(app: ConsumerApp): Promise<void> {
  await build({ root: app.dir, configFile: false, logLevel: 'warn', build: { outDir: app.dist } });
}

export function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += directoryBytes(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

/** The page's script and what it imports statically (not `import()`ed chunks, not workers), gzipped. */
export function mainThreadBundle(dist: string): { files: string[]; bytes: number; gzipBytes: number } {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error(`No module script in the built index.html:\n${html}`);
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = fs.readFileSync(path.join(dist, file), 'utf8');
    for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)"(\.\/[^"]+\.js)"/g)) {
      visit(path.posix.join(path.posix.dirname(file), match[1]!));
    }
  };
  visit(entry);
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const code = fs.readFileSync(path.join(dist, file));
    bytes += code.byteLength;
    gzipBytes += zlib.gzipSync(code).byteLength;
  }
  return { files: [...files], bytes, gzipBytes };
}

/** A copy of the build with its brain worker replaced (`null`: removed). */
export function variantOf(app: ConsumerApp, name: string, worker: string | null): string {
  const dist = path.join(app.dir, `dist-${name}`);
  fs.cpSync(app.dist, dist, { recursive: true });
  const file = builtFiles(dist).find((f) => /brain\.worker-[\w-]+\.js$/.test(f));
  if (!file) throw new Error('The consumer build has no brain worker file.');
  if (worker === null) fs.rmSync(path.join(dist, file));
  else fs.writeFileSync(path.join(dist, file), worker);
  return dist;
}

export function builtFiles(dist: string): string[] {
  return fs.readdirSync(dist, { recursive: true, encoding: 'utf8' }).map((f) => f.split(path.sep).join('/'));
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export async function serve(
  app: ConsumerApp,
  outDir: string,
): Promise<{ url: string; server: PreviewServer }> {
  const port = await freePort();
  const server = await preview({
    root: app.dir,
    configFile: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true },
  });
  return { url: `http://127.0.0.1:${port}`, server };
}

/** `vite` (the dev server) over the app's sources, as a developer runs it while writing the app. */
export async function serveDev(app: ConsumerApp): Promise<{ url: string; server: ViteDevServer }> {
  const port = await freePort();
  const server = await createServer({
    root: app.dir,
    configFile: false,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port, strictPort: true, hmr: false },
  });
  await server.listen();
  return { url: `http://127.0.0.1:${port}`, server };
}
