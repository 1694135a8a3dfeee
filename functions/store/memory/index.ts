// The in-memory twin of every port (ports.ts): plain maps in this process, the same answers as
// the DynamoDB adapter (test/store/contract/ runs one suite against both). For the fast tests
// and `npm start -- --in-memory`; nothing survives the process.
import type { OidcStore, Store } from '../ports.js';
import { memoryChat } from './chat.js';
import { memoryCommunity } from './community.js';
import { memoryGames } from './games.js';
import { memoryNotify } from './notify.js';
import { memoryPlayers } from './players.js';

export { createMemoryPushStore } from './push.js';

/** Every port in memory; `label` names it in logs (the DynamoDB adapter's table name). */
export function createMemoryStore(label = 'memory'): Store {
  const games = memoryGames();
  const players = memoryPlayers();
  const chat = memoryChat();
  const notify = memoryNotify();
  return {
    tableName: label,
    log: games.log,
    members: games.members,
    players: players.players,
    chat: chat.chat,
    community: memoryCommunity(),
    notify: notify.notify,
    ops: {
      ...games.ops,
      ...players.ops,
      ...chat.ops,
      listDue: (kind, now, limit) =>
        kind === 'DELIVERY' || kind === 'REMIND' ? notify.due(kind, now, limit) : games.due(kind, now, limit),
    },
  };
}

export { createMemoryOidcStore } from './oidc.js';
export type { OidcStore };
