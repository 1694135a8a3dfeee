// Depth and cost limits count a fragment by what it expands to: documents written the way Apollo
// Client and Relay write them (named fragments, __typename everywhere) pass when the same query
// written inline passes, and a document too deep stays too deep however it is split.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARMOR } from '../../../functions/api/http/app.js';
import { codeOf, testApp } from '../../setup/app.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

// Depth 5 (game > me > prompts > options > id), spread over three named fragments as Apollo
// Client does; counting spreads as levels made it 9 and rejected it.
const APOLLO_STYLE = `
  query GameScreen($id: ID!) {
    game(id: $id) { __typename ...GameParts }
  }
  fragment GameParts on Game {
    __typename id status phase
    seats { __typename ...SeatParts }
    me { __typename ...MeParts }
    events: lastSeq
  }
  fragment SeatParts on Seat { __typename seat name loot { __typename kind count } }
  fragment MeParts on Me { __typename seat hand prompts { __typename id kind options { __typename ...OptionParts } } }
  fragment OptionParts on PromptOption { __typename id label }
`;

describe('limits count fragments by what they expand to', () => {
  it('accepts an Apollo-Client-style document with nested named fragments', async () => {
    const a = await t.signUp('Fragments');
    const g = (
      await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, a.token)
    ).data.createGame.id;
    await t.gql(`mutation($g: ID!) { startGame(gameId: $g) { id } }`, { g }, a.token);
    const r = await t.gql(APOLLO_STYLE, { id: g }, a.token);
    expect(r.errors).toBeUndefined();
    expect(r.data.game.__typename).toBe('Game');
    expect(r.data.game.me.hand.length).toBeGreaterThan(0);
  });

  it('typed event fragments (inline and named) count as their fields', async () => {
    const a = await t.signUp('Event fragments');
    const g = (
      await t.gql(`mutation { createGame(input: { edition: CLASSIC, seats: 2, bots: 1 }) { id } }`, {}, a.token)
    ).data.createGame.id;
    const doc = `
      query Log($g: ID!) { events(gameId: $g) { ...Page } }
      fragment Page on EventPage { hasMore events { ...Entry } }
      fragment Entry on Event { __typename seq type at ... on PlayerJoinedEvent { ...Joined } ... on CampaignScoredEvent { booty { kind count } } }
      fragment Joined on PlayerJoinedEvent { seat name }`;
    const r = await t.gql(doc, { g });
    expect(r.errors).toBeUndefined();
    expect(r.data.events.events[1]).toMatchObject({
      __typename: 'PlayerJoinedEvent',
      type: 'playerJoined',
      seat: 0,
      name: 'Event fragments',
    });
  });

  it('still rejects a document deeper than the limit, split into fragments or not', async () => {
    // __type > fields > type > ofType x5 > name: 9 levels, one more than the limit.
    expect(ARMOR.maxDepth.n).toBe(8);
    const inline = `{ __type(name: "Game") { fields { type { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } }`;
    expect(codeOf(await t.gql(inline))).toBe('GRAPHQL_VALIDATION_FAILED');
    const split = `{ __type(name: "Game") { ...F } } fragment F on __Type { fields { type { ...T } } } fragment T on __Type { ofType { ofType { ofType { ofType { ofType { name } } } } } }`;
    const r = await t.gql(split);
    expect(codeOf(r)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(r.errors![0].message).toMatch(/depth/i);
  });

  it('shows "Did you mean" suggestions: introspection is on, the schema is public', async () => {
    const r = await t.gql(`{ openGames { statuss } }`);
    expect(codeOf(r)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(r.errors![0].message).toContain('Did you mean "status"');
  });
});
