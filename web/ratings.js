// Ratings: the player's own (GET /me) and the leaderboard of a variant and speed
// (GET /ratings/leaderboard), a page at a time.

import { $, S, api, h, showError, t, variantName } from './core.js';

const SPEEDS = ['realtime', 'correspondence'];

/** The ratings screen: the player's ratings, then the leaderboard chosen. */
export async function loadRatings() {
  const variant = h('select', { id: 'board-variant', onchange: () => loadBoard(null) },
    [...S.variants.keys()].map((id) => h('option', { value: id, selected: S.board.variant === id }, variantName(id))));
  const speed = h('select', { id: 'board-speed', onchange: () => loadBoard(null) },
    SPEEDS.map((s) => h('option', { value: s, selected: S.board.speed === s }, t(`tc_${s}`))));
  $('#main').replaceChildren(
    h('p', {}, h('a', { href: '#/' }, `← ${t('lobby_link')}`)),
    h('section', { class: 'card', 'aria-labelledby': 'mine-ratings-title' }, h('h2', { id: 'mine-ratings-title' }, t('my_ratings')), h('ul', { class: 'list', id: 'my-ratings' })),
    h('section', { class: 'card', 'aria-labelledby': 'board-title' }, h('h2', { id: 'board-title' }, t('leaderboard')),
      h('div', { class: 'row' }, h('label', {}, t('variant'), variant), h('label', {}, t('speed'), speed)),
      h('table', { class: 'history', id: 'leaderboard' }), h('p', { id: 'board-more' })));
  try {
    const { json } = await api('GET', '/me');
    // The last rated game's change beside each rating: the new rating and what it moved by.
    const { json: mine } = await api('GET', `/accounts/${json.account_id}/ratings`);
    const last = (r) => mine.history.find((c) => c.variant === r.variant && c.speed === r.speed);
    const rows = json.ratings.map((r) => h('li', { dataset: { variant: r.variant, speed: r.speed } },
      `${variantName(r.variant)} · ${t(`tc_${r.speed}`)}: `, h('strong', {}, `${r.rating}${r.provisional ? '?' : ''}`),
      last(r) ? h('span', { class: 'rating-change' }, ` (${last(r).after >= last(r).before ? '+' : '−'}${Math.abs(last(r).after - last(r).before)})`) : null,
      h('span', { class: 'muted' }, ` ±${r.deviation} · ${t('rated_games', { n: r.games })}`)));
    $('#my-ratings').replaceChildren(...(rows.length ? rows : [h('li', { class: 'muted' }, t('no_ratings'))]));
  } catch (e) { showError(e); }
  loadBoard(null);
}

/** A page of the leaderboard, from `cursor` (null: the first). */
async function loadBoard(cursor) {
  const variant = $('#board-variant').value;
  const speed = $('#board-speed').value;
  S.board = { variant, speed };
  const q = new URLSearchParams({ variant, speed, limit: '20' });
  if (cursor) q.set('cursor', cursor);
  try {
    const { json } = await api('GET', `/ratings/leaderboard?${q}`);
    const table = $('#leaderboard');
    if (!table) return;
    const start = cursor ? table.querySelectorAll('tbody tr').length : 0;
    const rows = json.players.map((p, i) => h('tr', { dataset: { account: p.account_id } },
      h('td', {}, start + i + 1), h('td', {}, p.display_name), h('td', {}, p.rating), h('td', {}, `±${p.deviation}`), h('td', {}, p.games)));
    if (!cursor) {
      table.replaceChildren(
        h('thead', {}, h('tr', {}, [t('rank'), t('player'), t('rating'), t('deviation'), t('games')].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: 5, class: 'muted' }, t('nobody_rated')))));
    } else {
      table.querySelector('tbody').append(...rows);
    }
    $('#board-more').replaceChildren(json.next_cursor
      ? h('button', { type: 'button', id: 'board-next', onclick: () => loadBoard(json.next_cursor) }, t('more')) : '');
  } catch (e) { showError(e); }
}
