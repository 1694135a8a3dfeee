// The only way the client talks to the service: POST /graphql with the bearer token from
// session.ts (bearerToken). Every operation is a document of web/operations/*.graphql; its types
// are generated from the schema (web/src/generated.ts, `npm run codegen`).

import {
  AnswerDocument,
  BoardsDocument,
  CreateDocument,
  EventsDocument,
  GameDocument,
  GameVersionDocument,
  JoinDocument,
  LeaveDocument,
  MyGamesDocument,
  OpenGamesDocument,
  PlayDocument,
  StartDocument,
  type TypedDocumentString,
  type CreateGameInput,
  type Edition,
} from './generated';
import { bearerToken } from './session';

export { loadSession, saveSession, type Session } from './session';

export type { Board, BotKind, CreateGameInput, Edition, GameStatus, Phase } from './generated';

export type { Game, GameEvent, GameSummary, IslandCard, Me, Prompt, Seat } from './types';
import type { Game, GameEvent, GameSummary } from './types';

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

/** The variables of an operation: left out when it has none. */
type VariablesOf<V> = V extends Record<string, never> ? [] : [variables: V];

async function rawRequest<T>(query: string, variables: unknown): Promise<GqlResponse<T>> {
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
export async function request<R, V>(doc: TypedDocumentString<R, V>, ...[variables]: VariablesOf<V>): Promise<R> {
  const body = await rawRequest<R>(doc.toString(), variables ?? {});
  if (body.errors?.length) {
    const e = body.errors[0];
    throw new ApiError(e.message, e.extensions?.code ?? 'ERROR');
  }
  if (!body.data) throw new ApiError('The server sent no data.', 'ERROR');
  return body.data;
}

export async function fetchGame(id: string): Promise<Game | null> {
  return (await request(GameDocument, { id })).game;
}

/** Only the game's version (the cheap poll); null: no such game. */
export async function fetchVersion(id: string): Promise<number | null> {
  return (await request(GameVersionDocument, { id })).game?.version ?? null;
}

export const api = {
  /** The board sides a new game of the edition can be created with now. */
  boards: (edition: Edition) => request(BoardsDocument, { e: edition }).then((d) => d.boards),
  myGames: () => request(MyGamesDocument).then((d) => d.myGames),
  openGames: () => request(OpenGamesDocument).then((d) => d.openGames),
  createGame: (input: CreateGameInput) => request(CreateDocument, { input }).then((d) => d.createGame.id),
  joinGame: (gameId: string) => request(JoinDocument, { g: gameId }),
  leaveGame: (gameId: string) => request(LeaveDocument, { g: gameId }),
  startGame: (gameId: string) => request(StartDocument, { g: gameId }),
  playCard: (gameId: string, rank: number) => request(PlayDocument, { g: gameId, r: rank, q: requestId() }),
  answerPrompt: (gameId: string, promptId: string, optionId: string) =>
    request(AnswerDocument, { g: gameId, p: promptId, o: optionId, q: requestId() }),
  /** One page of the event log after `after`. */
  events: (gameId: string, after: number) => request(EventsDocument, { g: gameId, a: after }).then((d) => d.events),
};

export function requestId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
