// A game's frame, both families: the view in, the seats, whose turn, an open game's panel,
// the result; moves out, the robots' replies revealed after their thinking time. A game the
// signed-in account is not seated in is shown as its spectator's view (`spectator: true`): the
// board, scores, clocks and scoresheet, live by push, and no rack and no control.

import { claimButton, claimable, label, seatClock, tick } from './clock.js';
import { $, S, action, api, go, h, lang, names, showError, status, t, uuid, variantName } from './core.js';
import { family } from './families.js';

// ---------------------------------------------------------------- a game

export async function loadGame(id) {
  $('#main').replaceChildren(h('p', { class: 'muted' }, '…'));
  try {
    const { json, etag } = await api('GET', `/games/${id}`);
    S.etag = etag;
    setGame(json);
  } catch (e) {
    // A private game (or none) answers not_found to anyone not seated in it.
    if (e.code === 'not_found' && S.route && S.route.id === id) {
      $('#main').replaceChildren(h('section', { class: 'card', id: 'not-watchable' }, h('p', {}, t('game_private')),
        h('p', {}, h('a', { href: '#/watch' }, `← ${t('back_to_watch')}`))));
    }
    showError(e);
  }
}

/** Whether the game on screen is watched, not played: the spectator's view has no seat of the
 * caller's, no rack, no hint. */
export const spectating = () => !!(S.game && S.game.spectator);

let refreshing = false;
export async function refreshGame() {
  if (!S.game || S.revealing || refreshing) return;
  refreshing = true;
  const id = S.game.game_id;
  try {
    const res = await api('GET', `/games/${id}`, undefined, S.etag ? { 'if-none-match': S.etag } : {});
    if (res.status !== 304 && S.game && S.game.game_id === id && !S.revealing) {
      S.etag = res.etag;
      // The same game read again differs only in its clock's `now`: the clock is taken, the
      // screen (and what the player is composing on it) kept.
      const bare = (v) => JSON.stringify({ ...v, clock: v.clock && { ...v.clock, now: null, seats: null, flag_at: null } });
      if (bare(res.json) !== bare(S.game)) setGame(res.json);
      else { S.game.clock = res.json.clock; S.clockAt = performance.now(); }
    }
  } catch (e) { if (e.code !== 'network') showError(e); } finally { refreshing = false; }
}

/** Shows `view`, which arrived at `at` (the page's monotonic time, from which its clock runs):
 * a new move clears what the player was composing; the same move keeps it. */
function setGame(view, at = performance.now()) {
  const before = S.game;
  if (!before || before.move_count !== view.move_count || before.status !== view.status) {
    S.pending = []; S.selected = null; S.exchange = null; S.hints = null; S.confirming = null;
    S.word = '';
  }
  if (view.your_rack) {
    const same = before && before.your_rack && before.your_rack.join() === view.your_rack.join() && S.order.length === view.your_rack.length;
    if (!same) S.order = family(view.family).keptOrder(view) || view.your_rack.map((_, i) => i);
  }
  S.game = view;
  S.clockAt = at;
  renderGame();
  syncSheet();
}

// ---------------------------------------------------------------- the scoresheet

/** Reads the moves the scoresheet lacks (GET /games/{id}/moves from the first it lacks), then
 * draws it again; a failed read leaves it as it was, the next view tries again. */
async function syncSheet() {
  const g = S.game;
  if (!g || !family(g.family).scoresheet || g.status === 'open' || g.status === 'drawing') return;
  if (!S.sheet || S.sheet.game !== g.game_id) S.sheet = { game: g.game_id, moves: [], loading: false, open: !matchMedia('(max-width: 640px)').matches };
  const sheet = S.sheet;
  if (sheet.loading || sheet.moves.length >= g.move_count) return;
  sheet.loading = true;
  try {
    const { json } = await api('GET', `/games/${g.game_id}/moves?after=${sheet.moves.length}`);
    for (const m of json.moves) if (m.move_no === sheet.moves.length) sheet.moves.push(m);
  } catch (e) { /* drawn as it was */ } finally { sheet.loading = false; }
  const el = document.getElementById('scoresheet');
  if (el && S.game && S.game.game_id === sheet.game) el.replaceWith(scoresheet());
}

/** Where a play went, as GCG writes it: across `8H` (row, column), down `H8`. */
function coordinate(m) {
  const main = (m.words || []).find((w) => w.main) || (m.words || [])[0];
  if (!main) return '';
  const [col, row] = [main.start.slice(0, 1), main.start.slice(1)];
  return main.direction === 'across' ? `${row}${col}` : `${col}${row}`;
}

/** What a move did, as a scoresheet line says it: the main word and its cross-words, an
 * exchange's count, or the kind. */
function sheetWhat(m) {
  if (m.kind === 'play') return (m.words || []).map((w) => w.word).join(', ');
  if (m.kind === 'exchange') return t('sheet_exchange', { n: m.count });
  return t(`sheet_${m.kind}`);
}

/** The scoresheet beside the board: every move shown so far with its player, where, what, its
 * points and the player's running total, the latest highlighted; folded on a phone. */
export function scoresheet() {
  const g = S.game;
  const sheet = S.sheet && S.sheet.game === g.game_id ? S.sheet : { moves: [], open: true };
  const totals = new Map();
  const rows = sheet.moves.filter((m) => m.move_no < g.move_count).map((m) => {
    const total = (totals.get(m.seat) || 0) + (m.score || 0);
    totals.set(m.seat, total);
    return h('tr', { class: m.move_no === g.move_count - 1 ? 'latest' : '', dataset: { move: m.move_no, seat: m.seat } },
      h('td', {}, m.move_no + 1), h('td', {}, seatName(m.seat)), h('td', { class: 'coord' }, m.kind === 'play' ? coordinate(m) : ''),
      h('td', {}, sheetWhat(m)), h('td', { class: 'num' }, m.score || 0), h('td', { class: 'num total' }, total));
  });
  const box = h('details', { class: 'card scoresheet', id: 'scoresheet', open: sheet.open, ontoggle: (e) => { if (S.sheet) S.sheet.open = e.target.open; } },
    h('summary', {}, t('scoresheet')),
    h('div', { class: 'table-scroll' }, h('table', { class: 'sheet' },
      h('thead', {}, h('tr', {}, [t('move_no'), t('player'), t('sheet_where'), t('move'), t('score'), t('sheet_total')].map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, rows))));
  return box;
}

// The clocks run on the screen four times a second; when the running seat's time is out, the
// game is read again (a view records a fall) and drawn again (with the claim, where one is due).
setInterval(() => tick(async () => { await refreshGame(); if (S.game) renderGame(); }), 250);

const mySeat = () => S.game.your_seat;
export const myTurn = () => {
  const g = S.game;
  if (g.spectator || g.your_seat == null || g.to_move !== g.your_seat || S.revealing) return false;
  if (g.status === 'active') return true;
  // An open game nobody was invited to: its opener may lead while waiting.
  return g.status === 'open' && !g.seats.some((s) => s.invited);
};
export const seatName = (seat) => {
  const s = S.game.seats.find((x) => x.seat === seat);
  if (!s) return '';
  return s.seat === mySeat() ? `${s.display_name} (${t('you')})` : s.display_name;
};

export function describeMove(m) {
  const name = seatName(m.seat);
  switch (m.kind) {
    case 'play': {
      const main = (m.words || []).find((w) => w.main) || (m.words || [])[0];
      return t('moved_played', { name, word: main ? main.word : '', score: m.score });
    }
    case 'pass': return t('moved_pass', { name });
    case 'exchange': return t('moved_exchange', { name, n: m.count });
    case 'resign': return t('moved_resign', { name });
    case 'timeout': return t('moved_timeout', { name });
    case 'out_of_time': return t('moved_out_of_time', { name });
    case 'time_penalty': return t('moved_time_penalty', { name, score: m.score });
    case 'challenged_off': return t('moved_challenged_off', { name, n: -m.score });
    case 'challenge_bonus': return t('moved_challenge_bonus', { name, n: m.score });
    case 'challenge_failed': return t('moved_challenge_failed', { name });
    case 'challenge_turn_lost': return t('moved_challenge_turn_lost', { name });
    case 'accept': return t('moved_accept', { name });
    case 'word': return t('moved_word', { name, word: m.word, score: m.score });
    case 'round': return t('moved_round', { name, word: m.word });
    default: return `${name}: ${m.kind}`;
  }
}

/** A rating with the change a game made, as players read it: the new rating, then the change
 * (`1662 (+162)`). */
export const ratedAs = (before, change) => `${before + change} (${change >= 0 ? '+' : '−'}${Math.abs(change)})`;

/** A rated game's seat rating: the rating while it is played, the new one with its change once
 * it ended rated. */
function ratingTag(seat) {
  const r = S.game.ratings && S.game.ratings.seats.find((x) => x.seat === seat);
  if (!r) return null;
  const text = r.change == null ? `${r.rating}${r.provisional ? '?' : ''}` : ratedAs(r.rating, r.change);
  return h('span', { class: 'muted rating', dataset: { seat } }, ` (${text})`);
}

function renderSeats() {
  const g = S.game;
  const seats = h('ul', { class: 'seats', id: 'scores', 'aria-label': t('scores') }, g.seats.map((s) => h('li', {
    class: s.seat === g.to_move ? 'to-move' : '', dataset: { seat: s.seat },
  }, seatName(s.seat), s.invited ? ` (${t('invited')})` : '', h('span', { class: 'score' }, s.score),
  // A group chain's lives (a seat with none is out).
  s.lives != null && g.seats.length > 2 ? h('span', { class: s.lives ? 'lives muted' : 'lives out' }, ` · ${t('lives', { n: s.lives })}`) : null,
  s.rack_size != null && g.status !== 'finished' ? h('span', { class: 'muted' }, ` · ${s.rack_size}`) : null,
  ratingTag(s.seat),
  seatClock(s.seat, seatName(s.seat)))));
  // Asked rated, played casual: the pair's rated games for the day were used up.
  if (!g.pair_limited) return seats;
  return h('div', {}, seats, h('p', { class: 'muted pair-limited', id: 'pair-limited' }, t('pair_limited_game')));
}

function turnLine() {
  const g = S.game;
  if (g.status === 'finished') return h('p', { id: 'turn' }, t('game_over'));
  if (g.status === 'withdrawn') return h('p', { id: 'turn' }, t('withdrawn'));
  if (g.status === 'drawing') return h('p', { id: 'turn' }, t('drawing_for_start'));
  // An invitation is nobody's turn until everyone has accepted.
  if (g.to_move == null || (g.status === 'open' && g.seats.some((s) => s.invited))) return h('p', { id: 'turn' }, t('not_started'));
  const text = g.to_move === g.your_seat ? t('turn_mine') : t('turn_of', { name: seatName(g.to_move) });
  // A correspondence deadline is a date; a real-time clock shows by the seats.
  const dated = g.turn_deadline && (!g.time_control || g.time_control.kind === 'correspondence');
  return h('p', { id: 'turn', class: g.to_move === g.your_seat ? 'mine' : '' }, text,
    dated ? h('span', { class: 'muted' }, ` · ${t('deadline', { time: new Date(g.turn_deadline).toLocaleString(lang) })}`) : null,
    claimable() ? [' ', claimButton((answer) => reveal(answer, 1))] : null);
}

/** A tournament game's draw for who starts, by hand: the tiles drawn so far, who has still to
 * draw this round (ties draw again), the deadline, and the player's own "Draw a tile" button. */
export function drawPanel() {
  const g = S.game;
  if (g.status !== 'drawing' || !g.drawing) return drawnRecord();
  const d = g.drawing;
  const mine = d.to_draw.includes(g.your_seat);
  const picks = g.draw.map((p) => h('li', { dataset: { round: p.round } },
    `${t('draw_round', { n: p.round })}: ${p.display_name} `, h('span', { class: 'tile draw-tile' }, p.blank ? '?' : p.letter)));
  const waiting = d.to_draw.filter((s) => s !== g.your_seat).map(seatName);
  return h('section', { class: 'card', id: 'draw-panel', 'aria-labelledby': 'draw-title' },
    h('h2', { id: 'draw-title' }, t('draw_title')),
    h('p', { class: 'muted' }, t('draw_rule')),
    picks.length ? h('ul', { class: 'list', id: 'draw-picks' }, picks) : null,
    d.round > 1 ? h('p', { id: 'draw-tie' }, t('draw_tie', { n: d.round })) : null,
    waiting.length ? h('p', { class: 'muted' }, t('draw_waiting', { names: waiting.join(', ') })) : null,
    h('p', { class: 'muted' }, t('draw_deadline', { time: new Date(d.deadline).toLocaleString(lang) })),
    mine ? h('div', { class: 'controls' },
      action(t('draw_a_tile_button'), 'primary draw-tile', async () => {
        const { json } = await api('POST', `/games/${g.game_id}/draw`, { client_draw_id: uuid() });
        S.etag = null;
        setGame(json);
      })) : null);
}

/** After the start, the first-move draw as it was made (the automatic one, or a tournament's
 * by hand): each round's picks, who drew which tile, and who moved first. Folded. */
function drawnRecord() {
  const g = S.game;
  if (!g.draw || !g.draw.length || (g.status !== 'active' && g.status !== 'finished')) return null;
  const rounds = [...new Set(g.draw.map((p) => p.round))];
  const first = g.seats.find((s) => s.seat === 0);
  const pick = (p) => h('span', { class: 'draw-pick', dataset: { account: p.account_id || '' } },
    `${p.display_name || ''} `, h('span', { class: 'tile draw-tile' }, p.letter == null ? `#${p.rank}` : p.blank ? '?' : p.letter), ' ');
  const round = (r) => h('li', { dataset: { round: r } }, `${t('draw_round', { n: r })}: `, g.draw.filter((p) => p.round === r).map(pick));
  return h('details', { class: 'card', id: 'draw-record' },
    h('summary', {}, t('draw_record', { name: first ? seatName(0) : '' })),
    h('ul', { class: 'list', id: 'draw-record-picks' }, rounds.map(round)));
}

/** An open game's state: invitations to answer or wait on, or a seat nobody took yet. */
export function openPanel() {
  const g = S.game;
  if (g.status !== 'open') return null;
  const me = g.seats.find((s) => s.seat === g.your_seat);
  const invited = g.seats.filter((s) => s.invited && s.seat !== g.your_seat);
  const box = h('section', { class: 'card', id: 'open-panel' });
  if (me && me.invited) {
    box.append(h('p', {}, t('invited_you', { name: names(g.seats.filter((s) => s.account_id === g.invited_by)) })),
      h('div', { class: 'controls' },
        action(t('accept'), 'primary accept', async () => { const { json } = await api('POST', `/games/${g.game_id}/join`); setGame(json); }),
        action(t('decline'), 'decline', async () => { const { json } = await api('POST', `/games/${g.game_id}/decline`); setGame(json); })));
  } else if (invited.length) {
    box.append(h('p', {}, t('waiting_for', { names: names(invited) })),
      h('div', { class: 'controls' }, action(t('withdraw'), 'withdraw', async () => { const { json } = await api('POST', `/games/${g.game_id}/withdraw`); setGame(json); })));
  } else {
    box.append(h('p', {}, t('waiting_opponent')),
      h('div', { class: 'controls' },
        action(t('add_robot'), 'robot', async () => { const answer = (await api('POST', `/games/${g.game_id}/robot`, { level: 'medium' })).json; reveal(answer, 0); }),
        action(t('withdraw'), 'withdraw', async () => { const { json } = await api('POST', `/games/${g.game_id}/withdraw`); setGame(json); })));
  }
  return box;
}

export function resultPanel() {
  const g = S.game;
  if (g.status !== 'finished' || !g.result) return null;
  const r = g.result;
  const winners = r.winners.map(seatName).join(', ');
  const reason = t(`reason_${r.reason}`, { name: r.seat == null ? '' : seatName(r.seat) });
  const lines = g.seats.map((s) => {
    const adj = (r.adjustments || [])[s.seat];
    const rack = r.racks && r.racks[s.seat];
    return h('li', { dataset: { seat: s.seat } }, `${seatName(s.seat)}: ${s.score}`,
      adj ? h('span', { class: 'muted' }, ` (${adj > 0 ? '+' : ''}${adj})`) : null,
      rack && rack.length ? h('span', { class: 'muted leftover' }, ` · ${t('leftover', { tiles: rack.join(' ') })}`) : null);
  });
  return h('section', { class: 'card result', id: 'result' },
    h('h2', {}, r.winners.length === 1 ? t('winner', { names: winners }) : r.winners.length ? t('winners', { names: winners }) : t('draw_result')),
    h('p', {}, reason),
    h('ul', { class: 'list' }, lines),
    h('p', { class: 'row' },
      h('a', { href: `#/g/${g.game_id}/history`, id: 'history-link' }, t('history')),
      // The analysis and a rematch are the players' own.
      g.spectator ? null : h('a', { href: `#/g/${g.game_id}/analysis`, id: 'analysis-link' }, t('analysis')),
      g.spectator ? null : action(t('rematch'), 'rematch', async () => { const { json } = await api('POST', `/games/${g.game_id}/rematch`); go(`#/g/${json.game_id}`); })));
}

export function renderGame() {
  const g = S.game;
  const focusId = document.activeElement && document.activeElement.id;
  const head = h('div', {},
    h('h2', {}, variantName(g.variant), ' ', h('a', { href: '#/', class: 'muted' }, `← ${t('lobby_link')}`),
      g.spectator ? [' ', h('a', { href: '#/watch', class: 'muted', id: 'watch-list-link' }, t('back_to_watch'))] : null,
      g.tournament_id ? [' ', h('a', { href: `#/t/${g.tournament_id}`, class: 'muted', id: 'tournament-link' }, t('tournament_link'))] : null),
    g.spectator ? h('p', { id: 'watching' }, h('span', { class: 'watching-tag' }, t('watching')),
      g.spectator_delay > 0 ? h('span', { class: 'muted', id: 'moves-behind' }, ` · ${t('moves_behind', { n: g.spectator_delay })}`) : null) : null,
    g.time_control && g.time_control.kind !== 'none' ? h('p', { class: 'muted', id: 'time-control' }, label(g.time_control)) : null,
    g.challenge_rule && g.challenge_rule !== 'void' ? h('p', { class: 'muted', id: 'challenge-rule' }, t(`rule_${g.challenge_rule}`)) : null,
    renderSeats(), turnLine(),
    g.last_move ? h('p', { class: 'muted', id: 'last-move' }, t('last_move', { what: describeMove(g.last_move) })) : null,
    h('p', { id: 'thinking', 'aria-live': 'polite' }, S.revealing ? t('thinking', { name: seatName(g.to_move) }) : ''));
  let client;
  try {
    client = family(g.family);
  } catch (e) {
    // A family this app has no client for is never drawn as another one.
    $('#main').replaceChildren(head, h('p', { class: 'error', id: 'unknown-family', role: 'alert' }, e.message));
    return;
  }
  const body = client.render(head);
  $('#main').replaceChildren(body);
  if (focusId && document.getElementById(focusId)) document.getElementById(focusId).focus({ preventScroll: true });
  // A control that is disabled now (the move just sent) cannot keep the focus: the game keeps it.
  if (focusId && document.activeElement === document.body) $('#main').focus({ preventScroll: true });
  client.afterRender();
}

// ---------------------------------------------------------------- moves

export async function submit(move) {
  const g = S.game;
  try {
    const { json } = await api('POST', `/games/${g.game_id}/moves`, { expected_move_no: g.move_count, client_move_id: uuid(), move });
    status('');
    reveal(json, 0);
  } catch (e) {
    showError(e);
    if (e.code === 'stale_move' || e.code === 'not_your_turn') refreshGame();
  }
}

/** An answer to something other than a move of the player's own (a challenge): shown as the
 * robots' replies are, after their thinking time. */
export const showAnswer = (answer) => reveal(answer, 1);

/** An answer with moves: the player's own at once, the robots' after their `thinking_ms`. */
function reveal(answer, mine) {
  const g = S.game;
  const own = answer.moves.filter((m) => m.seat === g.your_seat);
  const robots = answer.moves.filter((m) => m.seat !== g.your_seat);
  const at = performance.now();
  if (!robots.length || !answer.thinking_ms) { setGame(answer.game, at); return; }
  let shown = g;
  if (mine === 0 && own.length) shown = interim(g, own[0], answer.game);
  S.game = null;
  setGame(shown);
  S.revealing = true;
  renderGame();
  setTimeout(() => {
    S.revealing = false;
    if (S.game && S.game.game_id === answer.game.game_id) {
      S.etag = null;
      setGame(answer.game, at);
    }
  }, answer.thinking_ms);
}

/** The view just after the player's own move, before the robots' replies are shown. */
function interim(before, move, after) {
  const v = structuredClone(before);
  v.move_count = move.move_no + 1;
  v.last_move = move;
  const seat = v.seats.find((s) => s.seat === move.seat);
  if (seat) seat.score += move.score || 0;
  v.to_move = after.seats.length ? (move.seat + 1) % v.seats.length : null;
  // The robot's time is charged already: its clock stands still while its reply is revealed.
  if (after.clock) v.clock = { ...after.clock, running: null };
  if (move.kind === 'play') {
    v.board = v.board.concat(move.tiles);
    const rack = [...v.your_rack];
    for (const tile of move.tiles) {
      const i = rack.indexOf(tile.blank ? '?' : tile.letter);
      if (i >= 0) rack.splice(i, 1);
    }
    v.your_rack = rack;
  }
  if (move.kind === 'word') {
    const ends = move.word.split(/\s+/).pop();
    v.chain = v.chain.concat([{ move_no: move.move_no, seat: move.seat, word: move.word, points: move.score, ends_on: ends }]);
    v.syllable = ends;
  }
  return v;
}

export function confirmButton(id, label, question, run) {
  if (S.confirming === id) {
    return h('span', { class: 'row', id: `${id}-confirm` }, h('span', {}, question),
      h('button', { type: 'button', class: 'danger', id: `${id}-yes`, onclick: () => { S.confirming = null; run(); } }, t('yes')),
      h('button', { type: 'button', id: `${id}-no`, onclick: () => { S.confirming = null; renderGame(); } }, t('no')));
  }
  return h('button', { type: 'button', class: 'danger', id, onclick: () => { S.confirming = id; renderGame(); $(`#${id}-no`).focus(); } }, label);
}

export async function resign() {
  const g = S.game;
  try { reveal((await api('POST', `/games/${g.game_id}/resign`)).json, 1); } catch (e) { showError(e); }
}

/** The hints asked for, each with its button to use it; a word's familiarity (0 to 9, where
 * the dictionary knows it) and whether it wins at once (it leaves no answer). */
export function hintsList() {
  if (!S.hints) return null;
  if (!S.hints.length) return h('p', { id: 'hints' }, t('no_hints'));
  return h('section', { 'aria-labelledby': 'hints-title' }, h('h2', { id: 'hints-title' }, t('hints')),
    h('ol', { class: 'list', id: 'hints' }, S.hints.map((x, i) => h('li', {},
      family(S.game.family).hintText(x),
      x.familiarity == null ? null : h('span', { class: 'tag familiarity', dataset: { familiarity: x.familiarity } }, t('familiar_n', { n: x.familiarity })),
      (x.wins_at_once ?? x.replies === 0) ? h('span', { class: 'tag wins-at-once' }, t('wins_at_once')) : null,
      h('button', { type: 'button', class: 'use-hint', dataset: { hint: i }, onclick: () => family(S.game.family).useHint(x) }, t('use'))))));
}

/** The hint button and, where the game rations hints, how many are left: with none left the
 * button says so instead of asking (aria-disabled: still focusable, and its note explains). */
export function hintControl(canMove) {
  const g = S.game;
  const left = g.hints_left;
  const note = left == null ? null
    : h('span', { id: 'hints-left', class: left === 0 ? 'muted spent' : 'muted', 'aria-live': 'polite' },
      left > 0 ? t('hints_left', { n: left }) : t(g.hints_allowed === 0 ? 'no_hints_game' : 'no_hints_left'));
  const button = h('button', { type: 'button', id: 'hint', disabled: !canMove, 'aria-disabled': left === 0 ? 'true' : null, 'aria-describedby': note ? 'hints-left' : null, onclick: loadHints }, t('hint'));
  return [button, note];
}

/** Asks for the best moves (GET /games/{id}/hint), taking one of the seat's hints; none left
 * (as the view says, or as the server answers) asks nothing and says so. */
export async function loadHints() {
  if (S.game.hints_left === 0) { status(t(S.game.hints_allowed === 0 ? 'no_hints_game' : 'no_hints_left')); return; }
  try {
    const { json } = await api('GET', `/games/${S.game.game_id}/hint?limit=5`);
    S.hints = json.hints;
    if (json.hints_left !== undefined) S.game.hints_left = json.hints_left;
    renderGame();
  } catch (e) {
    if (e.code === 'no_hints_left') { S.game.hints_left = 0; renderGame(); }
    showError(e);
  }
}

// ---------------------------------------------------------------- analysis

/** A finished game's analysis: each move beside the hard robot's (tile), or each word beside a
 * winning word where one existed (Nối từ), and each player's summary. */
export async function loadAnalysis(id) {
  $('#main').replaceChildren(h('p', { class: 'muted' }, t('analysing')));
  try {
    const [{ json: view }, { json: a }] = await Promise.all([api('GET', `/games/${id}`), api('GET', `/games/${id}/analysis`)]);
    S.game = view;
    const client = family(a.family);
    const { rows, head, summary, help } = client.analysis(a);
    const lines = a.players.map((p) => h('li', { dataset: { seat: p.seat } }, `${seatName(p.seat)}: `, summary(p)));
    $('#main').replaceChildren(h('section', { class: 'card', id: 'analysis' },
      h('h2', {}, `${t('analysis')}: ${variantName(view.variant)}`),
      h('p', {}, h('a', { href: `#/g/${id}` }, `← ${t('back')}`)),
      h('p', { class: 'muted' }, help),
      h('p', { class: 'muted', id: 'analysis-judge' }, t(a.judge.rounds ? 'judged_rounds' : 'judged_nodes', { level: t(`robot_${a.judge.level}`), n: a.judge.rounds ?? a.judge.nodes })),
      h('ul', { class: 'list', id: 'analysis-summary' }, lines),
      h('div', { class: 'table-scroll' }, h('table', { class: 'history' },
        h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, rows)))));
  } catch (e) { showError(e); }
}
