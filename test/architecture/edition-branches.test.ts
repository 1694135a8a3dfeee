// The API holds no edition branch: what differs by edition (its words, loot, ties, boards) is the
// edition's own, reached through the engine's `wordsOf` (functions/engine/editions/words.ts).
// Every source file under functions/api (the generated schema types apart) is parsed, and an
// edition id ("classic", "GALECREST"...) compared, used as a switch case, listed in an array or
// used as the keys of a table fails the test, with the file and line.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { editionIds } from '../../functions/engine/index.js';

const ROOT = 'functions/api';
const IDS = new Set(editionIds().flatMap((id) => [id, id.toUpperCase()]));

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.InKeyword,
]);

const isId = (n: ts.Node | undefined) =>
  !!n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && IDS.has(n.text);
const isIdName = (n: ts.PropertyName) => (ts.isIdentifier(n) || ts.isStringLiteral(n)) && IDS.has(n.text);

/** Why `node` is an edition branch, or null. */
function branch(node: ts.Node): string | null {
  if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind) && (isId(node.left) || isId(node.right)))
    return 'compares an edition id';
  if (ts.isCaseClause(node) && isId(node.expression)) return 'switches on an edition id';
  if (ts.isArrayLiteralExpression(node) && node.elements.some((e) => isId(e))) return 'lists edition ids';
  // Two or more: one key may be a schema field named after an edition (Game.galecrest).
  if (ts.isObjectLiteralExpression(node) && node.properties.filter((p) => p.name && isIdName(p.name)).length > 1)
    return 'keys a table by edition ids';
  return null;
}

/** Each edition branch of a source text as "file:line: why (code)". */
function editionBranches(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    const why = branch(node);
    if (why) {
      const line = src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1;
      out.push(`${file}:${line}: ${why} (${node.getText(src).slice(0, 60)})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.generated.ts') ? [path] : [];
  });
}

describe('editions in functions/api', () => {
  it('finds each kind of edition branch it looks for', () => {
    const code = [
      "if (doc.edition === 'galecrest') x();",
      "const t = e !== 'CLASSIC' ? 1 : 2;",
      "switch (edition) { case 'classic': break; }",
      "const all = ['classic', 'galecrest'];",
      'const words = { classic: 1, galecrest: 2 };',
      "if ('galecrest' in tables) y();",
      // Not branches: a type, a comment, another string, a field named after an edition.
      "type E = 'CLASSIC' | 'GALECREST'; // classic === galecrest",
      'const game = { id, galecrest: board(v) };',
      "const s = 'classic game';",
    ].join('\n');
    expect(editionBranches('sample.ts', code).map((b) => b.replace(/ \(.*$/, ''))).toEqual([
      'sample.ts:1: compares an edition id',
      'sample.ts:2: compares an edition id',
      'sample.ts:3: switches on an edition id',
      'sample.ts:4: lists edition ids',
      'sample.ts:5: keys a table by edition ids',
      'sample.ts:6: compares an edition id',
    ]);
  });

  it('has none: the editions own what differs (engine wordsOf)', () => {
    const files = sources(ROOT);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => editionBranches(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
