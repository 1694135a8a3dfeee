// The client's names for the generated operation types (web/operations/*.graphql), apart from
// api.ts so that pure modules (day.ts, replay.ts) and their tests need no browser globals.
import type { EventsQuery, LobbyGameFragment, TableGameFragment, TableSeatFragment } from './generated';

/** A game at the table (web/operations/fragments.graphql TableGame). */
export type Game = TableGameFragment;
/** A game in a list (lobby): fewer fields. */
export type GameSummary = LobbyGameFragment;
export type Seat = TableSeatFragment;
export type Me = NonNullable<Game['me']>;
export type Prompt = Me['prompts'][number];
/** A card on the island: seat -1 is a neutral card; rank 20.5 the two-player Galecrest Midshipman. */
export type IslandCard = Game['island'][number];
export type GameEvent = EventsQuery['events']['events'][number];
