// A flooding client in its own process (the attacker is another machine; its own CPU must not
// be charged to the server under test). Usage: node flooder.mjs <mode> <url> [token] [rate]
//   ws-huge: a WebSocket that sends a 100k-field subscription document, again on a new socket every 100 ms
//   http-reads: `game` queries with the attacker's token at `rate` per second (default 100)
// Runs until killed; prints one line per second with what it sent and what came back.
import WebSocket from 'ws';

const [mode, url, token, rateArg] = process.argv.slice(2);
const stats = { sent: 0, closed: 0, answers: {} };
setInterval(() => process.stdout.write(JSON.stringify(stats) + '\n'), 1000).unref();

if (mode === 'ws-huge') {
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
      stats.answers[code] = (stats.answers[code] ?? 0) + 1;
      setTimeout(once, 100); // one socket, sending the document again and again
    });
    ws.on('error', () => {});
  };
  once();
} else if (mode === 'http-reads') {
  const rate = Number(rateArg ?? 100);
  const gameId = process.argv[6] ?? 'x';
  const body = JSON.stringify({ query: `{ game(id: "${gameId}") { id version seats { seat name score } } }` });
  setInterval(() => {
    stats.sent++;
    fetch(url + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body })
      .then((r) => {
        stats.answers[r.status] = (stats.answers[r.status] ?? 0) + 1;
        return r.text();
      })
      .catch(() => {});
  }, 1000 / rate);
} else {
  console.error('unknown mode', mode);
  process.exit(2);
}
