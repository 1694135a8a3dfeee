// The typed event log: each event type has its own GraphQL object type (`<Type>Event`, see
// schema/events.graphql) whose fields are the payload's keys. Most values go out as they are;
// this maps the few that the schema types differently (upper-case enums, loot maps as lists).
import { GraphQLError } from 'graphql';
import { upper } from '../enums.js';

export interface LogEvent {
  seq: number;
  at: string;
  type: string;
  data: Record<string, unknown>;
  /** Who caused the change (functions/api/play/commit.ts actorOf); null: the service itself. */
  actor?: { playerId: string | null; clientId: string | null } | null;
}

/** The GraphQL object type of an event type: `cardChosen` -> `CardChosenEvent`. */
export const eventTypeName = (type: string): string => `${type.charAt(0).toUpperCase()}${type.slice(1)}Event`;

/** A string as the schema's enum value; anything else (an absent board) as it is. */
const asEnum = (v: unknown) => (typeof v === 'string' ? upper(v) : v);
const lootList = (v: unknown) =>
  v && typeof v === 'object'
    ? Object.entries(v as Record<string, number>).map(([kind, count]) => ({ kind, count }))
    : v;

/** Payload fields whose schema type differs from the engine's value: event type -> field -> mapping. */
export const FIELD_MAPS: Record<string, Record<string, (v: unknown) => unknown>> = {
  gameCreated: { edition: asEnum, board: asEnum },
  botSeated: { bot: asEnum },
  seatReplaced: { bot: asEnum },
  phase: { phase: asEnum },
  campaignScored: { booty: lootList },
};

/**
 * An event as its GraphQL object (the parent the resolvers of every `<Type>Event` get): the
 * envelope, `data` (deprecated) and the payload's own fields, open here because they differ by
 * type (test/api/view/events-typed.test.ts checks them against schema/events.graphql).
 */
export interface TypedEvent {
  seq: number;
  at: string;
  type: string;
  data: Record<string, unknown>;
  actor: { playerId: string | null; clientId: string | null } | null;
  [field: string]: unknown;
}

/** An event as its GraphQL object: the envelope, `data` (deprecated) and the payload's own fields. */
export function typedEvent(e: LogEvent): TypedEvent {
  const maps = FIELD_MAPS[e.type] ?? {};
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e.data)) {
    if (k === 'seq' || k === 'at' || k === 'type' || k === 'data' || k === 'actor') continue; // the envelope wins
    fields[k] = maps[k] ? maps[k](v) : v;
  }
  return { ...fields, seq: e.seq, at: e.at, type: e.type, data: e.data, actor: e.actor ?? null };
}

/** Event.__resolveType: an event type the schema does not know is a server bug, not a client's. */
export function resolveEventType(
  e: { type: string },
  _ctx: unknown,
  info: { schema: { getType(name: string): unknown } },
): string {
  const name = eventTypeName(e.type);
  if (!info.schema.getType(name)) throw new GraphQLError(`event type ${e.type} is not in the schema`);
  return name;
}
