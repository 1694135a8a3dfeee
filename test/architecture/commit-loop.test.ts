// The commit loop (functions/api/play/commit.ts) on the GameLog port alone, so that the part
// that must be exactly right is reviewed against one small contract (functions/store/ports.ts).
// Two checks: its imports from functions/store name only the GameLog port and the records it
// writes (from ports.ts and records.ts: the loop does not even load an adapter), and TypeScript's
// checker finds no value in it typed by another port, nor a store holding more than the log.
// Each is also run on code that reaches further, so that it can fail.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const LOOP = 'functions/api/play/commit.ts';
const PORTS = 'functions/store/ports.ts';

/** What the loop may import from functions/store, by module. */
const ALLOWED: Record<string, string[]> = {
  [PORTS]: ['GameLog'],
  'functions/store/records.ts': ['CommitRecord', 'GameHead', 'GameStatus', 'HEAD_COMMITS', 'lastSeqOf'],
};

/** The module an import names, relative to the repository (`.js` names the `.ts` beside it). */
function target(file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return join(dirname(file), spec).split('\\').join('/').replace(/\.js$/, '.ts');
}

/** `module: name` for every name the file imports (or re-exports) from functions/store that ALLOWED does not list. */
function foreignStoreImports(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const check = (spec: string, names: string[]) => {
    const mod = target(file, spec);
    if (!mod.startsWith('functions/store/')) return;
    for (const n of names) if (!ALLOWED[mod]?.includes(n)) out.push(`${mod}: ${n}`);
  };
  const visit = (n: ts.Node) => {
    if (
      (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) &&
      n.moduleSpecifier &&
      ts.isStringLiteral(n.moduleSpecifier)
    ) {
      const clause = ts.isImportDeclaration(n) ? n.importClause : undefined;
      const bindings = ts.isImportDeclaration(n) ? clause?.namedBindings : n.exportClause;
      const names: string[] = clause?.name ? ['default'] : [];
      if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)))
        names.push(...bindings.elements.map((e) => (e.propertyName ?? e.name).text));
      else if (bindings || !clause) names.push('*');
      check(n.moduleSpecifier.text, names);
    }
    // A dynamic import() or an import type expression reaches a module as surely.
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = n.arguments;
      check(arg && ts.isStringLiteral(arg) ? arg.text : 'functions/store/?', ['*']);
    }
    if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
      check(n.argument.literal.text, [n.qualifier?.getText(src) ?? '*']);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

const options: ts.CompilerOptions = ts.parseJsonConfigFileContent(
  ts.readConfigFile('tsconfig.json', ts.sys.readFile).config,
  ts.sys,
  '.',
).options;

/** A program of `root` and what it imports; `virtual` files are read from the map, not the disk. */
function programOf(root: string, opts: ts.CompilerOptions, virtual: Record<string, string> = {}): ts.Program {
  const host = ts.createCompilerHost(opts);
  const texts = new Map(Object.entries(virtual).map(([f, t]) => [resolve(f), t]));
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, lang, ...rest) => {
    const text = texts.get(resolve(name));
    return text === undefined
      ? getSourceFile.call(host, name, lang, ...rest)
      : ts.createSourceFile(name, text, lang, true);
  };
  host.fileExists = (name) => texts.has(resolve(name)) || ts.sys.fileExists(name);
  host.readFile = (name) => texts.get(resolve(name)) ?? ts.sys.readFile(name);
  return ts.createProgram([root], opts, host);
}

/** The port a type belongs to: the interface of functions/store/ports.ts that declares it or its method, if any. */
function portOf(type: ts.Type): string | null {
  for (const sym of [type.aliasSymbol, type.getSymbol()]) {
    let decl: ts.Node | undefined = sym?.declarations?.[0];
    if (!decl || resolve(decl.getSourceFile().fileName) !== resolve(PORTS)) continue;
    while (decl && !ts.isInterfaceDeclaration(decl) && !ts.isTypeAliasDeclaration(decl)) decl = decl.parent;
    if (decl) return decl.name.text;
  }
  return null;
}

/**
 * What the loop reaches beyond the GameLog: every expression typed by another port (or the
 * whole Store), and every `store` whose type holds more than `log`.
 */
function reachBeyondLog(program: ts.Program, file = LOOP): string[] {
  const checker = program.getTypeChecker();
  const src = program.getSourceFile(file)!;
  const out = new Set<string>();
  const visit = (n: ts.Node) => {
    // Values only: what a type annotation or an import names is checked where a value has it.
    if (ts.isTypeNode(n) || ts.isImportDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isInterfaceDeclaration(n))
      return;
    if (ts.isIdentifier(n) || ts.isPropertyAccessExpression(n) || ts.isElementAccessExpression(n)) {
      const type = checker.getTypeAtLocation(n);
      const types = type.isUnionOrIntersection() ? [type, ...type.types] : [type];
      for (const t of types) {
        const port = portOf(t);
        if (port && port !== 'GameLog') out.add(`${n.getText(src)}: ${port}`);
        const store = t.getProperty('store');
        if (store) {
          const held = checker
            .getTypeOfSymbolAtLocation(store, n)
            .getProperties()
            .map((p) => p.getName());
          if (held.join() !== 'log') out.add(`${n.getText(src)}.store: ${held.join(', ')}`);
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return [...out];
}

/** An import of another store symbol and of another port, added to the loop's text. */
const IMPORTING = `import { keys } from '../../store/index.js';
import type { Operations } from '../../store/ports.js';
`;

/**
 * A file beside the loop that reaches further, checked alone (the ports and records only, no
 * @types: a second program of the loop's whole import graph would double the test's time).
 */
const REACHING = 'functions/api/play/reaching.ts';
const REACHING_TEXT = `import type { GameLog, Operations, Store } from '../../store/ports.js';
export const fine = (s: { store: { log: GameLog } }) => s.store.log.loadGame('g');
export const whole = (s: { store: Store }) => s.store.log;
export const other = (o: Operations) => o.listDue('GAME', new Date(), 1);
`;

describe('the commit loop (play/commit.ts)', () => {
  const text = readFileSync(LOOP, 'utf8');
  let program: ts.Program;
  beforeAll(() => {
    program = programOf(LOOP, options);
  }, 60_000);

  it('imports from functions/store only the GameLog port and the records it writes', () => {
    expect(foreignStoreImports(LOOP, text)).toEqual([]);
  });

  it('is handed no store but one of the log alone, and no value typed by another port', () => {
    expect(reachBeyondLog(program)).toEqual([]);
  });

  it('would be caught importing another store symbol or reaching another port', () => {
    expect(foreignStoreImports(LOOP, IMPORTING + text)).toEqual([
      'functions/store/index.ts: keys',
      'functions/store/ports.ts: Operations',
    ]);
    const alone = programOf(REACHING, { ...options, types: [] }, { [REACHING]: REACHING_TEXT });
    expect(reachBeyondLog(alone, REACHING).sort()).toEqual([
      'listDue: Operations',
      'o.listDue: Operations',
      'o: Operations',
      's.store: Store',
      's.store: tableName, log, ops, players, members, chat, community, notify',
      'store: Store',
    ]);
  });
});
