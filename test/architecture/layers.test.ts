// The layering, checked by dependency-cruiser with the rules of .dependency-cruiser.cjs (the same
// ones `npm run lint:deps` applies): no import circle (type imports count), no import up a layer,
// no DynamoDB command outside functions/store, no folder of more than 20 files. What breaks a rule
// today would be listed there (KNOWN) or below; since issue 25 the lists are empty, and an entry
// that no longer occurs fails too: the lists only shrink.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

/** The folders cruised, as `npm run lint:deps` names them. */
const SOURCES = ['functions', 'clients/typescript/src', 'web/src', 'infra', 'scripts'];
const CONFIG = '.dependency-cruiser.cjs';

type Known = { rule: string; from: string; to: string };
const config = createRequire(import.meta.url)(`../../${CONFIG}`);
type Violation = { rule: { name: string }; from: string; to: string };
const known: Known[] = config.options.knownViolations.map((v: Violation) => ({
  rule: v.rule.name,
  from: v.from,
  to: v.to,
}));
const key = (v: Known) => `${v.rule}: ${v.from} -> ${v.to}`;

/** The import graph as `npm run lint:deps` sees it, without the known-violations list. */
async function importGraph(): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(`./${CONFIG}`);
  delete options.knownViolations;
  const { output } = await cruise(SOURCES, options, {}, { tsConfig: extractTSConfig('tsconfig.json') });
  return output as ICruiseResult;
}

/** Every import that breaks a rule, the known ones included (one entry per import, not per circle). */
function violations(graph: ICruiseResult): Known[] {
  const out: Known[] = [];
  for (const m of graph.modules) {
    for (const d of m.dependencies) {
      for (const r of d.rules ?? []) out.push({ rule: r.name, from: m.source, to: d.resolved });
    }
    for (const r of m.rules ?? []) out.push({ rule: r.name, from: m.source, to: '' });
  }
  return out;
}

describe('the import graph (.dependency-cruiser.cjs)', () => {
  let found: string[] = [];
  let graph: ICruiseResult;
  beforeAll(async () => {
    graph = await importGraph();
    found = violations(graph).map(key);
  }, 120_000);

  it('breaks no rule outside the known list: no circle, nothing imported from a layer above', () => {
    const knownKeys = new Set(known.map(key));
    expect(found.filter((v) => !knownKeys.has(v))).toEqual([]);
  });

  it('still has every known violation (remove an entry once its import is gone)', () => {
    const foundKeys = new Set(found);
    expect(known.map(key).filter((k) => !foundKeys.has(k))).toEqual([]);
  });

  it('lists no known violation (every one was removed by issue 25: keep it so)', () => {
    expect(known).toEqual([]);
  });

  it('names a store adapter in functions/api only in its composition root (http/core.ts wires the ports)', () => {
    const adapter = /^functions\/store\/(dynamo|memory)\//;
    const importers = graph.modules
      .filter((m) => m.source.startsWith('functions/api/') && m.dependencies.some((d) => adapter.test(d.resolved)))
      .map((m) => m.source);
    expect(importers).toEqual(['functions/api/http/core.ts']);
  });
});

describe('the layers', () => {
  const layers: { name: string; path: string }[] = config.layers;
  /** The lowest layer whose pattern a file matches (engine-core's also matches the editions). */
  const layerOf = (file: string) => layers.find((l) => new RegExp(l.path).test(file))?.name;

  it('put the kernel under the editions, the editions under the core, the core under the index, push under the api', () => {
    expect(layers.map((l) => l.name)).toEqual([
      'engine-base',
      'engine-kernel',
      'engine-actions',
      'engine-editions',
      'engine-core',
      'engine-index',
      'store',
      'push',
      'api',
      'roots',
    ]);
    expect(layerOf('functions/engine/types.ts')).toBe('engine-base');
    expect(layerOf('functions/engine/clone.ts')).toBe('engine-base');
    expect(layerOf('functions/engine/kernel.ts')).toBe('engine-kernel');
    expect(layerOf('functions/engine/actions.ts')).toBe('engine-actions');
    expect(layerOf('functions/engine/editions/index.ts')).toBe('engine-editions');
    expect(layerOf('functions/engine/editions/galecrest/night.ts')).toBe('engine-editions');
    expect(layerOf('functions/engine/core.ts')).toBe('engine-core');
    expect(layerOf('functions/engine/setup.ts')).toBe('engine-core');
    expect(layerOf('functions/engine/bots/search.ts')).toBe('engine-core');
    expect(layerOf('functions/engine/index.ts')).toBe('engine-index');
    expect(layerOf('functions/push/protocol.ts')).toBe('push');
    expect(layerOf('functions/api/notify/fanout.ts')).toBe('api');
    expect(layerOf('functions/local/server.ts')).toBe('roots');
  });

  it('hold every backend source file (a new folder under functions/ needs its place)', () => {
    const files = listFiles('functions').filter((f) => /\.ts$/.test(f));
    expect(files.filter((f) => layerOf(f) === undefined)).toEqual([]);
  });
});

// ---- DynamoDB commands ----

/** The names a file imports from the DynamoDB packages (TypeScript's own parser reads them). */
function dynamoImports(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const names: string[] = [];
  for (const s of src.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    if (!/^@aws-sdk\/(client-dynamodb|lib-dynamodb)$/.test(s.moduleSpecifier.text)) continue;
    const bindings = s.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) names.push('*');
    else for (const e of bindings.elements) names.push((e.propertyName ?? e.name).text);
  }
  return names;
}

/** Files outside functions/store that import DynamoDB commands: none since issue 25 (push connections are in store/dynamo/connections.ts). */
const KNOWN_COMMAND_SENDERS: string[] = [];

describe('DynamoDB', () => {
  // What may be imported outside the store: the clients the composition roots build, and types.
  const CLIENTS = new Set(['DynamoDBClient', 'DynamoDBDocumentClient']);
  const sources = SOURCES.flatMap(listFiles).filter((f) => /\.ts$/.test(f) && !f.startsWith('functions/store/'));

  it('commands are imported in functions/store only (elsewhere a client or a type at most)', () => {
    const senders = sources.filter((f) => dynamoImports(f).some((n) => !CLIENTS.has(n)));
    expect(senders).toEqual(KNOWN_COMMAND_SENDERS);
  });
});

// ---- folder size ----

/** Folders over the limit today: none since functions/api was split into rooms (accounts, http, lobby, notify, ops, play, view). */
const KNOWN_LARGE_FOLDERS: string[] = [];
const MAX_FILES = 20;

/** Every file under `dir`, recursively (paths relative to the repository, `/`-separated). */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name).split('\\').join('/');
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : listFiles(p);
    return [p];
  });
}

describe('source folders', () => {
  it(`hold at most ${MAX_FILES} files directly`, () => {
    const counts = new Map<string, number>();
    for (const f of ['functions', 'clients', 'web', 'infra', 'scripts'].flatMap(listFiles)) {
      const dir = f.slice(0, f.lastIndexOf('/'));
      counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
    const large = [...counts].filter(([, n]) => n > MAX_FILES).map(([d]) => d);
    expect(large.sort()).toEqual(KNOWN_LARGE_FOLDERS);
  });
});

describe('npm run lint:deps', () => {
  it('cruises the same folders with the same rules', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.scripts['lint:deps']).toBe(`depcruise --config ${CONFIG} ${SOURCES.join(' ')}`);
  });
});
