// A player's profile (Query.profile + Query.ratingHistory): per edition the rating, games played
// and won and favourite characters; the rating's history; recent games, each opening its replay
// (the finished game's table replays it).
import { type Edition, request } from '../api';
import { h, render } from '../dom';
import { ProfileDocument, type ProfileQuery } from '../generated';
import { editionSelect } from '../community/edition-select';
import { header, message } from '../shell';
import { editionName } from '../words';

const day = (iso: string) => new Date(iso).toLocaleDateString();

function stats(p: NonNullable<ProfileQuery['profile']>): HTMLElement {
  return h(
    'section',
    { 'aria-labelledby': 'pf-ed' },
    h('h2', { id: 'pf-ed' }, 'Editions'),
    h(
      'ul',
      { 'data-testid': 'profile-editions' },
      p.editions.map((e) =>
        h(
          'li',
          { 'data-key': `pf-${e.edition}` },
          h('strong', null, editionName(e.edition, null)),
          `: rating ${e.rating ? e.rating.rating.toFixed(1) : '—'}, ${e.played} played, ${e.won} won`,
          e.favouriteCharacters.length
            ? `; favourite characters: ${e.favouriteCharacters.map((c) => `${c.name} (${c.games})`).join(', ')}`
            : '',
        ),
      ),
    ),
  );
}

function history(d: ProfileQuery, edition: Edition): HTMLElement {
  const games = d.ratingHistory.games;
  return h(
    'section',
    { 'aria-labelledby': 'pf-hist' },
    h('h2', { id: 'pf-hist' }, `Rating history (${editionName(edition, null)})`),
    games.length
      ? h(
          'ol',
          { 'data-testid': 'rating-history' },
          games.map((g) =>
            h(
              'li',
              { 'data-key': `rh-${g.gameId}` },
              `${day(g.endedAt)}: place ${g.place} of ${g.players}, rating ${g.rating.toFixed(1)}`,
            ),
          ),
        )
      : h('p', null, 'No rated games yet.'),
  );
}

function recent(p: NonNullable<ProfileQuery['profile']>): HTMLElement {
  const games = p.recentGames.games;
  return h(
    'section',
    { 'aria-labelledby': 'pf-recent' },
    h('h2', { id: 'pf-recent' }, 'Recent games'),
    games.length
      ? h(
          'ul',
          { 'data-testid': 'recent-games' },
          games.map((g) =>
            h(
              'li',
              { 'data-key': `rg-${g.gameId}` },
              h(
                'a',
                { href: `#/game/${encodeURIComponent(g.gameId)}` },
                `${editionName(g.edition, null)}, ${day(g.endedAt)}`,
              ),
              `: place ${g.place} of ${g.players}${g.conceded ? ' (conceded)' : ''} · replay`,
            ),
          ),
        )
      : h('p', null, 'No finished games yet.'),
  );
}

export function profileScreen(root: HTMLElement, playerId: string): () => void {
  let edition: Edition = 'CLASSIC';
  let data: ProfileQuery | null = null;
  let error = '';
  let alive = true;
  const load = () =>
    request(ProfileDocument, { p: playerId, e: edition })
      .then((d) => (data = d))
      .catch((e) => (error = message(e)))
      .finally(draw);
  function draw() {
    if (!alive) return;
    const p = data?.profile;
    render(
      root,
      header(p ? p.name : 'Profile'),
      h(
        'main',
        { class: 'community', 'data-key': 'profile' },
        h('p', { role: 'status' }, error || (data ? (p ? '' : 'There is no such player.') : 'Loading…')),
        p && stats(p),
        p &&
          editionSelect('pf-edition', 'History of', edition, (e) => {
            edition = e;
            void load();
          }),
        p && data && history(data, edition),
        p && recent(p),
      ),
    );
  }
  draw();
  void load();
  return () => {
    alive = false;
  };
}
