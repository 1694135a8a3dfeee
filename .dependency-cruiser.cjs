// The layering rules, checked by `npm run lint:deps` and test/architecture/layers.test.ts.
// Type imports count (tsPreCompilationDeps): a circle through types is still a circle.
// Layers, bottom to top; a module may import its own layer and the ones below, never above:
//   engine: base < kernel < shared actions < editions < core (flow, set-up, views, bots) < index
//   < store < push (gateway and protocol) < api < handlers/local (the composition roots).
// infra (CDK), the SDK (clients/typescript) and the web client stand apart: nothing in
// functions imports them, and web imports the SDK only.

/** Bottom to top: name and the files it holds (paths as dependency-cruiser reports them). */
const LAYERS = [
  // What the kernel needs: the state's types, errors, short lists, the RNG, per-edition memo,
  // the Edition and Ctx types, the event sinks, ranking, the state copy. They import nothing but
  // each other.
  { name: 'engine-base', path: '^functions/engine/(types|errors|lists|rng|tables|edition|events|scoring|clone)\\.ts$' },
  { name: 'engine-kernel', path: '^functions/engine/kernel\\.ts$' },
  { name: 'engine-actions', path: '^functions/engine/actions\\.ts$' },
  { name: 'engine-editions', path: '^functions/engine/editions/' },
  { name: 'engine-core', path: '^functions/engine/(?!index\\.ts$)' },
  { name: 'engine-index', path: '^functions/engine/index\\.ts$' },
  { name: 'store', path: '^functions/store/' },
  // The push transport (API Gateway's management API, the message protocol); the fan-out and
  // the routes are the api's (api/notify/), the connections' items the store's.
  { name: 'push', path: '^functions/push/' },
  { name: 'api', path: '^functions/api/' },
  { name: 'roots', path: '^functions/(handlers|local)/' },
];

/** A path that no lower-listed layer matches (engine-core's pattern also matches the editions). */
const within = (i) => ({ path: LAYERS[i].path, pathNot: LAYERS.slice(0, i).map((l) => l.path) });

/** One rule per layer: nothing in it imports a layer above it. */
const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `up-from-${layer.name}`,
  comment: `${layer.name} imports only itself and the layers below it`,
  severity: 'error',
  from: within(i),
  to: { path: LAYERS.slice(i + 1).map((l) => l.path), pathNot: LAYERS.slice(0, i + 1).map((l) => l.path) },
}));

// Known violations, each a from -> to import that exists today: none since issue 25 (the
// Services hub in a types-only file, commit listeners registered by the composition root, push
// one-way, DynamoDB commands in the store). The layering test fails when an entry no longer
// occurs, so the list only shrinks: keep it empty.
const KNOWN = [];

/** The API's composition root: the one file of functions/api that builds the store's adapters. */
const API_ROOT = '^functions/api/http/core\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'imports point one way: no module reaches itself again, type imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'engine-public-surface',
      comment: 'outside the engine, only its index (functions/engine/index.ts) is imported',
      severity: 'error',
      from: { path: '^(functions|clients|web|infra)/', pathNot: '^functions/engine/' },
      to: { path: '^functions/engine/', pathNot: '^functions/engine/index\\.ts$' },
    },
    {
      name: 'dynamodb-in-store',
      comment:
        'DynamoDB commands are sent from functions/store only; the two composition roots build the client ' +
        '(test/architecture/layers.test.ts checks they import no command); elsewhere type imports only',
      severity: 'error',
      from: {
        pathNot: [
          '^functions/store/',
          '^functions/handlers/config\\.ts$',
          '^functions/local/dynalite\\.ts$',
          '^scripts/bench/bare-lambda\\.ts$',
        ],
      },
      to: { path: '^node_modules/@aws-sdk/(client-dynamodb|lib-dynamodb)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'api-adapters-in-root',
      comment:
        'functions/api reaches the store through its ports (store/ports.ts): only the composition root ' +
        '(api/http/core.ts) names an adapter of them (store/dynamo, store/memory)',
      severity: 'error',
      from: { path: '^functions/api/', pathNot: API_ROOT },
      to: { path: '^functions/store/(dynamo|memory)/' },
    },
    {
      name: 'api-store-index-types-only',
      comment:
        'store/index.ts re-exports the adapters: outside the composition root, functions/api imports its types ' +
        'only (`import type`), and the values it needs (HEAD_COMMITS, lastSeqOf, ...) from store/records.ts',
      severity: 'error',
      from: { path: '^functions/api/', pathNot: API_ROOT },
      to: { path: '^functions/store/index\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'functions-stand-alone',
      comment: 'the backend imports neither the CDK app, the SDK nor the web client',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '^(infra|clients|web)/' },
    },
    {
      name: 'sdk-stand-alone',
      comment: 'the SDK is published on its own: it imports only itself and its packages',
      severity: 'error',
      from: { path: '^clients/typescript/' },
      to: { path: '^(functions|infra|web|scripts)/' },
    },
    {
      name: 'web-through-sdk',
      comment: 'the web client talks to the backend through the SDK only',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^(functions|infra|scripts)/' },
    },
    {
      name: 'infra-not-clients',
      comment: 'the CDK app deploys the backend; it does not import the clients',
      severity: 'error',
      from: { path: '^infra/' },
      to: { path: '^(clients|web)/' },
    },
    {
      name: 'resolvable',
      comment:
        "every import resolves (an unresolved one would hide its edges from these rules); the SDK's " +
        'generated.ts may be absent (git-ignored, made by npm run sdk:codegen; it imports no project module)',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^\\./generated\\.js$' },
    },
  ],
  options: {
    doNotFollow: { path: '^node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // `.js` in imports names the `.ts` beside it (moduleResolution Bundler); packages by `exports`.
    enhancedResolveOptions: {
      extensions: ['.ts', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
      // Type-only packages (@graphql-typed-document-node/core) name their entry in `typings`.
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    knownViolations: KNOWN.map(({ rule, from, to }) => ({
      type: rule === 'no-circular' ? 'cycle' : 'dependency',
      from,
      to,
      rule: { name: rule, severity: 'error' },
    })),
  },
};

// For the layering test; not enumerable, because dependency-cruiser accepts only its own keys.
Object.defineProperty(module.exports, 'layers', { value: LAYERS, enumerable: false });
