// The game's chat panel (docs/community.md): read with the cursor, new messages by polling it
// (the push connection belongs to the SDK's followGame, which refetches the game, not the chat),
// a post form, and per message: mute its author, report it, hide it (the game's creator only).
import { ApiError, request, requestId } from '../api';
import { h } from '../dom';
import {
  ChatDocument,
  type ChatLineFragment,
  HideChatDocument,
  MuteDocument,
  PostChatDocument,
  ReportChatDocument,
} from '../generated';
import type { TableCtx } from '../table/context';
import { registerSidePanel } from '../table/side-panels';

const MAX = 280;
const POLL_MS = Number(new URLSearchParams(location.search).get('poll')) || 3000;

interface Chat {
  gameId: string;
  lines: Map<string, ChatLineFragment>;
  cursor: string | null;
  muted: Set<string>;
  moderator: boolean;
  draft: string;
  note: string;
  timer: ReturnType<typeof setTimeout> | null;
}

let chat: Chat | null = null;

function fresh(gameId: string): Chat {
  if (chat?.timer) clearTimeout(chat.timer);
  return {
    gameId,
    lines: new Map(),
    cursor: null,
    muted: new Set(),
    moderator: false,
    draft: '',
    note: '',
    timer: null,
  };
}

const take = (c: Chat, m: ChatLineFragment): void => void c.lines.set(m.id, m);

/** Reads every page after the cursor; true when something came. */
async function pull(c: Chat): Promise<boolean> {
  let changed = false;
  for (let page = 0; page < 10; page++) {
    const d = (await request(ChatDocument, { g: c.gameId, a: c.cursor })).chat;
    d.messages.forEach((m) => take(c, m));
    c.muted = new Set(d.mutedPlayers);
    changed ||= d.messages.length > 0 || c.moderator !== d.moderator;
    c.moderator = d.moderator;
    if (!d.messages.length || !d.pageInfo.endCursor) break;
    c.cursor = d.pageInfo.endCursor;
  }
  return changed;
}

function follow(c: Chat, redraw: () => void): void {
  const tick = async () => {
    c.timer = null;
    if (chat !== c || !document.querySelector('[data-key="side-chat"]')) return; // the panel left
    try {
      if (!document.hidden && (await pull(c))) redraw();
    } catch {
      // the next tick tries again
    }
    if (chat === c) c.timer = setTimeout(() => void tick(), POLL_MS);
  };
  void tick();
}

async function run(c: Chat, redraw: () => void, what: () => Promise<void>): Promise<void> {
  try {
    await what();
    c.note = '';
  } catch (e) {
    c.note = e instanceof ApiError ? e.message : 'Could not reach the server.';
  }
  redraw();
}

function post(e: Event, c: Chat, redraw: () => void): void {
  e.preventDefault();
  const text = c.draft.trim();
  if (!text) return;
  void run(c, redraw, async () => {
    take(c, (await request(PostChatDocument, { g: c.gameId, t: text, q: requestId() })).postChatMessage);
    c.draft = '';
    const input = document.getElementById('chat-text') as HTMLInputElement | null;
    if (input) input.value = '';
  });
}

function line(ctx: TableCtx, c: Chat, m: ChatLineFragment): HTMLElement {
  const mine = m.authorId === myId(ctx);
  const act = (label: string, name: string, what: () => Promise<void>) =>
    h(
      'button',
      { type: 'button', class: 'link', 'aria-label': `${label} ${name}`, onclick: () => void run(c, ctx.redraw, what) },
      label,
    );
  const g = c.gameId;
  return h(
    'li',
    { 'data-key': `chat-${m.id}`, 'data-testid': 'chat-line' },
    h('strong', null, m.authorName),
    h(
      'time',
      { class: 'muted', datetime: m.at },
      ` ${new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })} `,
    ),
    m.hidden ? h('em', { class: 'muted' }, 'hidden by the host') : h('span', { class: 'chat-text' }, m.text ?? ''),
    h(
      'span',
      { class: 'chat-tools' },
      !mine &&
        act('Mute', m.authorName, async () => {
          await request(MuteDocument, { p: m.authorId, m: true });
          for (const [id, l] of c.lines) if (l.authorId === m.authorId) c.lines.delete(id);
        }),
      !mine &&
        !m.hidden &&
        (m.reportedByMe
          ? h('span', { class: 'muted' }, ' reported')
          : act('Report', `message ${m.id} by ${m.authorName}`, async () =>
              take(c, (await request(ReportChatDocument, { g, m: m.id })).reportChatMessage),
            )),
      c.moderator &&
        !m.hidden &&
        act('Hide', `message ${m.id} by ${m.authorName}`, async () =>
          take(c, (await request(HideChatDocument, { g, m: m.id })).hideChatMessage),
        ),
      c.moderator && m.reports
        ? h('span', { class: 'muted' }, ` ${m.reports} report${m.reports === 1 ? '' : 's'}`)
        : null,
    ),
  );
}

/** The caller's player id, from their seat (spectators read without posting). */
const myId = (ctx: TableCtx) => (ctx.game.me ? ctx.game.seats[ctx.game.me.seat]?.playerId : undefined) ?? null;

export function chatPanel(ctx: TableCtx): HTMLElement | null {
  if (ctx.game.status === 'LOBBY') return null;
  if (chat?.gameId !== ctx.game.id) {
    chat = fresh(ctx.game.id);
    const c = chat;
    queueMicrotask(() => follow(c, ctx.redraw));
  }
  const c = chat;
  const lines = [...c.lines.values()].filter((m) => !c.muted.has(m.authorId));
  return h(
    'section',
    { 'aria-labelledby': 'chat-h', class: 'chat' },
    h('h2', { id: 'chat-h' }, 'Chat'),
    h(
      'ol',
      { class: 'chat-lines', 'aria-live': 'polite', 'aria-label': 'Messages', tabindex: '0' },
      lines.length
        ? lines.map((m) => line(ctx, c, m))
        : h('li', { class: 'muted', 'data-key': 'chat-none' }, 'No messages yet.'),
    ),
    ctx.game.me &&
      h(
        'form',
        { onsubmit: (e: Event) => post(e, c, ctx.redraw), 'aria-label': 'Post a message' },
        h('label', { for: 'chat-text' }, 'Message'),
        h('input', {
          id: 'chat-text',
          type: 'text',
          maxlength: MAX,
          autocomplete: 'off',
          value: c.draft,
          oninput: (e: Event) => (c.draft = (e.target as HTMLInputElement).value),
        }),
        h('button', { type: 'submit' }, 'Send'),
      ),
    h('p', { class: 'meta', role: 'status' }, c.note),
  );
}

registerSidePanel('chat', chatPanel);
