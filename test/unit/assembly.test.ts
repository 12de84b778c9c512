/**
 * The type checker proves the engine's API complete: a copy of the assembly with one feature removed fails to
 * compile, naming a method of that feature, and the same copy with nothing removed compiles (so the check is not
 * refusing everything). The copies are never written: the compiler reads them from memory, beside the real files
 * under src/engine, with the project's own tsconfig.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const engine = path.join(root, 'src/engine');
const read = (file: string) => fs.readFileSync(path.join(engine, file), 'utf8');

/** `text` without `line` (which must be there once), so a reworded source fails here rather than passing. */
function without(text: string, line: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim() === line);
  expect(at, `"${line}" is not a line of the file`).toBeGreaterThanOrEqual(0);
  return [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n');
}

const memoryImport = "import { createMemoryFeatures } from './memory';";
const withPlantedMemory = (text: string) => {
  expect(text).toContain(memoryImport);
  return text.replace(memoryImport, "import { createMemoryFeatures } from './planted-memory';");
};

/** Each planted file: its text, and the method the error must name (null: it must compile). */
function planted(): Map<string, { text: string; missing: string | null }> {
  const engineText = read('create-engine.ts');
  const observeText = read('observe.ts');
  return new Map([
    ['planted-engine-control.ts', { text: engineText, missing: null }],
    [
      'planted-engine.ts',
      {
        text: without(engineText, 'createCheckpointsFeature(ctx, checkpointStore),'),
        missing: 'listCheckpoints',
      },
    ],
    [
      'planted-memory.ts',
      { text: without(read('memory.ts'), 'createSkillsFeature(log, files),'), missing: null },
    ],
    ['planted-engine-memory.ts', { text: withPlantedMemory(engineText), missing: 'draftSkillFromTask' }],
    ['planted-observe-control.ts', { text: observeText, missing: null }],
    [
      'planted-observe.ts',
      {
        text: observeText.replace(
          'assemble(observed, sizeHistory, progress.api)',
          'assemble(observed, sizeHistory)',
        ),
        missing: 'watchProgress',
      },
    ],
  ]);
}

function diagnostics(files: Map<string, { text: string }>): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!config) throw new Error('tsconfig.json was not read');
  const virtual = new Map([...files].map(([name, { text }]) => [path.join(engine, name), text]));
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => virtual.has(path.resolve(file)) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(path.resolve(file)) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = virtual.get(path.resolve(file));
    return text === undefined
      ? getSourceFile.call(host, file, language, ...rest)
      : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options: config.options, host });
  return new Map(
    [...virtual.keys()].map((file) => {
      const source = program.getSourceFile(file);
      if (!source) throw new Error(`${file} was not compiled`);
      const found = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      return [path.basename(file), found.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))];
    }),
  );
}

describe('the engine assembly', () => {
  it('fails to compile when a feature is left out, and compiles with all of them (control)', () => {
    const files = planted();
    const found = diagnostics(files);
    for (const [name, { missing }] of files) {
      const messages = found.get(name) ?? [];
      if (missing === null) expect(messages, name).toEqual([]);
      else expect(messages, name).toEqual([expect.stringContaining(missing)]);
    }
  }, 30_000);
});
