// The single table: key patterns, the table definition (shared with the CDK stack) and a
// `createTable` helper for the local server and tests. Nothing here knows the game rules.
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceInUseException,
} from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';

export const GSI1 = 'GSI1'; // player -> games
export const GSI2 = 'GSI2'; // sparse: games by status (open lobbies, active games for the sweep)
export const GSI3 = 'GSI3'; // sparse: work due at a time (game deadlines, webhook retries) for the sweep

const pad = (n: number): string => String(n).padStart(10, '0');

/**
 * Index keys that every game (or delivery) writes are spread over this many partitions, so no
 * single index partition takes every commit (DynamoDB throttles a partition key at about 1,000
 * writes/s, and a throttled index throttles the table). Readers query all shards in parallel.
 */
export const INDEX_SHARDS = 8;

/** The shard (0..INDEX_SHARDS-1) of an id: FNV-1a of its text. */
export function shardOf(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % INDEX_SHARDS;
}

/**
 * The TTL attribute (epoch seconds) of items that expire: request claims, deliveries, push
 * subscriptions, and finished games' commit items (retention); the table enables TTL on it.
 */
export const TTL_ATTRIBUTE = 'expiresAt';

/** The schema version of the items this code writes (see `checkSchema`). */
export const SCHEMA_VERSION = 2;

/** Key patterns. Every item has PK and SK; index keys are set only where an item is indexed. */
/** The game id of an item keyed `GAME#<id>` (index queries return keys only). */
export const gameIdOf = (item: Record<string, unknown>): string => (item.PK as string).slice('GAME#'.length);

export const keys = {
  player: (playerId: string) => ({ PK: `PLAYER#${playerId}`, SK: 'PROFILE' }),
  /** The game's snapshot (bounded: the current state, never the history). */
  game: (gameId: string) => ({ PK: `GAME#${gameId}`, SK: 'GAME' }),
  /**
   * A commit item: keyed by the seq of its first event (every commit has at least one), so two
   * writers computing on the same version write the same key and only one of them wins.
   * `COMMIT#` sorts before `GAME`: one descending query reads the snapshot and the newest commits.
   */
  commit: (gameId: string, firstSeq: number) => ({ PK: `GAME#${gameId}`, SK: `COMMIT#${pad(firstSeq)}` }),
  commitSk: (firstSeq: number) => `COMMIT#${pad(firstSeq)}`,
  /** What the API keeps of a game once its log is gone (TTL): sorts before `COMMIT#`. */
  archive: (gameId: string) => ({ PK: `GAME#${gameId}`, SK: 'ARCHIVE' }),
  member: (gameId: string, playerId: string) => ({ PK: `GAME#${gameId}`, SK: `MEMBER#${playerId}` }),
  memberIndex: (playerId: string, createdAt: string, gameId: string) => ({
    GSI1PK: `PLAYER#${playerId}`,
    GSI1SK: `${createdAt}#${gameId}`,
  }),
  request: (gameId: string, scope: string, requestId: string) => ({
    PK: `GAME#${gameId}`,
    SK: `REQUEST#${scope}#${requestId}`,
  }),
  /** Status index partition of a game: `STATUS#<status>#<shard of the id>`. */
  status: (status: string, shard: number) => `STATUS#${status}#${shard}`,
  /** Due-work index keys: `kind` is GAME (next deadline), LOG (a log to archive), DELIVERY (next webhook attempt), REMIND (a player's e-mail reminders to check) or OUTBOX (a commit's notices not yet handled), sharded by id. */
  due: (kind: string, at: string, id: string) => ({ GSI3PK: `DUE#${kind}#${shardOf(id)}`, GSI3SK: `${at}#${id}` }),
  dueShard: (kind: string, shard: number) => `DUE#${kind}#${shard}`,
  /** The store's own marker item: which schema version wrote the table. */
  meta: () => ({ PK: 'META', SK: 'SCHEMA' }),
  webhook: (playerId: string, hookId: string) => ({ PK: `PLAYER#${playerId}`, SK: `WEBHOOK#${hookId}` }),
  /** A site-wide webhook, in its integrator client's partition. */
  siteWebhook: (clientId: string, hookId: string) => ({ PK: `CLIENT#${clientId}`, SK: `WEBHOOK#${hookId}` }),
  delivery: (deliveryId: string) => ({ PK: `DELIVERY#${deliveryId}`, SK: 'DELIVERY' }),
  /** A player's rating in an edition (functions/store/ratings.ts). */
  rating: (playerId: string, edition: string) => ({ PK: `PLAYER#${playerId}`, SK: `RATING#${edition}` }),
  /** The leaderboard entry of a rating item: GSI2, sharded by player, sorted by rating. */
  leaderboard: (edition: string, playerId: string, sortKey: string) => ({
    GSI2PK: `RATING#${edition}#${shardOf(playerId)}`,
    GSI2SK: sortKey,
  }),
  leaderboardShard: (edition: string, shard: number) => `RATING#${edition}#${shard}`,
  /** One rated game in a player's history, sorted by when the game ended. */
  ratingHistory: (playerId: string, edition: string, endedAt: string, gameId: string) => ({
    PK: `PLAYER#${playerId}`,
    SK: `RATED#${edition}#${endedAt}#${gameId}`,
  }),
  ratingHistoryPrefix: (edition: string) => `RATED#${edition}#`,
  /** The marker of a rated game: its own partition, outside the game's (loads and TTL never see it). */
  ratedGame: (gameId: string) => ({ PK: `RATEDGAME#${gameId}`, SK: 'RATED' }),
  /** A player's e-mail reminder settings (functions/store/reminders.ts). */
  reminders: (playerId: string) => ({ PK: `PLAYER#${playerId}`, SK: 'REMINDERS' }),
  /** A mail that goes at most once (a turn's reminder, a day's digest, a confirmation). */
  mailMark: (playerId: string, mark: string) => ({ PK: `PLAYER#${playerId}`, SK: `MAILED#${mark}` }),
  /** The key that signs mail links. */
  mailKey: () => ({ PK: 'META', SK: 'MAILKEY' }),
  /**
   * A chat message of a game (functions/store/chat.ts), by its number in the game's chat:
   * `CHAT#` sorts before `COMMIT#`, outside the range every game load reads.
   */
  chat: (gameId: string, seq: number) => ({ PK: `GAME#${gameId}`, SK: `CHAT#${String(seq).padStart(6, '0')}` }),
  chatSk: (seq: number) => `CHAT#${String(seq).padStart(6, '0')}`,
  /** A game's chat moderation: the players its moderator silenced. */
  chatModeration: (gameId: string) => ({ PK: `GAME#${gameId}`, SK: 'CHATMOD' }),
  /** A profile counter item of a player in an edition (functions/store/profiles.ts). */
  profile: (playerId: string, edition: string) => ({ PK: `PLAYER#${playerId}`, SK: `STATS#${edition}` }),
};

/** The table shape; the CDK stack must declare the same keys and indexes. */
export function tableDefinition(tableName: string) {
  const s = (AttributeName: string) => ({ AttributeName, AttributeType: 'S' as const });
  const index = (IndexName: string, pk: string, sk: string) => ({
    IndexName,
    KeySchema: [
      { AttributeName: pk, KeyType: 'HASH' as const },
      { AttributeName: sk, KeyType: 'RANGE' as const },
    ],
    // Index entries only point at items; readers fetch the items themselves (always fresh).
    Projection: { ProjectionType: 'KEYS_ONLY' as const },
  });
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [
      s('PK'),
      s('SK'),
      s('GSI1PK'),
      s('GSI1SK'),
      s('GSI2PK'),
      s('GSI2SK'),
      s('GSI3PK'),
      s('GSI3SK'),
    ],
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' as const },
      { AttributeName: 'SK', KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: [
      index(GSI1, 'GSI1PK', 'GSI1SK'),
      index(GSI2, 'GSI2PK', 'GSI2SK'),
      index(GSI3, 'GSI3PK', 'GSI3SK'),
    ],
  };
}

/** Creates the table if it does not exist and waits until it is ACTIVE (local and tests only). */
export async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new CreateTableCommand(tableDefinition(tableName)));
  } catch (e) {
    if (!(e instanceof ResourceInUseException)) throw e;
  }
  for (let i = 0; i < 200; i++) {
    const t = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (t.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`table ${tableName} did not become ACTIVE`);
}

/** Thrown by `checkSchema` for a table written by an older version of the store. */
export class OldSchemaError extends Error {
  constructor(tableName: string) {
    super(
      `table ${tableName} was written by the first version of the store (game items with the whole command log and an ` +
        'outbox, one item per event), which this version does not read. Nothing was changed. Keep the old data by moving ' +
        'it aside (e.g. `mv .data .data-v1`, or another DATA_DIR / TABLE_NAME) and start again on an empty store.',
    );
    this.name = 'OldSchemaError';
  }
}

/**
 * Checks that the table holds this version's items: a table with the schema marker is fine; an
 * empty table gets the marker; a table with items of the first version (an `outbox` on a game
 * item) is refused with OldSchemaError, before anything is written.
 */
export async function checkSchema(doc: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const meta = await doc.send(new GetCommand({ TableName: tableName, Key: keys.meta(), ConsistentRead: true }));
  if (meta.Item) {
    if ((meta.Item.version as number) > SCHEMA_VERSION)
      throw new Error(`table ${tableName} was written by a newer version of the store (schema ${meta.Item.version})`);
    return;
  }
  let startKey: Record<string, unknown> | undefined;
  do {
    const r = await doc.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'SK = :game AND attribute_exists(outbox) OR begins_with(SK, :event)',
        ExpressionAttributeValues: { ':game': 'GAME', ':event': 'EVENT#' },
        ProjectionExpression: 'PK',
        ExclusiveStartKey: startKey,
      }),
    );
    if ((r.Items ?? []).length > 0) throw new OldSchemaError(tableName);
    startKey = r.LastEvaluatedKey;
  } while (startKey);
  await doc.send(new PutCommand({ TableName: tableName, Item: { ...keys.meta(), version: SCHEMA_VERSION } }));
}
