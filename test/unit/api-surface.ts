/**
 * The public package's surface as text: every name `src/lib/index.ts` exports with its kind and type, the members of
 * each, and then every type declared in this repository that those names reach (followed through members,
 * parameters, return types and type arguments), each by name. Two builds with the same text export the same names
 * with the same types, wherever the types are declared.
 *
 * The text depends only on the types, never on the order the compiler met them in: union members are sorted (the
 * compiler orders them by internal ids, which an unrelated edit shifts), members and blocks are sorted by name with
 * a fixed comparison, and a member keyed by a unique symbol prints as `[name]`, never by its symbol id. Members are
 * listed for object types only (a string union or a branded number lists no methods of string or number). Used by
 * api-surface.test.ts against the committed api-surface.txt.
 */
import path from 'node:path';
import ts from 'typescript';

const nodeFlags =
  ts.NodeBuilderFlags.NoTruncation |
  ts.NodeBuilderFlags.UseFullyQualifiedType |
  ts.NodeBuilderFlags.WriteArrayAsGenericType |
  ts.NodeBuilderFlags.IgnoreErrors;

/** Case-insensitive, then by code unit: the same order on every machine (no locale). */
function compareNames(a: string, b: string): number {
  const [la, lb] = [a.toLowerCase(), b.toLowerCase()];
  if (la !== lb) return la < lb ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

const isNamedType = (symbol: ts.Symbol) =>
  (symbol.flags &
    (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class | ts.SymbolFlags.Enum)) !==
  0;

export interface ApiSurfaceOptions {
  /** Files (repository-relative) type-checked before the walk: the test uses it to show the text does not change. */
  readonly checkFirst?: readonly string[];
  /** Leave unions and type literals in the compiler's order (the test's control: that order does change). */
  readonly compilerOrder?: boolean;
}

export function apiSurface(repoRoot: string, options: ApiSurfaceOptions = {}): string {
  const entry = path.join(repoRoot, 'src/lib/index.ts');
  const first = (options.checkFirst ?? []).map((file) => path.join(repoRoot, file));
  const program = ts.createProgram([...first, entry], {
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
  for (const file of first) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`No ${file}`);
    program.getSemanticDiagnostics(source);
  }
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`No ${entry}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error('src/lib/index.ts is not a module');
  const srcDir = path.join(repoRoot, 'src') + path.sep;
  const ownSymbol = (symbol: ts.Symbol | undefined) =>
    symbol?.declarations?.some((d) => path.resolve(d.getSourceFile().fileName).startsWith(srcDir)) ?? false;

  const printed = (node: ts.Node) =>
    // Names are printed without their file, so a type that moved between files prints the same.
    print(options.compilerOrder ? node : (ts.transform(node, [sortByName]).transformed[0] as ts.Node))
      .replace(/\n\s*/g, ' ')
      .replace(/import\("[^"]+"\)\./g, '');
  const text = (type: ts.Type, flags = 0) => {
    const node = checker.typeToTypeNode(type, undefined, nodeFlags | flags);
    if (!node) throw new Error(`A type that does not print: ${checker.typeToString(type)}`);
    return printed(node);
  };
  const signature = (sig: ts.Signature, kind: ts.SyntaxKind) => {
    const node = checker.signatureToSignatureDeclaration(sig, kind, undefined, nodeFlags);
    if (!node) throw new Error('A signature that does not print');
    return printed(node).replace(/;$/, '');
  };

  // Named types declared in src, reached from the exports: each described once, after the exports.
  const reached = new Set<ts.Symbol>();
  const queue: ts.Symbol[] = [];
  const seenTypes = new Set<ts.Type>();
  const visit = (type: ts.Type) => {
    if (seenTypes.has(type)) return;
    seenTypes.add(type);
    const symbol = type.aliasSymbol ?? type.getSymbol();
    const named = symbol !== undefined && isNamedType(symbol);
    if (named && ownSymbol(symbol) && !reached.has(symbol)) {
      reached.add(symbol);
      queue.push(symbol);
    }
    for (const arg of type.aliasTypeArguments ?? []) visit(arg);
    if (type.isUnionOrIntersection()) for (const t of type.types) visit(t);
    if (type.flags & ts.TypeFlags.Object && (type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) {
      for (const arg of checker.getTypeArguments(type as ts.TypeReference)) visit(arg);
    }
    for (const sig of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
      for (const p of sig.parameters) visit(checker.getTypeOfSymbol(p));
      visit(sig.getReturnType());
    }
    // An anonymous object type's members are part of the type that holds it; a named one is described on its own.
    if (!named && type.flags & ts.TypeFlags.Object) visitMembers(type);
  };
  const visitMembers = (type: ts.Type) => {
    for (const prop of checker.getPropertiesOfType(type)) visit(checker.getTypeOfSymbol(prop));
    for (const info of checker.getIndexInfosOfType(type)) visit(info.type);
  };

  /**
   * Object types list their members; a primitive, a literal or a union of them lists none, and neither does an
   * array, a tuple or a type from outside this repository (Promise, Uint8Array …), whose members are the platform's.
   */
  const hasMembers = (type: ts.Type): boolean => {
    if (type.isIntersection()) return type.types.every(hasMembers);
    if (!(type.flags & ts.TypeFlags.Object) || checker.isArrayType(type) || checker.isTupleType(type))
      return false;
    const symbol = type.getSymbol();
    return !(symbol && isNamedType(symbol) && !ownSymbol(symbol));
  };
  const members = (type: ts.Type): string[] => {
    if (!hasMembers(type)) return [];
    const lines: string[] = [];
    for (const sig of type.getCallSignatures())
      lines.push(`  call ${signature(sig, ts.SyntaxKind.CallSignature)}`);
    for (const sig of type.getConstructSignatures())
      lines.push(`  new ${signature(sig, ts.SyntaxKind.ConstructSignature)}`);
    for (const info of checker.getIndexInfosOfType(type)) {
      lines.push(`  [${text(info.keyType)}]: ${text(info.type)}${info.isReadonly ? ' (readonly)' : ''}`);
    }
    const props = checker
      .getPropertiesOfType(type)
      .map((prop) => ({ prop, name: checker.symbolToString(prop) }))
      .sort((a, b) => compareNames(a.name, b.name));
    for (const { prop, name } of props) {
      const optional = prop.flags & ts.SymbolFlags.Optional ? '?' : '';
      lines.push(`  .${name}${optional}: ${text(checker.getTypeOfSymbol(prop))}`);
    }
    visitMembers(type);
    return lines;
  };

  /** The type meaning of a symbol: its kind, its definition when an alias, and its members. */
  const describeType = (symbol: ts.Symbol): string[] => {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    visit(type);
    if (symbol.flags & ts.SymbolFlags.TypeAlias) {
      return [`type = ${text(type, ts.NodeBuilderFlags.InTypeAlias)}`, ...members(type)];
    }
    const kind =
      symbol.flags & ts.SymbolFlags.Class
        ? 'class'
        : symbol.flags & ts.SymbolFlags.Enum
          ? 'enum'
          : 'interface';
    return [kind, ...members(type)];
  };

  /** The value meaning of a symbol: a function's signatures, a class's constructor, a constant's type. */
  const describeValue = (symbol: ts.Symbol): string[] => {
    const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (!decl) return [];
    const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
    visit(type);
    if (symbol.flags & ts.SymbolFlags.Class) {
      return type
        .getConstructSignatures()
        .map((sig) => `constructor ${signature(sig, ts.SyntaxKind.ConstructSignature).replace(/^new /, '')}`);
    }
    if (symbol.flags & ts.SymbolFlags.Function) {
      return type.getCallSignatures().map((sig) => `function ${signature(sig, ts.SyntaxKind.CallSignature)}`);
    }
    return [`const ${text(type)}`, ...(type.getCallSignatures().length > 0 ? [] : members(type))];
  };

  /** A block: `head: <first line>` then the rest indented, each meaning of the symbol in turn. */
  const block = (head: string, symbol: ts.Symbol): string[] => {
    const lines = [
      ...(symbol.flags & ts.SymbolFlags.Value ? describeValue(symbol) : []),
      ...(isNamedType(symbol) ? describeType(symbol) : []),
    ];
    return lines.map((line) => (line.startsWith('  ') ? line : `${head}: ${line}`));
  };

  const exported = checker
    .getExportsOfModule(moduleSymbol)
    .map((s) => ({ name: s.name, symbol: s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s }))
    .sort((a, b) => compareNames(a.name, b.name));
  const out: string[] = [`exports: ${exported.map((e) => e.name).join(', ')}`, ''];
  for (const { symbol } of exported) reached.add(symbol);
  for (const { name, symbol } of exported) out.push(...block(`export ${name}`, symbol), '');

  const blocks: string[][] = [];
  for (let symbol = queue.shift(); symbol; symbol = queue.shift()) blocks.push(block(symbol.name, symbol));
  const keyed = [...new Set(blocks.map((b) => b.join('\n')))].sort(compareNames);
  for (const text of keyed) out.push(text, '');
  return out.join('\n');
}

const printer = ts.createPrinter({ removeComments: true });

/**
 * A node the checker built, as text. Printed without a source file, as the checker's own typeToString does: the
 * public signature asks for one, but a node it built may come from any file.
 */
const print = (node: ts.Node) =>
  printer.printNode(ts.EmitHint.Unspecified, node, undefined as unknown as ts.SourceFile);

/**
 * Sorts what the compiler orders by its internal ids, innermost first: the members of every union type by their
 * text, and the properties of every type literal by name (a mapped type such as `Pick<T, K>` lists them in the order
 * of K's union). Signatures keep their order (overloads are tried in it).
 */
const sortByName: ts.TransformerFactory<ts.Node> = (context) => {
  const memberKey = (member: ts.TypeElement) => (member.name ? `1${print(member.name)}` : '0');
  const visitor = (node: ts.Node): ts.Node => {
    const inner = ts.visitEachChild(node, visitor, context);
    if (ts.isUnionTypeNode(inner)) {
      const sorted = [...inner.types].sort((a, b) => compareNames(print(a), print(b)));
      return context.factory.updateUnionTypeNode(inner, context.factory.createNodeArray(sorted));
    }
    if (ts.isTypeLiteralNode(inner)) {
      const sorted = [...inner.members].sort((a, b) => compareNames(memberKey(a), memberKey(b)));
      return context.factory.updateTypeLiteralNode(inner, context.factory.createNodeArray(sorted));
    }
    return inner;
  };
  return (node) => visitor(node);
};
