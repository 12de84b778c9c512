/**
 * The public package's surface as text: every name `src/lib/index.ts` exports, and the members of every type
 * declared in this repository that those names reach (followed through properties, parameters, return types and
 * type arguments). Two builds with the same text export the same names with the same types, wherever the types
 * are declared. Used by api-surface.test.ts against the committed api-surface.txt.
 */
import path from 'node:path';
import ts from 'typescript';

const flags =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseFullyQualifiedType |
  ts.TypeFormatFlags.WriteArrayAsGenericType;

export function apiSurface(repoRoot: string): string {
  const entry = path.join(repoRoot, 'src/lib/index.ts');
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`No ${entry}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error('src/lib/index.ts is not a module');
  const srcDir = path.join(repoRoot, 'src') + path.sep;
  // Names are printed without their file, so a type that moved between files prints the same.
  const text = (type: ts.Type) =>
    checker.typeToString(type, undefined, flags).replace(/import\("[^"]+"\)\./g, '');
  const seen = new Set<ts.Symbol>();
  const queue: ts.Symbol[] = [];
  const ownSymbol = (symbol: ts.Symbol | undefined) =>
    symbol?.declarations?.some((d) => path.resolve(d.getSourceFile().fileName).startsWith(srcDir)) ?? false;
  const visit = (type: ts.Type, depth = 0) => {
    if (depth > 4) return;
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (symbol && ownSymbol(symbol) && !seen.has(symbol)) {
      seen.add(symbol);
      queue.push(symbol);
    }
    for (const arg of type.aliasTypeArguments ?? []) visit(arg, depth + 1);
    if (type.isUnionOrIntersection()) for (const t of type.types) visit(t, depth + 1);
    if (type.flags & ts.TypeFlags.Object) {
      for (const arg of checker.getTypeArguments(type as ts.TypeReference) ?? []) visit(arg, depth + 1);
    }
    for (const signature of type.getCallSignatures()) {
      for (const p of signature.parameters) visit(checker.getTypeOfSymbol(p), depth + 1);
      visit(signature.getReturnType(), depth + 1);
    }
  };
  const describe = (symbol: ts.Symbol): string[] => {
    const decl = symbol.declarations?.[0];
    if (!decl) return [];
    const type =
      symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class)
        ? checker.getDeclaredTypeOfSymbol(symbol)
        : checker.getTypeOfSymbolAtLocation(symbol, decl);
    const lines = [`${symbol.getName()}: ${text(type)}`];
    if (symbol.flags & ts.SymbolFlags.TypeAlias) {
      lines.push(
        `  = ${checker.typeToString(type, undefined, flags | ts.TypeFormatFlags.InTypeAlias).replace(/import\("[^"]+"\)\./g, '')}`,
      );
    }
    for (const prop of checker.getPropertiesOfType(type).sort((a, b) => a.name.localeCompare(b.name))) {
      const propType = checker.getTypeOfSymbolAtLocation(prop, decl);
      const optional = prop.flags & ts.SymbolFlags.Optional ? '?' : '';
      lines.push(`  .${prop.name}${optional}: ${text(propType)}`);
      visit(propType);
    }
    visit(type);
    return lines;
  };
  const out: string[] = [];
  const exports = checker.getExportsOfModule(moduleSymbol).sort((a, b) => a.name.localeCompare(b.name));
  out.push(`exports: ${exports.map((s) => s.name).join(', ')}`, '');
  for (const exported of exports) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    seen.add(symbol);
    out.push(
      ...describe(symbol).map((line, i) => (i === 0 ? `export ${exported.name} → ${line}` : line)),
      '',
    );
  }
  const reached: string[][] = [];
  while (queue.length > 0) {
    const symbol = queue.shift() as ts.Symbol;
    reached.push(describe(symbol));
  }
  reached.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
  for (const block of reached) out.push(...block, '');
  return out.join('\n');
}
