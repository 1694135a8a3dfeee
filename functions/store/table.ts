// The single table: key patterns, the table definition (shared with the CDK stack) and a
// `createTable` helper for the local server and tests. Nothing here knows the game rules.
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient, ResourceInUseException } from '@aws-sdk/client-dynamodb';

export const GSI1 = 'GSI1'; // player -> games
export const GSI2 = 'GSI2'; // sparse: games by status (open lobbies, active games for the sweep)
export const GSI3 = 'GSI3'; // sparse: work due at a time (game deadlines, webhook retries) for the sweep

const pad = (n: number): string => String(n).padStart(10, '0');

/** Key patterns. Every item has PK and SK; index keys are set only where an item is indexed. */
/** The game id of an item keyed `GAME#<id>` (index queries return keys only). */
export const gameIdOf = (item: Record<string, unknown>): string => (item.PK as string).slice('GAME#'.length);

export const keys = {
  player: (playerId: string) => ({ PK: `PLAYER#${playerId}`, SK: 'PROFILE' }),
  game: (gameId: string) => ({ PK: `GAME#${gameId}`, SK: 'GAME' }),
  member: (gameId: string, playerId: string) => ({ PK: `GAME#${gameId}`, SK: `MEMBER#${playerId}` }),
  memberIndex: (playerId: string, createdAt: string, gameId: string) => ({ GSI1PK: `PLAYER#${playerId}`, GSI1SK: `${createdAt}#${gameId}` }),
  /** Zero-padded so that sort-key order is seq order. */
  event: (gameId: string, seq: number) => ({ PK: `GAME#${gameId}`, SK: `EVENT#${pad(seq)}` }),
  eventSk: (seq: number) => `EVENT#${pad(seq)}`,
  request: (gameId: string, scope: string, requestId: string) => ({ PK: `GAME#${gameId}`, SK: `REQUEST#${scope}#${requestId}` }),
  status: (status: string) => `STATUS#${status}`,
  /** Due-work index keys: `kind` is GAME (next deadline) or DELIVERY (next webhook attempt). */
  due: (kind: string, at: string, id: string) => ({ GSI3PK: `DUE#${kind}`, GSI3SK: `${at}#${id}` }),
  webhook: (playerId: string, hookId: string) => ({ PK: `PLAYER#${playerId}`, SK: `WEBHOOK#${hookId}` }),
  delivery: (deliveryId: string) => ({ PK: `DELIVERY#${deliveryId}`, SK: 'DELIVERY' }),
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
    AttributeDefinitions: [s('PK'), s('SK'), s('GSI1PK'), s('GSI1SK'), s('GSI2PK'), s('GSI2SK'), s('GSI3PK'), s('GSI3SK')],
    KeySchema: [
      { AttributeName: 'PK', KeyType: 'HASH' as const },
      { AttributeName: 'SK', KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: [index(GSI1, 'GSI1PK', 'GSI1SK'), index(GSI2, 'GSI2PK', 'GSI2SK'), index(GSI3, 'GSI3PK', 'GSI3SK')],
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
