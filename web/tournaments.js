// Tournaments: the list (the player's own, then all), one tournament's standings, rounds and the
// player's current pairing and entry (enter or withdraw before it starts; accept or decline the
// director's invitation: nobody enters for another); for its director, the controls that run it
// (invite a player, pair the next round, start it, record a forfeit, close). The current round's
// boards, each game with its link to watch it (its players' link opens their own page). A
// tournament game's draw for who starts is in game.js (`drawPanel`).

import { label } from './clock.js';
import { $, RULES, S, action, api, go, h, showError, status, t, variantName } from './core.js';
import { familyInfo, presets } from './families.js';

/** The tournaments screen: the player's, all, and (for a director) a new tournament's form. */
export async function loadTournaments() {
  $('#main').replaceChildren(
    h('p', {}, h('a', { href: '#/' }, `← ${t('lobby_link')}`)),
    h('section', { class: 'card', 'aria-labelledby': 'mine-t-title' }, h('h2', { id: 'mine-t-title' }, t('my_tournaments')), h('ul', { class: 'list', id: 'my-tournaments' })),
    h('section', { class: 'card', 'aria-labelledby': 'all-t-title' }, h('h2', { id: 'all-t-title' }, t('all_tournaments')), h('ul', { class: 'list', id: 'all-tournaments' })),
    S.me.director ? newTournamentForm() : '');
  try {
    const [mine, all] = await Promise.all([api('GET', '/tournaments?mine=true'), api('GET', '/tournaments')]);
    const row = (tr) => h('li', { dataset: { tournament: tr.tournament_id } },
      h('a', { href: `#/t/${tr.tournament_id}`, class: 'open-link' }, tr.name),
      h('span', { class: 'muted' }, ` · ${variantName(tr.variant)} · ${t(`t_status_${tr.status}`)} · ${t('round_of', { n: tr.round, of: tr.rounds })} · ${t('players_n', { n: tr.players })}`));
    const list = (items) => (items.length ? items.map(row) : [h('li', { class: 'muted' }, t('no_tournaments'))]);
    $('#my-tournaments').replaceChildren(...list(mine.json.tournaments));
    $('#all-tournaments').replaceChildren(...list(all.json.tournaments));
  } catch (e) { showError(e); }
}

function newTournamentForm() {
  const tiles = [...S.variants.values()].filter((v) => familyInfo(v.family).tournaments);
  const clocks = tiles.length ? presets(tiles[0].family) : [];
  const field = (label, input) => h('label', {}, label, input);
  return h('section', { class: 'card', 'aria-labelledby': 'new-t-title' }, h('h2', { id: 'new-t-title' }, t('new_tournament')),
    h('form', {
      id: 'new-tournament',
      onsubmit: async (e) => {
        e.preventDefault();
        const body = {
          name: $('#t-name').value, variant: $('#t-variant').value, pairing: $('#t-pairing').value,
          rounds: Number($('#t-rounds').value), king_of_the_hill: $('#t-koth').checked, rated: $('#t-rated').checked,
          time_control: clocks[Number($('#t-clock').value)], challenge_rule: $('#t-rule').value,
          spectator_delay: Number($('#t-delay').value),
        };
        try { const { json } = await api('POST', '/tournaments', body); go(`#/t/${json.tournament_id}`); } catch (err) { showError(err); }
      },
    },
    h('div', { class: 'row' },
      field(t('t_name'), h('input', { id: 't-name', required: true, maxlength: 80 })),
      field(t('variant'), h('select', { id: 't-variant' }, tiles.map((v) => h('option', { value: v.id }, variantName(v.id))))),
      field(t('pairing'), h('select', { id: 't-pairing' }, ['swiss', 'round_robin'].map((p) => h('option', { value: p }, t(`pairing_${p}`))))),
      field(t('rounds'), h('input', { id: 't-rounds', type: 'number', min: 1, max: 40, value: 5 }))),
    h('div', { class: 'row' },
      field(t('clock'), h('select', { id: 't-clock' }, clocks.map((tc, i) => h('option', { value: String(i) }, label(tc))))),
      field(t('challenge_rule'), h('select', { id: 't-rule' }, RULES.map((r) => h('option', { value: r }, t(`rule_${r}`))))),
      field(t('spectator_delay'), h('input', { id: 't-delay', type: 'number', min: 0, max: 20, value: 0, inputmode: 'numeric' }))),
    h('div', { class: 'row' },
      h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 't-koth' }), t('king_of_the_hill')),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 't-rated' }), t('rated'))),
    h('button', { type: 'submit', class: 'primary', id: 't-create' }, t('create_tournament'))));
}

/** One tournament: the caller's pairing, the director's controls, standings, every round. */
export async function loadTournament(id) {
  try {
    const { json } = await api('GET', `/tournaments/${id}`);
    S.tournament = json;
    renderTournament();
  } catch (e) { showError(e); }
}

function renderTournament() {
  const tr = S.tournament;
  const name = (no) => (tr.players.find((p) => p.player_no === no) || {}).display_name || '?';
  const sections = [
    h('p', {}, h('a', { href: '#/t' }, `← ${t('tournaments_link')}`)),
    h('section', { class: 'card', id: 'tournament' },
      h('h2', {}, tr.name),
      h('p', { class: 'muted', id: 't-settings' },
        `${variantName(tr.variant)} · ${t(`pairing_${tr.pairing}`)}${tr.king_of_the_hill ? ` · ${t('king_of_the_hill')}` : ''} · ${t(tr.rated ? 'rated' : 'casual_only')} · `,
        `${label(tr.time_control)} · ${t(`rule_${tr.challenge_rule}`)} · `,
        `${t(`t_status_${tr.status}`)} · ${t('round_of', { n: tr.round, of: tr.rounds })}`,
        tr.spectator_delay > 0 ? h('span', { id: 't-delay-tag' }, ` · ${t('spectator_delay_tag', { n: tr.spectator_delay })}`) : null),
      yourEntry(tr),
      yourPairing(tr, name)),
    boards(tr, name),
    tr.you_direct ? directorPanel(tr) : null,
    h('section', { class: 'card', 'aria-labelledby': 'standings-title' }, h('h2', { id: 'standings-title' }, t('standings')),
      h('div', { class: 'table-scroll' }, h('table', { class: 'history', id: 'standings' },
        h('thead', {}, h('tr', {}, [t('rank'), t('player'), t('rating'), t('won'), t('lost'), t('spread')].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, tr.standings.map((s) => h('tr', { dataset: { player: s.player_no, account: s.account_id } },
          h('td', {}, s.rank), h('td', {}, s.display_name, s.withdrawn ? ` (${t('withdrawn_player')})` : ''), h('td', {}, s.rating),
          h('td', {}, s.wins + s.draws / 2), h('td', {}, s.losses), h('td', {}, s.spread > 0 ? `+${s.spread}` : s.spread))))))),
    ...tr.pairings.slice().reverse().map((r) => h('section', { class: 'card round', dataset: { round: r.round } },
      h('h2', {}, t('round_n', { n: r.round })),
      h('table', { class: 'history' },
        h('thead', {}, h('tr', {}, [t('table'), t('first_player'), t('second_player'), t('result'), t('game')].map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, r.tables.map((p) => h('tr', { dataset: { table: p.table } },
          h('td', {}, p.table), h('td', {}, name(p.first)), h('td', {}, p.second == null ? t('bye') : name(p.second)),
          h('td', {}, outcome(p, name)),
          h('td', {}, p.game_id ? h('a', { href: `#/g/${p.game_id}`, class: 'game-link' }, t('open_game_link')) : ''))))))),
  ];
  $('#main').replaceChildren(...sections.filter(Boolean));
}

/** A call that changes the tournament, then its page drawn again from the answer. */
const send = (method, path, body) => async () => {
  const { json } = await api(method, path, body);
  S.tournament = json;
  status('');
  renderTournament();
};

/** The caller's entry: the director's invitation to answer, or enter / withdraw before it starts. */
function yourEntry(tr) {
  if (tr.status === 'closed') return null;
  const base = `/tournaments/${tr.tournament_id}`;
  const e = tr.your_entry;
  if (e === 'invited') {
    return h('p', { id: 'your-entry', class: 'invitation' }, t('invited_to'), ' ',
      action(t('accept_invitation'), 'primary accept-invitation', send('POST', `${base}/enter`)), ' ',
      action(t('decline_invitation'), 'decline-invitation', send('POST', `${base}/leave`)));
  }
  const said = { entered: t('you_entered'), withdrawn: t('you_withdrew'), declined: t('you_declined') }[e] || '';
  if (!tr.entries_open) return e ? h('p', { id: 'your-entry', class: 'muted' }, said) : null;
  return h('p', { id: 'your-entry' }, said, said ? ' ' : '',
    e === 'entered'
      ? action(t('leave_tournament'), 'leave-tournament', send('POST', `${base}/leave`))
      : action(t('enter_tournament'), 'primary enter-tournament', send('POST', `${base}/enter`)));
}

function yourPairing(tr, name) {
  const p = tr.your_pairing;
  if (!p) return null;
  const me = tr.players.find((x) => x.account_id === S.me.id);
  const opponent = p.second == null ? null : name(p.first === me.player_no ? p.second : p.first);
  return h('p', { id: 'your-pairing' },
    opponent == null ? t('your_bye', { n: p.round }) : t('your_pairing', { n: p.round, name: opponent, table: p.table }), ' ',
    p.game_id ? h('a', { href: `#/g/${p.game_id}`, id: 'your-game', class: 'primary' }, p.game_status === 'drawing' ? t('go_draw') : t('open_game_link')) : null);
}

/** The current round's boards: each table's players and state, its game's link to watch it (a
 * player of the game has its link to play instead: the same page, their own view). */
function boards(tr, name) {
  const round = tr.pairings.find((r) => r.round === tr.round);
  const tables = round ? round.tables.filter((p) => p.game_id) : [];
  if (!tables.length) return null;
  const me = tr.players.find((x) => x.account_id === S.me.id);
  const plays = (p) => !!me && (p.first === me.player_no || p.second === me.player_no);
  return h('section', { class: 'card', id: 'boards', 'aria-labelledby': 'boards-title' }, h('h2', { id: 'boards-title' }, t('boards', { n: tr.round })),
    h('ul', { class: 'list' }, tables.map((p) => h('li', { class: 'board-row', dataset: { table: p.table, game: p.game_id } },
      h('span', {}, `${t('table')} ${p.table}: ${name(p.first)} ${t('vs')} ${p.second == null ? t('bye') : name(p.second)}`),
      h('span', { class: 'muted' }, outcome(p, name)),
      plays(p)
        ? h('a', { href: `#/g/${p.game_id}`, class: 'play-board' }, t('open_game_link'))
        : h('a', { href: `#/g/${p.game_id}`, class: 'watch-board' }, t('watch'))))));
}

function outcome(p, name) {
  const o = p.outcome;
  if (!o) return p.game_status ? t(`gs_${p.game_status}`) : t('not_started_round');
  switch (o.kind) {
    case 'played': return `${o.first_score}–${o.second_score}`;
    case 'forfeit': return t('forfeits', { name: name(o.loser) });
    case 'double_forfeit': return t('double_forfeit');
    default: return t('bye');
  }
}

function directorPanel(tr) {
  const base = `/tournaments/${tr.tournament_id}`;
  const account = h('input', { id: 'register-id', autocomplete: 'off', spellcheck: 'false', placeholder: '00000000-…' });
  const paired = tr.round > 0 && !tr.round_started;
  const controls = [];
  if (tr.status !== 'closed') {
    if (paired) controls.push(action(t('start_round', { n: tr.round }), 'primary start-round', send('POST', `${base}/rounds/${tr.round}/start`)));
    else if (tr.round < tr.rounds) controls.push(action(t('pair_round', { n: tr.round + 1 }), 'primary pair-round', send('POST', `${base}/rounds`)));
    controls.push(action(t('close_tournament'), 'close-tournament', send('POST', `${base}/close`)));
  }
  // A forfeit at each table of the latest round whose game has no result yet, for either side
  // or both; a withdrawal for each player still in.
  const open = tr.status === 'closed' ? [] : (tr.pairings[tr.round - 1] || { tables: [] }).tables.filter((x) => x.second != null && !x.outcome);
  const name = (no) => (tr.players.find((p) => p.player_no === no) || {}).display_name || '?';
  const forfeits = open.map((x) => h('li', { dataset: { table: x.table } }, `${t('table')} ${x.table}: `,
    ['first', 'second', 'both'].map((side) => action(side === 'both' ? t('forfeit_both') : t('forfeit_by', { name: name(side === 'first' ? x.first : x.second) }),
      `forfeit forfeit-${side}`, send('POST', `${base}/forfeits`, { round: tr.round, table: x.table, side })))));
  const withdrawals = tr.status === 'closed' ? [] : tr.players.filter((p) => !p.withdrawn).map((p) => h('li', { dataset: { player: p.player_no } },
    `${p.display_name} `, action(t('withdraw_player'), 'withdraw-player', send('POST', `${base}/withdraw`, { account_id: p.account_id }))));
  return h('section', { class: 'card', id: 'director', 'aria-labelledby': 'director-title' }, h('h2', { id: 'director-title' }, t('directing')),
    tr.status === 'closed' ? null : h('div', { class: 'row' }, h('label', {}, t('register_player'), account),
      action(t('register'), 'register', async () => send('POST', `${base}/players`, { account_id: account.value.trim() })())),
    tr.invitations.length ? h('ul', { class: 'list', id: 'director-invitations', 'aria-label': t('invitations') },
      tr.invitations.map((i) => h('li', { dataset: { account: i.account_id, state: i.state } }, `${i.display_name} · ${t(`inv_${i.state}`)}`))) : null,
    h('div', { class: 'controls', id: 'director-controls' }, controls),
    forfeits.length ? h('ul', { class: 'list', id: 'director-forfeits' }, forfeits) : null,
    withdrawals.length ? h('details', { id: 'director-withdrawals' }, h('summary', {}, t('withdrawals')), h('ul', { class: 'list' }, withdrawals)) : null);
}
