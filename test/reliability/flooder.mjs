// A flooding client in its own process (the attacker is another machine; its own CPU must not
// be charged to the server under test). Usage: node flooder.mjs <mode> <url> [token] [rate] [gameId]
//   http-reads:  `game` queries with the attacker's token at `rate` per second (default 100)
//   http-writes: `leaveGame` mutations with the attacker's token at `rate` per second
//   signup:      anonymous `signUp` mutations from one address at `rate` per second
//   introspection: 15 aliased full `__schema` introspections per request with the attacker's token at `rate` per second
//   ws-huge:     a WebSocket that sends a 100k-field subscription document, again on a new socket every 100 ms
//   ws-sockets:  `rate` WebSockets kept opening at once (anonymous, one address): each one closed (or refused) is opened again after 50 ms
//   push-messages: one anonymous /push socket sending small messages at `rate` per second (subscribe and
//                unsubscribe `gameId`, ping, not JSON); `answers`: message types, `codes`: error codes
// Runs until killed; prints one line per second: what it sent and what came back
// (`answers`: HTTP status or close code; `codes`: the error codes of the answers' bodies).
import { Agent, request } from 'node:http';
import { getIntrospectionQuery } from 'graphql';
import WebSocket from 'ws';

const [mode, url, token, rateArg, gameArg] = process.argv.slice(2);
const rate = Number(rateArg || 100);
const gameId = gameArg || '00000000-0000-4000-8000-000000000000';
const stats = { sent: 0, closed: 0, answers: {}, codes: {} };
const bump = (o, k) => (o[k] = (o[k] ?? 0) + 1);
setInterval(() => process.stdout.write(JSON.stringify(stats) + '\n'), 1000).unref();

// node:http with kept-alive connections: the cheapest client Node has, so the attacker's own CPU
// (on this machine, not another) stays small.
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const target = new URL(url + '/graphql');
function http(body, auth) {
  stats.sent++;
  const req = request(
    target,
    {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        ...(auth ? { authorization: `Bearer ${auth}` } : {}),
      },
    },
    (res) => {
      bump(stats.answers, res.statusCode);
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200 || text.includes('"errors"')) {
          try {
            bump(stats.codes, JSON.parse(text).errors?.[0]?.extensions?.code ?? 'none');
          } catch {
            bump(stats.codes, 'unreadable');
          }
        }
      });
    },
  );
  req.on('error', () => bump(stats.answers, 'network'));
  req.end(body);
}

const every = (f) => setInterval(f, 1000 / rate);

if (mode === 'http-reads') {
  const body = JSON.stringify({ query: `{ game(id: "${gameId}") { id version seats { seat name score } } }` });
  every(() => http(body, token));
} else if (mode === 'http-writes') {
  const body = JSON.stringify({
    query: `mutation($g: ID!) { leaveGame(gameId: $g) { id } }`,
    variables: { g: gameId },
  });
  every(() => http(body, token));
} else if (mode === 'signup') {
  let i = 0;
  every(() =>
    http(
      JSON.stringify({
        query: `mutation($n: String!) { signUp(name: $n) { token } }`,
        variables: { n: `Sybil ${process.pid} ${i++}` },
      }),
      null,
    ),
  );
} else if (mode === 'introspection') {
  // graphql-js's standard introspection query, its one `__schema` field aliased 15 times (the alias limit).
  const q = getIntrospectionQuery();
  const cut = q.indexOf('fragment');
  const op = q.slice(0, cut);
  const field = op.slice(op.indexOf('{') + 1, op.lastIndexOf('}'));
  const body = JSON.stringify({
    query: `query { ${Array.from({ length: 15 }, (_, i) => `s${i}: ${field}`).join(' ')} } ${q.slice(cut)}`,
  });
  every(() => http(body, token));
} else if (mode === 'ws-huge') {
  const doc = `subscription { gameUpdated(gameId: "x") { ${Array.from({ length: 100_000 }, (_, i) => `f${i}: id`).join(' ')} } }`;
  const message = JSON.stringify({ id: '1', type: 'subscribe', payload: { query: doc } });
  const once = () => {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    ws.on('open', () => {
      ws.send(JSON.stringify({ type: 'connection_init', payload: {} }));
      ws.send(message);
      stats.sent++;
    });
    ws.on('close', (code) => {
      stats.closed++;
      bump(stats.answers, code);
      setTimeout(once, 100); // one socket, sending the document again and again
    });
    ws.on('error', () => {});
  };
  once();
} else if (mode === 'ws-sockets') {
  const open = () => {
    stats.sent++;
    const ws = new WebSocket(url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    let refused = null; // an upgrade answered with an HTTP status (no handshake)
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    ws.on('close', (code) => {
      stats.closed++;
      bump(stats.answers, refused ?? code);
      setTimeout(open, 50);
    });
    ws.on('error', (e) => {
      const m = /Unexpected server response: (\d+)/.exec(String(e?.message));
      if (m) refused = `http-${m[1]}`;
    });
  };
  for (let i = 0; i < rate; i++) open();
} else if (mode === 'push-messages') {
  const kinds = [{ action: 'subscribe', gameId }, { action: 'unsubscribe', gameId }, { action: 'ping' }]
    .map((m) => JSON.stringify(m))
    .concat(['not json']);
  const ws = new WebSocket(url.replace(/^http/, 'ws') + '/push');
  ws.on('open', () => {
    let i = 0;
    const perTick = Math.max(1, Math.round(rate / 100));
    setInterval(() => {
      for (let k = 0; k < perTick && ws.readyState === WebSocket.OPEN; k++, stats.sent++)
        ws.send(kinds[i++ % kinds.length]);
    }, 10);
  });
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    bump(stats.answers, m.type);
    if (m.type === 'error') bump(stats.codes, m.code);
  });
  ws.on('close', (code) => {
    stats.closed++;
    bump(stats.answers, `close-${code}`);
  });
  ws.on('error', () => {});
} else {
  console.error('unknown mode', mode);
  process.exit(2);
}
