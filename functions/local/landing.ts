// The /graphql landing page of the local server: GraphiQL served from this package's own files
// (graphiql, react and react-dom from node_modules, no CDN: it works offline), preloaded with
// example operations of this API, saying what the API is and linking the docs' section for
// client authors (docs/api.md, served here too, so the link works offline).
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const pkgDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The files the page loads, by the name it asks for under /graphql/ui/. */
const ASSETS: Record<string, { file: () => string; type: string }> = {
  'react.js': {
    file: () => join(pkgDir('react'), 'umd', 'react.production.min.js'),
    type: 'text/javascript; charset=utf-8',
  },
  'react-dom.js': {
    file: () => join(pkgDir('react-dom'), 'umd', 'react-dom.production.min.js'),
    type: 'text/javascript; charset=utf-8',
  },
  'graphiql.js': { file: () => join(pkgDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { file: () => join(pkgDir('graphiql'), 'graphiql.min.css'), type: 'text/css; charset=utf-8' },
};

export const UI_PREFIX = '/graphql/ui/';
export const CLIENTS_HEADING = 'Writing a client';

/** Example operations, one tab each (run signUp first, then paste the token into Headers). */
export const EXAMPLES: { title: string; query: string; variables?: string }[] = [
  {
    title: 'Sign up',
    query: `# Libertalia Online: sign up, then put the token in the Headers tab:
#   { "authorization": "Bearer <token>" }
mutation SignUp {
  signUp(name: "Anne Bonny") { playerId name token }
}`,
  },
  {
    title: 'New game',
    query: `# A classic game with two bots, started at once (needs the token in Headers).
mutation NewGame {
  createGame(input: { edition: CLASSIC, seats: 3, bots: 2 }) { id }
}

mutation Start($gameId: ID!) {
  startGame(gameId: $gameId) { id status phase awaiting me { hand } }
}`,
    variables: '{ "gameId": "<id from NewGame>" }',
  },
  {
    title: 'My turn',
    query: `# The game as you see it: your hand, your prompt and its options.
query MyTurn($gameId: ID!) {
  game(id: $gameId) {
    status round day phase awaiting
    island { seat rank }
    pending { seat kind promptId }
    me { seat hand choice prompts { id kind text options { id label } } }
    seats { seat name doubloons score }
  }
}

mutation Play($gameId: ID!, $rank: Int!) {
  playCard(gameId: $gameId, rank: $rank, requestId: "any-unique-id") { phase awaiting }
}

mutation Answer($gameId: ID!, $promptId: ID!, $optionId: ID!) {
  answerPrompt(gameId: $gameId, promptId: $promptId, optionId: $optionId) { phase awaiting }
}`,
    variables: '{ "gameId": "<id>", "rank": 1, "promptId": "p1", "optionId": "<option id>" }',
  },
  {
    title: 'Event log',
    query: `# The typed event log, paged: pass pageInfo.endCursor as after.
query Log($gameId: ID!, $after: Int) {
  events(gameId: $gameId, after: $after, first: 50) {
    pageInfo { hasNextPage endCursor }
    events {
      seq type at text
      ... on CardChosenEvent { seat rank }
      ... on PromptEvent { seat kind promptId }
      ... on DoubloonsEvent { seat delta reason }
      ... on GameEndEvent { ranking scores }
    }
  }
}`,
    variables: '{ "gameId": "<id>", "after": 0 }',
  },
  {
    title: 'Open games',
    query: `# Lobbies with a free seat, newest first (no token needed).
query Open($after: String) {
  openGamesPage(first: 20, after: $after) {
    games { id edition seatCount seats { seat name isOpen } }
    pageInfo { hasNextPage endCursor }
  }
}`,
  },
];

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function landingHtml(): string {
  const tabs = JSON.stringify(EXAMPLES.map(({ query, variables }) => ({ query, variables }))).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Libertalia Online API</title>
<link rel="stylesheet" href="${UI_PREFIX}graphiql.css">
<style>
  html, body { height: 100%; margin: 0; }
  body { display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
  header { padding: 8px 16px; border-bottom: 1px solid #ccc; }
  header h1 { font-size: 1.1rem; margin: 0 0 4px; }
  header p { margin: 0; font-size: 0.9rem; }
  #graphiql { flex: 1; min-height: 0; }
</style>
</head>
<body>
<header>
  <h1>Libertalia Online API</h1>
  <p>The GraphQL API of a turn-based server for the board game Libertalia (classic and Winds of Galecrest):
  sign up, create or join games, play cards and answer prompts, read the typed event log.
  The tabs below hold example operations (${esc(EXAMPLES.map((e) => e.title).join(', '))}); the schema is in the docs pane.
  Writing a client? Read <a href="${UI_PREFIX}clients">${esc(CLIENTS_HEADING)}</a> (docs/api.md) for the TypeScript SDK, auth, paging and errors.
  Subscriptions: WebSocket (graphql-ws) on this path.</p>
</header>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${UI_PREFIX}react.js"></script>
<script src="${UI_PREFIX}react-dom.js"></script>
<script src="${UI_PREFIX}graphiql.js"></script>
<script>
  const fetcher = GraphiQL.createFetcher({ url: location.pathname.replace(/\\/+$/, '') || '/graphql' });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, { fetcher, defaultTabs: ${tabs}, defaultEditorToolsVisibility: true, shouldPersistHeaders: true }),
  );
</script>
</body>
</html>
`;
}

/** The docs' section for client authors (docs/api.md), as a small offline HTML page. */
function clientsHtml(): string {
  const md = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  const start = md.indexOf(`## ${CLIENTS_HEADING}`);
  const end = start < 0 ? -1 : md.indexOf('\n## ', start + 3);
  const section = start < 0 ? `See docs/api.md: ${CLIENTS_HEADING}.` : md.slice(start, end < 0 ? undefined : end);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(CLIENTS_HEADING)} — Libertalia Online API</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 60rem; margin: 1rem auto; padding: 0 1rem">
<p><a href="/graphql">← GraphiQL</a></p><pre style="white-space: pre-wrap">${esc(section)}</pre></body></html>`;
}

const wantsHtml = (req: IncomingMessage) => (req.headers.accept ?? '').includes('text/html');

/**
 * Serves the landing page (a browser's GET /graphql without a query) and its files; returns
 * false for everything else (GraphQL requests go on to Apollo).
 */
export function serveLanding(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const send = (status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    res.end(req.method === 'HEAD' ? '' : body);
    return true;
  };
  if (
    (url.pathname === '/graphql' || url.pathname === '/graphql/') &&
    !url.searchParams.has('query') &&
    wantsHtml(req)
  ) {
    return send(200, 'text/html; charset=utf-8', landingHtml());
  }
  if (!url.pathname.startsWith(UI_PREFIX)) return false;
  const name = url.pathname.slice(UI_PREFIX.length);
  if (name === 'clients') return send(200, 'text/html; charset=utf-8', clientsHtml());
  const asset = ASSETS[name];
  if (!asset) return send(404, 'text/plain; charset=utf-8', 'not found\n');
  return send(200, asset.type, readFileSync(asset.file()));
}
