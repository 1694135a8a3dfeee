// A small integrator site in plain Node (20.19+), using only the installed package
// `@libertalia/client` (no TypeScript, no tsx): client credentials, two of the site's users
// through actAs, a game between them that the site's bot plays to the end with conditional moves
// (ifVersion: a move decided on an old view is refused, STALE, and decided anew), one site-wide
// webhook whose deliveries are verified with verifyWebhook, and the replay of the game.
// test/clients/install.test.ts packs the SDK, installs it into an empty folder and runs this file.
//
//   LIBERTALIA_URL=http://localhost:4000 node site.mjs      (against `npm start`'s dev-site client)
import { createServer } from 'node:http';
import {
  LibertaliaClient,
  actingFor,
  clientCredentials,
  discoverTokenEndpoint,
  isStale,
  verifyWebhook,
} from '@libertalia/client';

const url = process.env.LIBERTALIA_URL ?? 'http://localhost:4000';
const clientId = process.env.SITE_CLIENT_ID ?? 'dev-site';
const clientSecret = process.env.SITE_CLIENT_SECRET ?? 'dev-site-secret';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// 1. The site's webhook receiver: every delivery is verified before it is believed.
let secret = '';
const deliveries = [];
let refused = 0;
const receiver = createServer(async (req, res) => {
  let body = '';
  for await (const chunk of req) body += chunk;
  try {
    // The raw body as received, and the v2 signature header (it signs "<timestamp>.<body>").
    const delivery = await verifyWebhook({ secret, body, signature: req.headers['x-libertalia-signature-v2'] });
    deliveries.push(delivery);
    res.writeHead(204).end();
  } catch {
    refused++;
    res.writeHead(400).end();
  }
});
await new Promise((ok) => receiver.listen(0, '127.0.0.1', ok));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/libertalia`;

// 2. The site itself: client credentials, one site-wide webhook (registering it again is harmless).
const tokenUrl = await discoverTokenEndpoint(`${url}/oidc`);
const site = new LibertaliaClient({ url, token: clientCredentials({ tokenUrl, clientId, clientSecret }) });
const registration = await site.registerSiteWebhook(hookUrl);
secret = registration.secret;
const again = await site.registerSiteWebhook(hookUrl);

// 3. Two of the site's users, each a client acting for them (sessions renewed as needed).
const retries = [];
const onRetry = (info) => retries.push(info.operation);
const anne = new LibertaliaClient({ url, token: actingFor(site, 'anne', 'Site Anne'), onRetry });
const bart = new LibertaliaClient({ url, token: actingFor(site, 'bart', 'Site Bart'), onRetry });
const created = await anne.createGame({ edition: 'CLASSIC', seats: 2 });
await bart.joinGame(created.id);
await anne.startGame(created.id);

// 4. The site's bot plays each user's seat to the end, every move conditional on the view it saw.
let stale = 0;
async function playSeat(api, gameId) {
  let moves = 0;
  let game = await api.game(gameId);
  while (game.status !== 'FINISHED') {
    const me = game.me;
    const prompt = me.prompts[0];
    try {
      if (prompt) {
        game = await api.answerPrompt(gameId, prompt.id, prompt.options[0].id, { ifVersion: game.version });
        moves++;
      } else if (game.phase === 'CHOOSE' && game.awaiting.includes(me.seat) && me.choice === null) {
        game = await api.playCard(gameId, me.hand[0], { ifVersion: game.version });
        moves++;
      } else {
        await sleep(25); // not this seat's turn: look again soon (a real site would follow its webhook)
        game = await api.game(gameId);
      }
    } catch (e) {
      if (!isStale(e)) throw e;
      stale++; // the game moved on since that view: look again and decide anew
      game = await api.game(gameId);
    }
  }
  return moves;
}
const moves = await Promise.all([playSeat(anne, created.id), playSeat(bart, created.id)]);

// 5. The users' notices reach the one site webhook (the end of the game for both).
for (let i = 0; i < 200 && deliveries.filter((d) => d.kind === 'gameEnded').length < 2; i++) await sleep(50);

// 6. The replay: the game as it was after any event of its log.
const final = await anne.game(created.id);
const start = await anne.replay(created.id, 1);
const end = await anne.replay(created.id, final.lastSeq);

// 7. A session revoked (signed out everywhere) is acquired again by its token provider.
await anne.revokeTokens();
const meAfter = await anne.me();

receiver.close();
console.log(
  JSON.stringify({
    gameId: created.id,
    status: final.status,
    players: final.seats.map((s) => s.playerId),
    moves,
    stale,
    retries: retries.length,
    webhookId: registration.webhook.id,
    sameRegistration: again.webhook.id === registration.webhook.id && again.created === false,
    // kind:playerId:webhookId of each verified delivery, once each
    deliveries: [...new Set(deliveries.map((d) => `${d.kind}:${d.playerId}:${d.webhookId}`))],
    deliveryCount: deliveries.length,
    refused,
    replay: { start: [start.status, start.version], end: [end.status, end.version], final: final.version },
    reacquired: meAfter?.name ?? null,
  }),
);
