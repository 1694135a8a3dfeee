// The limits table of docs/security.md says the values the code enforces: each row's value is
// compared with the constant it documents, so changing a limit without its docs line (or the
// other way round) fails `npm test`; so does a number its prose states (seed bits, lobby caps, caches,
// close codes, what a socket may cost, AWS's throttle and table caps). The error table of docs/api.md lists every code with the
// REST status the code answers.
import { describe, expect, it } from 'vitest';
import { ARMOR, INTROSPECTION_LIMITS, MAX_BODY_BYTES } from '../../functions/api/http/app.js';
import { ARG_BOUNDS } from '../../functions/api/resolvers/bounds.js';
import { REFRESH_TOKEN_SECONDS } from '../../functions/api/accounts/auth.js';
import { NAME_MAX } from '../../functions/api/accounts/names.js';
import { MAX_CHOICE_CHANGES_PER_DAY } from '../../functions/api/doc.js';
import { HTTP_STATUS } from '../../functions/api/errors.js';
import { MAX_EVENTS_PAGE } from '../../functions/api/play/games.js';
import { BOUNDS, RATES } from '../../functions/api/http/ratelimit.js';
import { DEFAULT_WEBHOOKS, MAX_WEBHOOKS_PER_PLAYER } from '../../functions/api/notify/webhooks.js';
import { REMINDERS } from '../../functions/api/notify/reminders.js';
import { MAX_SITE_WEBHOOKS_PER_CLIENT } from '../../functions/api/notify/sites.js';
import { OIDC_LIMITS } from '../../functions/local/oidc.js';
import { WS_LIMITS } from '../../functions/local/subscriptions.js';
import { EDGE_LIMITS } from '../../infra/edge.js';
import { QUEUE_HANDOFF_MS } from '../../functions/api/notify/fanout.js';
import { CLOSE_SLOW, MAX_SUBSCRIPTIONS, PUSH_LIMITS } from '../../functions/push/protocol.js';
import { DEFAULT_DECISION_TIME_LIMIT_HOURS, REMOVED_MAX } from '../../functions/api/lobby/joined.js';
import { ACCESS_TOKEN_SECONDS, VERIFIED_CACHE_MS } from '../../functions/api/accounts/auth.js';
import { PLAYER_CACHE_MS } from '../../functions/api/accounts/accounts.js';
import { drawSeed } from '../../functions/api/lobby/seeds.js';
import { STARTING_RETRY_AFTER_SECONDS } from '../../functions/local/starting.js';
import { CLOSE_TOO_MANY } from '../../functions/local/subscriptions.js';
import { CLOSE_SIGNED_OUT } from '../../functions/push/protocol.js';
import { API_THROTTLE, TABLE_MAX_UNITS } from '../../infra/limits.js';
import { readPage } from './pages.js';

const section = readPage('docs/security.md');
const api = readPage('docs/api.md');

/** The table's rows: first cell (the limit) -> second cell (its value). */
const rows = new Map(
  section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---') && !l.startsWith('| Limit '))
    .map((l) => l.split(' | ').map((c) => c.replace(/^\| /, '').trim()))
    .map((cells) => [cells[0], cells[1]]),
);
const value = (limit: string) => {
  const v = rows.get(limit);
  if (v === undefined) throw new Error(`no docs/security.md row "${limit}" (rows: ${[...rows.keys()].join('; ')})`);
  return v;
};
const n = (x: number) => x.toLocaleString('en-US');
const rate = (r: { perSecond: number; burst: number }) =>
  r.perSecond >= 1
    ? `${r.perSecond}/s, burst ${r.burst}`
    : `${Math.round(r.perSecond * 3600)} per hour, burst ${r.burst}`;

describe('docs/security.md "Limits" matches the code', () => {
  it('every limit in the table has the value the code enforces', () => {
    const expected: Record<string, string> = {
      'request body (HTTP) / message (WebSocket)': `${MAX_BODY_BYTES / 1024} KB`,
      'document tokens': n(ARMOR.maxTokens.n),
      'depth, aliases, directives, cost': `${ARMOR.maxDepth.n}, ${ARMOR.maxAliases.n}, ${ARMOR.maxDirectives.n}, ${n(ARMOR.costLimit.maxCost)}`,
      'reads (queries, REST, subscribe, every `/push` message) per player, API client or (anonymous) address': rate(
        RATES.read,
      ),
      'mutations per player / client / address': rate(RATES.write),
      "reads per integrator site (its `client:<id>` bucket, every user it acts for together, beside each user's own)":
        rate(RATES.siteRead),
      'mutations per integrator site': rate(RATES.siteWrite),
      '`signUp` per address': rate(RATES.signUp),
      'introspection fields (`__schema`, `__type`) per player / client / address': rate(RATES.introspection),
      'introspection depth, cost': `${INTROSPECTION_LIMITS.maxDepth}, ${n(INTROSPECTION_LIMITS.maxCost)}`,
      'ID / String argument of a root field': `${ARG_BOUNDS.id} / ${n(ARG_BOUNDS.string)} characters`,
      'commands (cards, answers, choice changes) per seat': `${BOUNDS.commandsPerSeatPerMinute} per minute`,
      'commands per game': n(BOUNDS.commandsPerGame),
      'choice changes per seat per day': String(MAX_CHOICE_CHANGES_PER_DAY),
      'games created per player': `${BOUNDS.gamesCreatedPerHour} per hour`,
      'open lobbies created by one player': String(BOUNDS.openLobbiesPerPlayer),
      'lobbies one player joined (not created) and that have not started': String(BOUNDS.joinedLobbiesPerPlayer),
      'decision time limit when `createGame` gives none': `${DEFAULT_DECISION_TIME_LIMIT_HOURS} hours`,
      'removed players a lobby remembers': String(REMOVED_MAX),
      'display names': `1-${NAME_MAX} characters, one holder per confusable skeleton; a guest's claim lapses ${REFRESH_TOKEN_SECONDS / 86_400} days after its last sign-up, refresh or rename`,
      'lobby without a change': `cancelled after ${BOUNDS.lobbyExpiryDays} days`,
      'event page': `1-${MAX_EVENTS_PAGE} events (default 50)`,
      'subscriptions per WebSocket connection': String(WS_LIMITS.subscriptionsPerConnection),
      'WebSocket connections per player (or address)': String(WS_LIMITS.connectionsPerPrincipal),
      'subscribe messages per connection': rate(RATES.subscribe),
      'WebSocket upgrades per address': rate(RATES.upgrade),
      'open WebSockets per address (`/graphql` and `/push`)': String(WS_LIMITS.socketsPerAddress),
      'unsent bytes per WebSocket (`/graphql` and `/push`)': `${PUSH_LIMITS.sendQueueBytes / 1024} KB`,
      '`/push` messages waiting per connection': String(PUSH_LIMITS.pendingMessagesPerConnection),
      '`/push` subscriptions per connection': String(MAX_SUBSCRIPTIONS),
      'push fan-out of one game version': `${PUSH_LIMITS.fanoutBudgetMs / 1000} s`,
      'push hand-off to the notice queue (AWS)': `${QUEUE_HANDOFF_MS / 1000} s`,
      'webhooks per player': String(MAX_WEBHOOKS_PER_PLAYER),
      'e-mails per player per UTC day (reminders, digests, confirmations together)': String(REMINDERS.mailsPerDay),
      'e-mail reminder delay': `${REMINDERS.delayHours.slice(0, -1).join(', ')} or ${REMINDERS.delayHours.at(-1)} hours`,
      'site webhooks per integrator client': String(MAX_SITE_WEBHOOKS_PER_CLIENT),
      'new sign-in attempts at the local provider (`GET /oidc/auth`) per address': `burst ${OIDC_LIMITS.authorizations.burst}, then ${OIDC_LIMITS.authorizations.perSecond}/s; unfinished sign-ins kept ${OIDC_LIMITS.interactionSeconds / 60} minutes`,
    };
    for (const [limit, v] of Object.entries(expected)) expect(value(limit), limit).toBe(v);
    expect(value('webhook targets')).toContain(`${DEFAULT_WEBHOOKS.timeoutMs / 1000} s`);
    expect(WS_LIMITS.maxPayload).toBe(MAX_BODY_BYTES);
    // Every row is checked above (a new limit needs its line here too).
    expect([...rows.keys()].sort()).toEqual([...Object.keys(expected), 'webhook targets'].sort());
  });

  it('the edge limits and the request limits named in the text match the code', () => {
    expect(section).toContain(`allow ${n(EDGE_LIMITS.requestsPerIpPer5Min)} requests per IP per 5\nminutes`);
    expect(section).toContain(`${EDGE_LIMITS.signUpsPerIpPer5Min} requests mentioning \`signUp\` per IP per 5 minutes`);
    const limitsLine = `depth ${ARMOR.maxDepth.n}, cost ${ARMOR.costLimit.maxCost}, ${ARMOR.maxAliases.n} aliases, ${ARMOR.maxTokens.n} tokens, ${ARMOR.maxDirectives.n} directives`;
    expect(api.replace(/\s+/g, ' ')).toContain(limitsLine);
    // A socket that does not read: the close code and the grace before it is cut.
    expect(section).toContain(`close ${CLOSE_SLOW}, cut ${PUSH_LIMITS.closeGraceMs / 1000} s later`);
    expect(section.replace(/\s+/g, ' ')).toContain(`then it is closed, ${CLOSE_SLOW}`);
  });
});

describe('docs/security.md: the limits its prose states match the code', () => {
  const text = section.replace(/\s+/g, ' ');
  /** The page says `phrase` (the failure names the phrase, not the whole page). */
  const says = (phrase: string) => expect(text.includes(phrase), `docs/security.md should say: ${phrase}`).toBe(true);
  const row = (limit: string) =>
    section
      .split('\n')
      .find((l) => l.startsWith(`| ${limit} |`))
      ?.replace(/\s+/g, ' ') ?? '';

  it('fair seeds, fair seating, names and startup', () => {
    says(`draws ${Buffer.from(drawSeed(), 'base64url').length * 8} bits from the CSPRNG`);
    says(`at most ${BOUNDS.joinedLobbiesPerPlayer} lobbies it joined and ${BOUNDS.openLobbiesPerPlayer} it created`);
    says(`(${DEFAULT_DECISION_TIME_LIMIT_HOURS} hours per decision unless the creator chose)`);
    says(`signs out or ${REFRESH_TOKEN_SECONDS / 86_400} days after its last sign-up, refresh or rename`);
    says(`\`503\` with \`Retry-After: ${STARTING_RETRY_AFTER_SECONDS}\``);
  });

  it('tokens, caches, close codes and the open-lobby cap', () => {
    says(`tokens expire (an hour)`);
    expect(ACCESS_TOKEN_SECONDS).toBe(3600);
    says(`cached per instance for ${VERIFIED_CACHE_MS / 1000} s`);
    says(`the player record for ${PLAYER_CACHE_MS / 1000} s`);
    says(`closed (close ${CLOSE_SIGNED_OUT};`);
    expect(row('WebSocket connections per player (or address)')).toContain(`close ${CLOSE_TOO_MANY}`);
    says(`on \`size < ${BOUNDS.openLobbiesPerPlayer}\``);
    says(`make exactly ${BOUNDS.openLobbiesPerPlayer}, tested`);
    expect(row('introspection fields (`__schema`, `__type`) per player / client / address')).toContain(
      `more than ${RATES.introspection.burst} in one operation`,
    );
  });

  it('what a socket may cost, and what AWS caps', () => {
    says(
      `${PUSH_LIMITS.sendQueueBytes / 1024} KB of unsent data (then it is closed, ${CLOSE_SLOW}), ${PUSH_LIMITS.pendingMessagesPerConnection} waiting messages`,
    );
    says(`stage throttle (${n(API_THROTTLE.rateLimit)} requests/s, burst ${n(API_THROTTLE.burstLimit)})`);
    says(`on-demand caps (${n(TABLE_MAX_UNITS.write)} WRU/s, ${n(TABLE_MAX_UNITS.read)} RRU/s)`);
  });
});

describe('docs/api.md "Errors" matches the code', () => {
  it('lists every error code with the REST status the code answers', () => {
    const errors = api.slice(api.indexOf('## Errors'));
    const table = new Map(
      errors
        .split('\n')
        .filter((l) => /^\| `[A-Z_]+` \|/.test(l))
        .map((l) => l.split(' | ').map((c) => c.replace(/^\| /, '').trim()))
        .map((cells) => [cells[0].replace(/`/g, ''), Number(cells[1])]),
    );
    expect(Object.fromEntries(table)).toEqual(HTTP_STATUS);
  });
});
