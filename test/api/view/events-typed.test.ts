// The typed event log: every event type and payload field the engine or the API can emit is
// described by schema/events.graphql (an object type per type, a field per payload key, a
// GraphQL type that accepts the values seen), and the API serves them through those types.
// Games of both editions and every player count are driven by bots at engine level (every
// event shape, as its own seat and as a spectator sees it), then lobby, play, timeout and
// rematch flows go through the API with a document that selects every field of every type.
import {
  buildSchema,
  type GraphQLField,
  GraphQLEnumType,
  type GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLOutputType,
  isObjectType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventTypeName, FIELD_MAPS, typedEvent } from '../../../functions/api/view/events.js';
import { typeDefs } from '../../../functions/api/schema.generated.js';
import { BOT_KINDS, createGame, type GameEvent, playBotGame, viewEvent } from '../../../functions/engine/index.js';
import { codeOf, testApp } from '../../setup/app.js';
import { playToEnd } from '../../setup/play.js';

const schema = buildSchema(typeDefs);
const eventInterface = schema.getType('Event') as GraphQLInterfaceType;
const eventTypes = schema.getPossibleTypes(eventInterface);
const ENVELOPE = new Set(['seq', 'at', 'type', 'data', 'text']);

/** Problems with one value against a GraphQL output type ('' when it fits). */
function fits(v: unknown, t: GraphQLOutputType, path: string): string[] {
  if (t instanceof GraphQLNonNull)
    return v === null || v === undefined ? [`${path}: null for ${t}`] : fits(v, t.ofType, path);
  if (v === null || v === undefined) return [];
  if (t instanceof GraphQLList)
    return Array.isArray(v) ? v.flatMap((x, i) => fits(x, t.ofType, `${path}[${i}]`)) : [`${path}: not a list`];
  if (t instanceof GraphQLEnumType)
    return t.getValue(String(v)) ? [] : [`${path}: ${JSON.stringify(v)} is not a ${t.name}`];
  if (t instanceof GraphQLScalarType) {
    const ok: Record<string, (x: unknown) => boolean> = {
      Int: Number.isInteger,
      Float: (x) => typeof x === 'number',
      String: (x) => typeof x === 'string',
      ID: (x) => typeof x === 'string' || Number.isInteger(x),
      Boolean: (x) => typeof x === 'boolean',
      DateTime: (x) => typeof x === 'string' && !Number.isNaN(Date.parse(x)),
      JSON: () => true,
    };
    return ok[t.name]?.(v) ? [] : [`${path}: ${JSON.stringify(v)} is not a ${t.name}`];
  }
  if (t instanceof GraphQLObjectType) {
    if (typeof v !== 'object') return [`${path}: not an object`];
    const fields = t.getFields();
    return [
      ...Object.keys(v as object)
        .filter((k) => !fields[k])
        .map((k) => `${path}.${k}: not a field of ${t.name}`),
      ...Object.values(fields).flatMap((f) =>
        fits((v as Record<string, unknown>)[f.name], f.type, `${path}.${f.name}`),
      ),
    ];
  }
  return [`${path}: unexpected type ${String(t)}`];
}

/** Problems with one event (as some caller sees it) against the schema. */
function describeProblems(e: { type: string; data: Record<string, unknown> }): string[] {
  const type = schema.getType(eventTypeName(e.type));
  const enumType = schema.getType('EventType') as GraphQLEnumType;
  if (!type || !isObjectType(type) || !type.getInterfaces().includes(eventInterface))
    return [`${e.type}: no object type ${eventTypeName(e.type)} implementing Event`];
  const problems = enumType.getValue(e.type) ? [] : [`${e.type}: not a value of EventType`];
  const typed = typedEvent({ seq: 1, at: '2030-01-01T00:00:00.000Z', ...e });
  const fields = type.getFields();
  for (const k of Object.keys(e.data))
    if (!fields[k] || ENVELOPE.has(k)) problems.push(`${e.type}.${k}: not a field of ${type.name}`);
  for (const f of Object.values(fields))
    if (!ENVELOPE.has(f.name)) problems.push(...fits(typed[f.name], f.type, `${e.type}.${f.name}`));
  return problems;
}

/** Selections of every field of every event type, grouped so that no two types in a group give one field name two types (no aliases needed: the API limits them). */
function subSelection(f: GraphQLField<unknown, unknown>): string {
  let t: GraphQLOutputType = f.type;
  while (t instanceof GraphQLNonNull || t instanceof GraphQLList) t = t.ofType;
  return isObjectType(t) ? `{ ${Object.keys(t.getFields()).join(' ')} }` : '';
}
const ownFields = (t: GraphQLObjectType) => Object.values(t.getFields()).filter((f) => !ENVELOPE.has(f.name));
const groups: { fields: Map<string, string>; types: GraphQLObjectType[] }[] = [];
for (const type of eventTypes) {
  const own = ownFields(type);
  if (own.length === 0) continue;
  let g = groups.find((x) => own.every((f) => (x.fields.get(f.name) ?? String(f.type)) === String(f.type)));
  if (!g) groups.push((g = { fields: new Map(), types: [] }));
  for (const f of own) g.fields.set(f.name, String(f.type));
  g.types.push(type);
}
const TYPED_EVENTS = groups.map(
  (g) =>
    `query($g: ID!, $a: Int) { events(gameId: $g, after: $a, limit: 100) { hasMore events { __typename seq type at data ${g.types
      .map(
        (t) =>
          `... on ${t.name} { ${ownFields(t)
            .map((f) => `${f.name} ${subSelection(f)}`)
            .join(' ')} }`,
      )
      .join(' ')} } } }`,
);

describe('typed events: the engine', () => {
  it('every event type and payload field of bot games of both editions is in the schema', () => {
    const seen = new Map<string, Set<string>>();
    const problems = new Set<string>();
    const check = (e: GameEvent) => {
      for (const viewer of [e.secret?.seat ?? 0, null]) {
        const v = viewEvent(e, viewer);
        for (const p of describeProblems(v)) problems.add(p);
        const keys = seen.get(v.type) ?? new Set<string>();
        for (const k of Object.keys(v.data)) keys.add(k);
        seen.set(v.type, keys);
      }
    };
    for (const edition of ['classic', 'galecrest'] as const) {
      for (let players = 2; players <= 6; players++) {
        for (let i = 0; i < 6; i++) {
          const opts = { edition, players, seed: `typed-${edition}-${players}-${i}` };
          const setup: GameEvent[] = [];
          createGame(opts, setup);
          setup.forEach(check);
          // Seat 0 plays each kind in turn, the other seats random: the events' shapes come from the
          // rules, not from which legal move a bot picks (these 60 games reach the same 108 event
          // types and payload fields as with every seat of a game one kind), and an all-expert
          // table was three quarters of this test's time.
          playBotGame(opts, [BOT_KINDS[i % BOT_KINDS.length], 'random'], i, (_g, _cmd, events) =>
            events.forEach(check),
          );
        }
      }
    }
    expect([...problems]).toEqual([]);
    // The drive reached the shapes that matter (a hidden-loot event, a secret move, both editions' scoring).
    for (const t of [
      'cardChosen',
      'answered',
      'lootGained',
      'character',
      'campaignScored',
      'voyageBanked',
      'reputation',
      'gameEnd',
    ])
      expect(seen.has(t)).toBe(true);
  }, 120_000); // 60 bot games, an expert bot in 20 of them

  it('every object type implementing Event is a value of EventType and back, and every field mapping names a real field', () => {
    const values = (schema.getType('EventType') as GraphQLEnumType).getValues().map((v) => v.name);
    expect(eventTypes.map((t) => t.name).sort()).toEqual(values.map(eventTypeName).sort());
    for (const [type, maps] of Object.entries(FIELD_MAPS)) {
      const t = schema.getType(eventTypeName(type)) as GraphQLObjectType;
      for (const f of Object.keys(maps)) expect(t.getFields()[f], `${type}.${f}`).toBeDefined();
    }
  });
});

describe('typed events: through the API', () => {
  let t: Awaited<ReturnType<typeof testApp>>;
  let clock = new Date('2031-01-01T00:00:00.000Z');
  beforeAll(async () => {
    t = await testApp({ now: () => clock });
  });
  afterAll(() => t.close());

  async function typedLog(gameId: string, token?: string) {
    const pages: any[][] = [];
    for (const query of TYPED_EVENTS) {
      const out: any[] = [];
      for (let after = 0; ; ) {
        const r = await t.gql(query, { g: gameId, a: after }, token);
        expect(r.errors).toBeUndefined();
        out.push(...r.data.events.events);
        if (!r.data.events.hasMore) break;
        after = out[out.length - 1].seq;
      }
      pages.push(out);
    }
    // Each event's own fields come from the one document whose group holds its type.
    const out = pages[0].map((e, i) => Object.assign({}, ...pages.map((p) => p[i])));
    for (const e of out) {
      expect(e.__typename).toBe(eventTypeName(e.type));
      expect(describeProblems(e)).toEqual([]);
      // The typed fields carry the payload: the same values as `data`, mapped where the schema says so.
      const typed = typedEvent(e);
      for (const k of Object.keys(e.data))
        expect(JSON.stringify(e[k]), `${e.type}.${k}`).toBe(JSON.stringify(typed[k]));
    }
    return out;
  }

  it('lobby, classic and Galecrest games, a timeout, a bot take-over and a rematch are typed end to end', async () => {
    const [a, b, c] = await Promise.all(['Typed A', 'Typed B', 'Typed C'].map((n) => t.signUp(n)));
    const create = `mutation($i: CreateGameInput!) { createGame(input: $i) { id } }`;
    const types = new Set<string>();
    // Lobby: join, the creator leaves (creatorChanged), the last one leaves (gameCancelled).
    const lobby = (await t.gql(create, { i: { edition: 'CLASSIC', seats: 3 } }, a.token)).data.createGame.id;
    await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g: lobby }, b.token);
    await t.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g: lobby }, a.token);
    await t.gql(`mutation($g: ID!) { leaveGame(gameId: $g) { id } }`, { g: lobby }, b.token);
    for (const e of await typedLog(lobby)) types.add(e.type);
    // Both editions to the end (classic with bots seated at the start), then a rematch.
    for (const edition of ['CLASSIC', 'GALECREST']) {
      const g = (await t.gql(create, { i: { edition, seats: 3, bots: 1, seed: `typed-${edition}` } }, a.token)).data
        .createGame.id;
      await t.gql(`mutation($g: ID!) { joinGame(gameId: $g) { id } }`, { g }, b.token);
      expect(codeOf(await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g }, a.token))).toBeUndefined();
      await playToEnd(t.gql, g, [a.token, b.token, null], 7);
      expect(codeOf(await t.gql(`mutation($g: ID!) { rematch(gameId: $g) { id } }`, { g }, a.token))).toBeUndefined();
      for (const seat of [a.token, b.token, undefined]) for (const e of await typedLog(g, seat)) types.add(e.type);
    }
    // A timed game: fillWithBots seats a bot, a deadline passes twice, a bot takes the seat over.
    const timed = (
      await t.gql(
        create,
        { i: { edition: 'CLASSIC', seats: 3, decisionTimeLimitHours: 1, timeoutsBeforeBot: 1 } },
        c.token,
      )
    ).data.createGame.id;
    expect(
      codeOf(
        await t.gql(
          `mutation($g: ID!) { startGame(gameId: $g, fillWithBots: true, botKind: RANDOM) { id } }`,
          { g: timed },
          c.token,
        ),
      ),
    ).toBeUndefined();
    clock = new Date(clock.getTime() + 2 * 3600_000);
    await t.app.sweep();
    for (const e of await typedLog(timed, c.token)) types.add(e.type);
    for (const must of [
      'gameCreated',
      'playerJoined',
      'playerLeft',
      'creatorChanged',
      'gameCancelled',
      'botSeated',
      'gameStarted',
      'gameEnd',
      'rematch',
      'timeout',
      'seatReplaced',
    ]) {
      expect(types, must).toContain(must);
    }
  }, 120_000);
});
