// The only way the client talks to the service: POST /graphql with the bearer token from
// session.ts (bearerToken). Types mirror schema/*.graphql (only the fields this client asks for).

import { bearerToken, type Session } from './session';

export { loadSession, saveSession, type Session } from './session';

export type Edition = 'CLASSIC' | 'GALECREST';
export type Board = 'CALM' | 'STORMY' | 'UNCHARTED';
export type BotKind = 'RANDOM' | 'GREEDY' | 'EXPERT';
export type GameStatus = 'LOBBY' | 'ACTIVE' | 'FINISHED';
export type Phase = 'CHOOSE' | 'DAY' | 'DUSK' | 'NIGHT' | 'ANCHOR' | 'FINISHED';

export interface IslandCard {
  /** -1: a neutral card (the two-player Galecrest Midshipman). */
  seat: number;
  /** Not always whole: the Midshipman sits at 20.5. */
  rank: number;
}
export interface LootCount {
  kind: string;
  count: number;
}
export interface Seat {
  seat: number;
  playerId: string | null;
  name: string | null;
  isBot: boolean;
  isOpen: boolean;
  hasChosen: boolean;
  awaited: boolean;
  deadline: string | null;
  doubloons: number;
  score: number;
  handSize: number;
  den: number[];
  graveyard: number[] | null;
  graveyardSize: number;
  loot: LootCount[] | null;
  lootCount: number;
  reputation: number | null;
}
export interface PromptOption {
  id: string;
  label: string;
}
export interface Prompt {
  id: string;
  kind: string;
  text: string;
  deadline: string | null;
  options: PromptOption[];
}
export interface Me {
  seat: number;
  hand: number[];
  choice: number | null;
  choiceDeadline: string | null;
  prompts: Prompt[];
}
export interface RankedSeat {
  place: number;
  seat: number;
  name: string | null;
  score: number;
  /** Why this seat ranks below the one before it on equal points; null when not tied. */
  tieBreak: string | null;
}
export interface LootInfo {
  kind: string;
  name: string;
  tokens: number;
  side: string | null;
  worth: string;
  effect: string;
}
/** Galecrest table data (null in classic). */
export interface GalecrestBoard {
  /** Lowest space first: the seat on each space, null for an unused token. */
  reputation: (number | null)[];
  side: Board | null;
  tiles: { kind: string; side: string }[];
  dial: number[];
}
export interface Game {
  id: string;
  status: GameStatus;
  edition: Edition;
  board: Board | null;
  galecrest: GalecrestBoard | null;
  creatorId: string;
  seatCount: number;
  decisionTimeLimitHours: number | null;
  createdAt: string;
  version: number;
  lastSeq: number;
  round: number;
  /** Days in each round; its length is the number of rounds. */
  daysPerRound: number[];
  day: number;
  phase: Phase;
  island: IslandCard[];
  days: string[][];
  bagSize: number;
  lootLegend: LootInfo[];
  reputationPayouts: number[] | null;
  nextDeadline: string | null;
  awaiting: number[];
  pending: { seat: number; kind: string; promptId: string } | null;
  seats: Seat[];
  me: Me | null;
  ranking: RankedSeat[];
  seed: string | null;
}
/** A game in a list (lobby): fewer fields. */
export type GameSummary = Pick<Game, 'id' | 'status' | 'edition' | 'board' | 'seatCount' | 'createdAt' | 'round' | 'day' | 'phase' | 'awaiting' | 'decisionTimeLimitHours' | 'creatorId' | 'nextDeadline' | 'lastSeq'> & {
  seats: Pick<Seat, 'seat' | 'name' | 'isBot' | 'isOpen' | 'deadline'>[];
  me: Pick<Me, 'seat'> | null;
};
export interface GameEvent {
  seq: number;
  type: string;
  at: string;
  data: Record<string, unknown>;
  /** The event in words for this caller, from the server. */
  text: string;
}
export interface CreateGameInput {
  edition: Edition;
  seats: number;
  board?: Board;
  bots?: number;
  botKind?: BotKind;
  seed?: string;
  decisionTimeLimitHours?: number | null;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

interface GqlResponse<T> {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];
}

async function rawRequest<T>(query: string, variables: Record<string, unknown> = {}): Promise<GqlResponse<T>> {
  const token = await bearerToken();
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    throw new ApiError('The server cannot be reached.', 'NETWORK');
  }
  let body: GqlResponse<T>;
  try {
    body = (await res.json()) as GqlResponse<T>;
  } catch {
    throw new ApiError(`The server answered ${res.status} without JSON.`, 'HTTP');
  }
  return body;
}

/** Runs one operation; throws ApiError with the first error's message and code. */
export async function request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await rawRequest<T>(query, variables);
  if (body.errors?.length) {
    const e = body.errors[0];
    throw new ApiError(e.message, e.extensions?.code ?? 'ERROR');
  }
  if (!body.data) throw new ApiError('The server sent no data.', 'ERROR');
  return body.data;
}

const SEAT_FIELDS = 'seat playerId name isBot isOpen hasChosen awaited deadline doubloons score handSize den graveyard graveyardSize loot { kind count } lootCount reputation';
const GAME_FIELDS = `id status edition board galecrest { reputation side tiles { kind side } dial } creatorId seatCount decisionTimeLimitHours createdAt version lastSeq
  round daysPerRound day phase island { seat rank } days bagSize lootLegend { kind name tokens side worth effect } reputationPayouts nextDeadline awaiting pending { seat kind promptId }
  seats { ${SEAT_FIELDS} }
  me { seat hand choice choiceDeadline prompts { id kind text deadline options { id label } } }
  ranking { place seat name score tieBreak } seed`;
const SUMMARY_FIELDS = 'id status edition board seatCount createdAt round day phase awaiting decisionTimeLimitHours creatorId nextDeadline lastSeq seats { seat name isBot isOpen deadline } me { seat }';

export async function fetchGame(id: string): Promise<Game | null> {
  return (await request<{ game: Game | null }>(`query Game($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`, { id })).game;
}

/** Only the game's version (the cheap poll); null: no such game. */
export async function fetchVersion(id: string): Promise<number | null> {
  return (await request<{ game: { version: number } | null }>('query GameVersion($id: ID!) { game(id: $id) { version } }', { id })).game?.version ?? null;
}

export const api = {
  signUp: (name: string) => request<{ signUp: Session }>('mutation SignUp($name: String!) { signUp(name: $name) { playerId name token } }', { name }).then((d) => d.signUp),
  myGames: () => request<{ myGames: GameSummary[] }>(`query MyGames { myGames { ${SUMMARY_FIELDS} } }`).then((d) => d.myGames),
  openGames: () => request<{ openGames: GameSummary[] }>(`query OpenGames { openGames { ${SUMMARY_FIELDS} } }`).then((d) => d.openGames),
  createGame: (input: CreateGameInput) =>
    request<{ createGame: { id: string } }>('mutation Create($input: CreateGameInput!) { createGame(input: $input) { id } }', { input }).then((d) => d.createGame.id),
  joinGame: (gameId: string) => request<{ joinGame: { id: string } }>('mutation Join($g: ID!) { joinGame(gameId: $g) { id } }', { g: gameId }),
  leaveGame: (gameId: string) => request<{ leaveGame: { id: string } }>('mutation Leave($g: ID!) { leaveGame(gameId: $g) { id } }', { g: gameId }),
  startGame: (gameId: string) => request<{ startGame: { id: string } }>('mutation Start($g: ID!) { startGame(gameId: $g) { id } }', { g: gameId }),
  playCard: (gameId: string, rank: number) =>
    request<{ playCard: { id: string } }>('mutation Play($g: ID!, $r: Int!, $q: ID) { playCard(gameId: $g, rank: $r, requestId: $q) { id } }', {
      g: gameId,
      r: rank,
      q: requestId(),
    }),
  answerPrompt: (gameId: string, promptId: string, optionId: string) =>
    request<{ answerPrompt: { id: string } }>(
      'mutation Answer($g: ID!, $p: ID!, $o: ID!, $q: ID) { answerPrompt(gameId: $g, promptId: $p, optionId: $o, requestId: $q) { id } }',
      { g: gameId, p: promptId, o: optionId, q: requestId() },
    ),
  /** One page of the event log after `after`. */
  events: (gameId: string, after: number) =>
    request<{ events: { events: GameEvent[]; hasMore: boolean } }>(
      'query Events($g: ID!, $a: Int) { events(gameId: $g, after: $a, limit: 100) { hasMore events { seq type at data text } } }',
      { g: gameId, a: after },
    ).then((d) => d.events),
};

function requestId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
