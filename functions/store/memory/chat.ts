// The in-memory twin of dynamo/chat.ts: a game's messages by number (a number is written once,
// so racing writers of the same number see one win), hiding, bounded reports, and the players
// its moderator silenced. A message's `expiresAt` (retention) is kept but never read back: like
// the DynamoDB adapter, which nothing deletes from before its TTL runs.
import type { Chat, Operations } from '../ports.js';
import type { ChatRecord } from '../records.js';
import { byKey, copy } from './pages.js';

/** The sort key of a message (`CHAT#<number, 6 digits>`): the adapter's order and range. */
const chatSk = (seq: number) => `CHAT#${String(seq).padStart(6, '0')}`;

const toRecord = ({ expiresAt: _ttl, ...rest }: ChatRecord): ChatRecord => copy(rest);

export function memoryChat(): { chat: Chat; ops: Pick<Operations, 'expireChat'> } {
  const games = new Map<string, Map<number, ChatRecord>>();
  const messagesOf = (gameId: string) => games.get(gameId) ?? new Map<number, ChatRecord>();
  /** Messages numbered above `after` (up to 999,999), oldest first. */
  const after = (gameId: string, n: number) =>
    [...messagesOf(gameId).values()]
      .filter((m) => chatSk(m.seq) >= chatSk(n + 1) && chatSk(m.seq) <= chatSk(999_999))
      .sort((a, b) => byKey(chatSk(a.seq), chatSk(b.seq)));
  const chat: Chat = {
    async lastChatSeq(gameId) {
      const sks = [...messagesOf(gameId).keys()].map(chatSk).sort(byKey);
      return sks.length ? Number(sks[sks.length - 1].slice('CHAT#'.length)) : 0;
    },
    async putChat(m) {
      const messages = messagesOf(m.gameId);
      if (messages.has(m.seq)) return false;
      games.set(m.gameId, messages.set(m.seq, copy(m)));
      return true;
    },
    async listChat(gameId, from, limit) {
      const items = after(gameId, from);
      return { items: items.slice(0, limit).map(toRecord), hasMore: items.length > limit };
    },
    getChat: async (gameId, seq) => {
      const m = messagesOf(gameId).get(seq);
      return m ? toRecord(m) : null;
    },
    async hideChat(gameId, seq, by) {
      const m = messagesOf(gameId).get(seq);
      if (!m) return false;
      m.hidden = true;
      m.hiddenBy ??= by;
      return true;
    },
    async reportChat(gameId, seq, reporterId, report, max) {
      const m = messagesOf(gameId).get(seq);
      if (!m) return 'missing';
      // The adapter's first update gives the message its (empty) reports whatever comes next.
      const reports = (m.reports ??= {});
      if (reports[reporterId]) return 'already';
      if (Object.keys(reports).length >= max) return 'full';
      reports[reporterId] = copy(report);
      return 'ok';
    },
    ...moderation(),
  };
  return { chat, ops: { expireChat: async (gameId, expiresAt) => expire(after(gameId, 0), expiresAt) } };
}

/** Gives the messages the retention time; answers how many did not have it yet. */
function expire(messages: ChatRecord[], expiresAt: number): number {
  const due = messages.filter((m) => m.expiresAt !== expiresAt);
  for (const m of due) m.expiresAt = expiresAt;
  return due.length;
}

/** The players a game's moderator silenced, at most `max` at once. */
function moderation(): Pick<Chat, 'listSilenced' | 'setSilenced'> {
  const silenced = new Map<string, Set<string>>();
  return {
    listSilenced: async (gameId) => [...(silenced.get(gameId) ?? [])],
    async setSilenced(gameId, playerId, on, max) {
      const set = silenced.get(gameId);
      if (!on) {
        set?.delete(playerId);
        if (set?.size === 0) silenced.delete(gameId);
        return true;
      }
      if (set && !set.has(playerId) && set.size >= max) return false;
      silenced.set(gameId, (set ?? new Set()).add(playerId));
      return true;
    },
  };
}
