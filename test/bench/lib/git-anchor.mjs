/**
 * The git anchor: every version snapshot of the corpus committed in order (through `git fast-import`), then
 * `git gc --aggressive`; the pack holds the same distinct bodies (plus trees and commits, a few KiB).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function gitAggressivePack(corpusDir, manifest) {
  const bodies = readFileSync(join(corpusDir, 'bodies.bin'));
  const repo = mkdtempSync(join(tmpdir(), 'agent-brain-bench-git-'));
  try {
    const git = (args, input) => {
      const result = spawnSync('git', args, { cwd: repo, input, maxBuffer: 1 << 30 });
      if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
      return result.stdout.toString();
    };
    git(['init', '-q', '--bare', '.']);
    const parts = [];
    const marks = new Map();
    manifest.bodies.forEach((body, index) => {
      const mark = index + 1;
      marks.set(index, mark);
      parts.push(
        Buffer.from(`blob\nmark :${mark}\ndata ${body.length}\n`),
        bodies.subarray(body.offset, body.offset + body.length),
        Buffer.from('\n'),
      );
    });
    let time = 1_700_000_000;
    const current = new Map();
    for (const snapshot of manifest.snapshots) {
      for (const path of [...current.keys()])
        if (path.startsWith(`${snapshot.package}/`)) current.delete(path);
      for (const [path, body] of snapshot.files) current.set(`${snapshot.package}/${path}`, body);
      const message = snapshot.label;
      const lines = [
        `commit refs/heads/main`,
        `committer bench <bench@example.com> ${time++} +0000`,
        `data ${Buffer.byteLength(message)}`,
        message,
        'deleteall',
      ];
      for (const [path, body] of current) lines.push(`M 100644 :${marks.get(body)} ${path}`);
      parts.push(Buffer.from(lines.join('\n') + '\n\n'));
    }
    git(['fast-import', '--quiet'], Buffer.concat(parts));
    const started = performance.now();
    git(['-c', 'pack.threads=2', 'gc', '--aggressive', '--prune=now', '--quiet']);
    const seconds = (performance.now() - started) / 1000;
    const packDir = join(repo, 'objects', 'pack');
    const packBytes = readdirSync(packDir)
      .filter((name) => name.endsWith('.pack'))
      .reduce((sum, name) => sum + statSync(join(packDir, name)).size, 0);
    const version = execFileSync('git', ['--version']).toString().trim();
    return { packBytes, seconds, version };
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
