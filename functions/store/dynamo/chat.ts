// Game chat: one item per message in the game's partition (`CHAT#<number>`), numbered 1, 2, 3 ...
// in the order they were written. A message is written by one conditional put on the next number
// (like a commit): two writers that read the same last number write the same key, one wins and
// the other reads again, so numbers have no gaps and a reader that saw message n has seen every
// message before it (the cursor never skips one). The game's moderation item (`CHATMOD`) holds
// the players its moderator silenced. No rules here: who may post, hide or report is the API's.
import { type Db, eachLimited, getItem, isConditionFailed, putItem, queryItems, updateItem, wonRace } from './db.js';
import { keys, TTL_ATTRIBUTE } from './table.js';
import type { ChatReport, ChatRecord } from '../records.js';

const toRecord = (it: Record<string, unknown>): ChatRecord => {
  const { PK: _pk, SK: _sk, [TTL_ATTRIBUTE]: _ttl, ...rest } = it;
  return rest as unknown as ChatRecord;
};

/** The number of the game's newest message (0: none). */
export async function lastChatSeq(db: Db, gameId: string): Promise<number> {
  const r = await queryItems(db, {
    TableName: db.table,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :chat)',
    ExpressionAttributeValues: { ':pk': keys.game(gameId).PK, ':chat': 'CHAT#' },
    ScanIndexForward: false,
    ConsistentRead: true,
    Limit: 1,
    ProjectionExpression: 'SK',
  });
  const it = r.Items?.[0];
  return it ? Number((it.SK as string).slice('CHAT#'.length)) : 0;
}

/** Writes message `m.seq` if nobody wrote that number yet (false: read the last number again). */
export async function putChat(db: Db, m: ChatRecord): Promise<boolean> {
  return wonRace(
    putItem(db, {
      TableName: db.table,
      Item: { ...keys.chat(m.gameId, m.seq), ...m },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

/** The query of a game's chat messages after number `after`, in order. */
const messagesAfter = (db: Db, gameId: string, after: number) => ({
  TableName: db.table,
  KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
  ExpressionAttributeValues: {
    ':pk': keys.game(gameId).PK,
    ':from': keys.chatSk(after + 1),
    ':to': keys.chatSk(999_999),
  },
});

/** Messages numbered above `after`, oldest first, at most `limit` (+ whether more follow). */
export async function listChat(
  db: Db,
  gameId: string,
  after: number,
  limit: number,
): Promise<{ items: ChatRecord[]; hasMore: boolean }> {
  const r = await queryItems(db, {
    ...messagesAfter(db, gameId, after),
    ConsistentRead: true,
    Limit: limit + 1,
  });
  const items = (r.Items ?? []).map(toRecord);
  return { items: items.slice(0, limit), hasMore: items.length > limit };
}

export async function getChat(db: Db, gameId: string, seq: number): Promise<ChatRecord | null> {
  const r = await getItem(db, { TableName: db.table, Key: keys.chat(gameId, seq), ConsistentRead: true });
  return r.Item ? toRecord(r.Item) : null;
}

/** Marks a message hidden (idempotent); false if there is no such message. */
export async function hideChat(db: Db, gameId: string, seq: number, by: string): Promise<boolean> {
  return wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.chat(gameId, seq),
      UpdateExpression: 'SET #h = :t, #by = if_not_exists(#by, :by)',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#h': 'hidden', '#by': 'hiddenBy' },
      ExpressionAttributeValues: { ':t': true, ':by': by },
    }),
  );
}

/**
 * Records `reporterId`'s report of a message: one per reporter (a second is 'already'), at most
 * `max` per message ('full'), 'missing' if there is no such message.
 */
export async function reportChat(
  db: Db,
  gameId: string,
  seq: number,
  reporterId: string,
  report: ChatReport,
  max: number,
): Promise<'ok' | 'already' | 'full' | 'missing'> {
  const key = keys.chat(gameId, seq);
  try {
    await updateItem(db, {
      TableName: db.table,
      Key: key,
      UpdateExpression: 'SET reports = if_not_exists(reports, :empty)',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':empty': {} },
    });
    await updateItem(db, {
      TableName: db.table,
      Key: key,
      UpdateExpression: 'SET reports.#r = :report',
      ConditionExpression: 'attribute_not_exists(reports.#r) AND size(reports) < :max',
      ExpressionAttributeNames: { '#r': reporterId },
      ExpressionAttributeValues: { ':report': report, ':max': max },
    });
    return 'ok';
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
    const cur = await getChat(db, gameId, seq);
    if (!cur) return 'missing';
    return cur.reports?.[reporterId] ? 'already' : 'full';
  }
}

/** The players the game's moderator silenced in its chat. */
export async function listSilenced(db: Db, gameId: string): Promise<string[]> {
  const r = await getItem(db, { TableName: db.table, Key: keys.chatModeration(gameId), ConsistentRead: true });
  const set = r.Item?.silenced as Set<string> | undefined;
  return set ? [...set] : [];
}

/** Silences (or lets speak again) a player in a game's chat; false when `max` are silenced already. */
export async function setSilenced(
  db: Db,
  gameId: string,
  playerId: string,
  silenced: boolean,
  max: number,
): Promise<boolean> {
  if (!silenced) {
    await updateItem(db, {
      TableName: db.table,
      Key: keys.chatModeration(gameId),
      UpdateExpression: 'DELETE silenced :p',
      ExpressionAttributeValues: { ':p': new Set([playerId]) },
    });
    return true;
  }
  return wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.chatModeration(gameId),
      UpdateExpression: 'ADD silenced :p',
      ConditionExpression: 'attribute_not_exists(silenced) OR contains(silenced, :id) OR size(silenced) < :max',
      ExpressionAttributeValues: { ':p': new Set([playerId]), ':id': playerId, ':max': max },
    }),
  );
}

/**
 * Gives every message of a game the TTL its log gets when archived (retention.ts), so the chat
 * goes with the events. Messages already carrying that time are not written again.
 */
export async function expireChat(db: Db, gameId: string, expiresAt: number): Promise<number> {
  let after = 0;
  let n = 0;
  for (;;) {
    const r = await queryItems(db, {
      ...messagesAfter(db, gameId, after),
      ProjectionExpression: 'SK, #ttl',
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      Limit: 200,
    });
    const items = r.Items ?? [];
    const due = items.filter((it) => it[TTL_ATTRIBUTE] !== expiresAt);
    await eachLimited(due, 16, async (it) => {
      await updateItem(db, {
        TableName: db.table,
        Key: { PK: keys.game(gameId).PK, SK: it.SK },
        UpdateExpression: 'SET #ttl = :t',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':t': expiresAt },
      });
    });
    n += due.length;
    if (items.length < 200) {
      await expireModeration(db, gameId, expiresAt);
      return n;
    }
    after = Number((items[items.length - 1].SK as string).slice('CHAT#'.length));
  }
}

async function expireModeration(db: Db, gameId: string, expiresAt: number): Promise<void> {
  await wonRace(
    updateItem(db, {
      TableName: db.table,
      Key: keys.chatModeration(gameId),
      UpdateExpression: 'SET #ttl = :t',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':t': expiresAt },
    }),
  );
}
