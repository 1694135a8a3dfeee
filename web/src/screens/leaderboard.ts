// The leaderboard (Query.leaderboard): the best 50 rated players of an edition, each linking to
// their profile. Reachable from every page's header.
import { type Edition, request } from '../api';
import { h, render } from '../dom';
import { LeaderboardDocument, type LeaderboardQuery } from '../generated';
import { editionSelect } from '../community/edition-select';
import { header, message } from '../shell';
import { editionName } from '../words';

type Entry = LeaderboardQuery['leaderboard']['ratings'][number];

export function leaderboardScreen(root: HTMLElement): () => void {
  let edition: Edition = 'CLASSIC';
  let rows: Entry[] | null = null;
  let error = '';
  let alive = true;
  const load = () => {
    rows = null;
    draw();
    request(LeaderboardDocument, { e: edition, n: 50 })
      .then((d) => (rows = d.leaderboard.ratings))
      .catch((e) => (error = message(e)))
      .finally(draw);
  };
  function draw() {
    if (!alive) return;
    render(
      root,
      header('Leaderboard'),
      h(
        'main',
        { class: 'community', 'data-key': 'leaderboard' },
        editionSelect('lb-edition', 'Edition', edition, (e) => {
          edition = e;
          load();
        }),
        h('p', { role: 'status' }, error || (rows ? '' : 'Loading…')),
        rows &&
          (rows.length
            ? h(
                'table',
                {
                  class: 'stack',
                  'data-testid': 'leaderboard',
                  'aria-label': `${editionName(edition, null)} leaderboard`,
                },
                h(
                  'thead',
                  null,
                  h(
                    'tr',
                    null,
                    ['Place', 'Player', 'Rating', 'Games', 'Won'].map((c) => h('th', { scope: 'col' }, c)),
                  ),
                ),
                h(
                  'tbody',
                  null,
                  rows.map((r, i) =>
                    h(
                      'tr',
                      { 'data-key': `lb-${r.playerId}` },
                      h('td', { 'data-label': 'Place' }, String(i + 1)),
                      h(
                        'th',
                        { scope: 'row' },
                        h('a', { href: `#/profile/${encodeURIComponent(r.playerId)}` }, r.name ?? 'a former player'),
                      ),
                      h('td', { 'data-label': 'Rating' }, r.rating.toFixed(1)),
                      h('td', { 'data-label': 'Games' }, String(r.games)),
                      h('td', { 'data-label': 'Won' }, String(r.wins)),
                    ),
                  ),
                ),
              )
            : h('p', null, 'No rated games yet.')),
      ),
    );
  }
  load();
  return () => {
    alive = false;
  };
}
