/**
 * Other agents' memory files (AGENTS.md, CLAUDE.md, .cursor/rules/…) through `writeProjectFile`: refused unless the
 * caller opts in with `{ otherAgentMemory: true }`; with it, written byte for byte and still version-checked (a
 * concurrent edit is a `Conflict`, its text kept). The engine on the in-memory SQLite, the project an in-memory
 * directory handle opened as a picked folder. Also the handoff's pointer line (`withPointerLine`): once, after
 * the file's own bytes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BrainError } from '../../src/core/errors';
import { withPointerLine, withoutPointerLine } from '../../src/ui/handoff-pointer';
import { memoryBrain } from './engine-helpers';
import { memoryDirectory } from './memory-directory';

const utf8 = (text: string) => new TextEncoder().encode(text);
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const agentsText = '# AGENTS.md\r\n\r\nRun `npm test` before committing.\r\n';

async function openFolder(files: Record<string, string | Uint8Array>) {
  const { api, database } = await memoryBrain();
  closers.push(() => database.close());
  const dir = memoryDirectory('ledger', files);
  await api.openProject({ kind: 'handle', handle: dir.handle });
  return { api, dir };
}

async function failure(run: Promise<unknown>): Promise<BrainError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error === null) throw new Error('expected the call to fail');
  return error as BrainError;
}

describe('writeProjectFile on another agent’s memory', () => {
  it('is refused without the opt-in, the file untouched; an ordinary file is written (control)', async () => {
    const { api, dir } = await openFolder({ 'AGENTS.md': agentsText, 'CLAUDE.md': '# Claude\n' });
    const agents = await api.readProjectBytes('AGENTS.md');
    for (const options of [
      { expectedVersion: agents.version },
      { expectedVersion: agents.version, otherAgentMemory: false },
    ]) {
      const error = await failure(api.writeProjectFile('AGENTS.md', 'replaced\n', options));
      expect(error.code).toBe('PermissionDenied');
      expect(error.message).toContain('otherAgentMemory: true');
    }
    const claude = await api.readProjectBytes('CLAUDE.md');
    expect(
      (await failure(api.writeProjectFile('CLAUDE.md', 'x', { expectedVersion: claude.version }))).code,
    ).toBe('PermissionDenied');
    // A new file under another agent's convention is refused too.
    expect(
      (await failure(api.writeProjectFile('.cursor/rules/style.mdc', 'x', { expectedVersion: null }))).code,
    ).toBe('PermissionDenied');
    expect(dir.bytes('.cursor/rules/style.mdc')).toBeNull();
    expect(new TextDecoder().decode(dir.bytes('AGENTS.md')!)).toBe(agentsText);
    expect(new TextDecoder().decode(dir.bytes('CLAUDE.md')!)).toBe('# Claude\n');

    await api.writeProjectFile('src/ledger.ts', 'export {};\n', { expectedVersion: null });
    expect(new TextDecoder().decode(dir.bytes('src/ledger.ts')!)).toBe('export {};\n');
  });

  it('takes only a boolean opt-in', async () => {
    const { api } = await openFolder({ 'AGENTS.md': agentsText });
    const { version } = await api.readProjectBytes('AGENTS.md');
    const error = await failure(
      api.writeProjectFile('AGENTS.md', 'x', {
        expectedVersion: version,
        otherAgentMemory: 'yes' as unknown as boolean,
      }),
    );
    expect(error.code).toBe('InvalidArgument');
    // The opt-in does not stand in for the version.
    const missing = await failure(
      api.writeProjectFile('AGENTS.md', 'x', { otherAgentMemory: true } as never),
    );
    expect(missing.code).toBe('InvalidArgument');
  });

  it('writes with the opt-in, byte for byte, and announces the change', async () => {
    const { api, dir } = await openFolder({ 'AGENTS.md': agentsText });
    const seen: string[] = [];
    const stop = await api.subscribe((change) => {
      if (change.topic === 'project' && change.path) seen.push(change.path);
    });
    const read = await api.readProjectBytes('AGENTS.md');
    // Bytes that are not UTF-8 survive: the call takes bytes as given.
    const next = new Uint8Array([...read.bytes, 0xff, 0x0a]);
    const written = await api.writeProjectFile('AGENTS.md', next, {
      expectedVersion: read.version,
      otherAgentMemory: true,
    });
    expect(Buffer.from(dir.bytes('AGENTS.md')!).equals(Buffer.from(next))).toBe(true);
    expect(written.version).not.toBe(read.version);
    expect((await api.readProjectBytes('AGENTS.md')).version).toBe(written.version);
    // A new AGENTS.md (none yet): expectedVersion null.
    const fresh = await openFolder({});
    await fresh.api.writeProjectFile('AGENTS.md', 'See .agent/\n', {
      expectedVersion: null,
      otherAgentMemory: true,
    });
    expect(new TextDecoder().decode(fresh.dir.bytes('AGENTS.md')!)).toBe('See .agent/\n');
    await expect.poll(() => seen).toContain('AGENTS.md');
    stop();
  });

  it('is a Conflict on a stale version (or when the file appeared meanwhile): the other edit kept', async () => {
    const { api, dir } = await openFolder({ 'AGENTS.md': agentsText });
    const read = await api.readProjectBytes('AGENTS.md');
    const theirs = `${agentsText}- Never push to main.\r\n`;
    dir.put('AGENTS.md', theirs);
    const error = await failure(
      api.writeProjectFile('AGENTS.md', `${agentsText}mine\r\n`, {
        expectedVersion: read.version,
        otherAgentMemory: true,
      }),
    );
    expect(error.code).toBe('Conflict');
    expect(new TextDecoder().decode(dir.bytes('AGENTS.md')!)).toBe(theirs);

    const none = await openFolder({});
    none.dir.put('CLAUDE.md', '# made by Claude Code\n');
    const created = await failure(
      none.api.writeProjectFile('CLAUDE.md', 'mine\n', { expectedVersion: null, otherAgentMemory: true }),
    );
    expect(created.code).toBe('Conflict');
    expect(new TextDecoder().decode(none.dir.bytes('CLAUDE.md')!)).toBe('# made by Claude Code\n');
  });

  it('still refuses to delete another agent’s memory file', async () => {
    const { api, dir } = await openFolder({ 'AGENTS.md': agentsText });
    const { version } = await api.readProjectBytes('AGENTS.md');
    expect((await failure(api.deleteProjectFile('AGENTS.md', { expectedVersion: version }))).code).toBe(
      'PermissionDenied',
    );
    expect(dir.bytes('AGENTS.md')).not.toBeNull();
  });
});

describe('the handoff’s pointer line', () => {
  const line = 'See .agent/SESSION_SUMMARY.md for where the last session stopped and what to do next.';
  const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));

  it('is appended after the file’s own bytes, kept exactly (BOM, CRLF, bytes that are not UTF-8)', () => {
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf, ...utf8('# Rules\r\n\r\n- Be brief.\r\n'));
    const out = withPointerLine(bom, line)!;
    expect(Buffer.from(out.subarray(0, bom.length)).equals(Buffer.from(bom))).toBe(true);
    expect(text(out.subarray(bom.length))).toBe(`\r\n${line}\r\n`);

    const raw = Uint8Array.of(...utf8('# Notes\n'), 0xff, 0xfe, ...utf8(' bytes'));
    const tail = withPointerLine(raw, line)!;
    expect(Buffer.from(tail.subarray(0, raw.length)).equals(Buffer.from(raw))).toBe(true);
    expect(text(tail.subarray(raw.length))).toBe(`\n\n${line}\n`);

    expect(text(withPointerLine(new Uint8Array(), line))).toBe(`${line}\n`);
  });

  it('is added once: a file that holds it already is left alone', () => {
    const once = withPointerLine(utf8('# AGENTS\n'), line)!;
    expect(withPointerLine(once, line)).toBeNull();
    expect(withPointerLine(utf8(`# A\r\n  ${line}  \r\nmore\r\n`), line)).toBeNull();
    // A line that only mentions the path is not the pointer.
    expect(withPointerLine(utf8('Read .agent/SESSION_SUMMARY.md first.\n'), line)).not.toBeNull();
  });

  it('is removed with one click: the file as it was before (BOM, CRLF, bytes that are not UTF-8), other lines kept', () => {
    const same = (a: Uint8Array | null, b: Uint8Array) =>
      expect(Buffer.from(a!).equals(Buffer.from(b))).toBe(true);
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf, ...utf8('# Rules\r\n\r\n- Be brief.\r\n'));
    same(withoutPointerLine(withPointerLine(bom, line)!, line), bom);
    const raw = Uint8Array.of(...utf8('# Notes\n'), 0xff, 0xfe, ...utf8(' bytes\n'));
    same(withoutPointerLine(withPointerLine(raw, line)!, line), raw);
    same(withoutPointerLine(withPointerLine(utf8('# AGENTS\n'), line)!, line), utf8('# AGENTS\n'));
    same(withoutPointerLine(withPointerLine(new Uint8Array(), line)!, line), new Uint8Array());
    // In the middle of the file, edited since: only the line goes.
    same(withoutPointerLine(utf8(`# A\n${line}\n- rule\n`), line), utf8('# A\n- rule\n'));
    // A line that only mentions the pointer's text is not it; a file without it is left alone.
    expect(withoutPointerLine(utf8(`Note: ${line}\n`), line)).toBeNull();
    expect(withoutPointerLine(utf8('# A\n'), line)).toBeNull();
  });
});
