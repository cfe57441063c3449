// wordgame's player web app, its entry module: no framework and no build step. It speaks only
// the public API (docs/API.md): the game view it renders, the moves it sends, previews, hints,
// the push socket (/ws) with the ETag poll as fallback. The server is the referee: nothing here
// knows a rule beyond drawing what the view and GET /variants say. This module signs in,
// keeps the push socket, routes, and draws the lobby, the live games to watch (a game watched
// is game.js's page in its spectator's view) and the history; core.js holds the state
// and the API client, game.js a game's frame and its moves, tile.js and chain.js each family.

import { $, ApiFailure, RULES, S, action, api, applyLanguage, base64url, claimsOf, go, h, hooks, names, setLang, showError, status, t, variantName } from './core.js';
import { label } from './clock.js';
import { familyInfo, presets } from './families.js';
import { describeMove, loadAnalysis, loadGame, ratedAs, refreshGame, renderGame } from './game.js';
import { loadRatings } from './ratings.js';
import { loadTournament, loadTournaments } from './tournaments.js';

// ---------------------------------------------------------------- sign-in

const TOKEN_KEY = 'wordgame.token';

function adoptToken(token) {
  const claims = claimsOf(token);
  if (!claims || !claims.sub || (claims.exp && claims.exp * 1000 < Date.now())) return false;
  S.token = token;
  const groups = [].concat(claims['cognito:groups'] || []);
  S.me = {
    id: claims.sub, name: claims.name || claims.preferred_username || claims['cognito:username'] || 'Player',
    // The server decides; this only shows a director's controls.
    director: groups.includes('director') || groups.includes('admin'),
  };
  sessionStorage.setItem(TOKEN_KEY, token);
  return true;
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  S.token = null; S.me = null; S.game = null;
  push.close();
  if (S.config && S.config.sign_in === 'hosted_ui' && !message) {
    const back = `${location.origin}/`;
    location.assign(`${S.config.domain}/logout?client_id=${encodeURIComponent(S.config.client_id)}&logout_uri=${encodeURIComponent(back)}`);
    return;
  }
  renderHeader();
  renderSignIn();
  if (message) status(message);
}

async function pkceStart() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('wordgame.pkce', JSON.stringify({ verifier, state }));
  const q = new URLSearchParams({
    response_type: 'code', client_id: S.config.client_id, redirect_uri: `${location.origin}/`,
    scope: 'openid profile', code_challenge_method: 'S256', code_challenge: base64url(digest), state,
  });
  location.assign(`${S.config.domain}/oauth2/authorize?${q}`);
}

/** The hosted UI's redirect back: the code and the kept verifier become the ID token. */
async function pkceFinish(params) {
  const kept = JSON.parse(sessionStorage.getItem('wordgame.pkce') || 'null');
  sessionStorage.removeItem('wordgame.pkce');
  history.replaceState(null, '', location.pathname + location.hash);
  if (!kept || kept.state !== params.get('state')) { status(t('signin_failed')); return false; }
  const form = new URLSearchParams({
    grant_type: 'authorization_code', client_id: S.config.client_id, code: params.get('code'),
    redirect_uri: `${location.origin}/`, code_verifier: kept.verifier,
  });
  try {
    const res = await fetch(`${S.config.domain}/oauth2/token`, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const answer = await res.json();
    return res.ok && adoptToken(answer.id_token);
  } catch {
    status(t('signin_failed'));
    return false;
  }
}

async function renderSignIn() {
  const main = $('#main');
  const section = h('section', { class: 'card', id: 'signin' }, h('h2', {}, t('signin_title')));
  main.replaceChildren(section);
  if (S.config.sign_in === 'local') {
    section.append(h('p', {}, t('signin_local')));
    try {
      const { json } = await api('GET', '/_dev/accounts').catch((e) => {
        // A deployment without a player app client configured has no development accounts.
        throw e.status === 404 ? new ApiFailure(404, 'no_route', t('signin_unavailable')) : e;
      });
      const row = h('div', { class: 'row' });
      for (const a of json.accounts) {
        row.append(h('button', {
          type: 'button', class: 'primary', dataset: { account: a.name },
          onclick: async () => {
            try {
              const { json: got } = await api('POST', '/_dev/token', { account: a.name });
              if (adoptToken(got.token)) start();
            } catch (e) { showError(e); }
          },
        }, t('signin_as', { name: a.name })));
      }
      section.append(row);
    } catch (e) { showError(e); }
  } else {
    section.append(h('p', {}, h('button', { type: 'button', class: 'primary', id: 'signin-hosted', onclick: pkceStart }, t('signin_hosted'))));
  }
}

function renderHeader() {
  const who = $('#whoami');
  who.replaceChildren();
  $('#signout').hidden = !S.me;
  // The words before the name go on a narrow screen; the name stays.
  if (S.me) who.append(h('span', { class: 'who-prefix' }, t('you_are', { name: '' }).trim()), ' ', h('strong', {}, S.me.name));
  renderPushState();
}

// ---------------------------------------------------------------- push (and the poll behind it)

const push = {
  ws: null, live: false, subs: new Set(), retry: 0, closed: false,
  url() {
    if (S.config.sign_in === 'local') return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    return S.config.push_url || null;
  },
  connect() {
    const url = this.url();
    if (!url || !S.token) return;
    this.closed = false;
    const ws = new WebSocket(`${url}?token=${S.token}`);
    this.ws = ws;
    ws.onopen = () => {
      this.live = true; this.retry = 0;
      for (const id of this.subs) ws.send(JSON.stringify({ action: 'subscribe', game_id: id }));
      renderPushState();
    };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.type === 'move') onPushedMove(m);
      else if (m.type === 'invitation') onInvitation(m);
      else if (['round_ready', 'draw_a_tile', 'draw_over'].includes(m.type)) onTournament(m);
    };
    ws.onclose = () => {
      const wasLive = this.live;
      this.live = false; this.ws = null;
      renderPushState();
      if (this.closed) return;
      const wait = wasLive ? 500 : Math.min(30000, 1000 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  },
  close() {
    this.closed = true; this.subs.clear();
    if (this.ws) this.ws.close();
  },
  /** Subscribes to exactly the games `ids`. */
  watch(ids) {
    const want = new Set(ids);
    for (const id of this.subs) if (!want.has(id) && this.live) this.ws.send(JSON.stringify({ action: 'unsubscribe', game_id: id }));
    for (const id of want) if (!this.subs.has(id) && this.live) this.ws.send(JSON.stringify({ action: 'subscribe', game_id: id }));
    this.subs = want;
  },
};

function renderPushState() {
  const el = $('#push-state');
  el.textContent = S.me ? t(push.live ? 'live' : 'polling') : '';
  el.className = push.live ? 'live' : '';
}

function onPushedMove(m) {
  if (S.route.view === 'game' && S.route.id === m.game_id) refreshGame();
  else if (S.route.view === 'lobby') loadLobby();
}

function onInvitation(m) {
  status(t('invitation_arrived', { name: m.inviter_name }), true);
  if (S.route.view === 'lobby') loadLobby();
}

/** A tournament's news: the player's game is ready, or its draw wants a tile, or is over. */
function onTournament(m) {
  if (m.type !== 'draw_over') {
    status(t(m.type === 'round_ready' ? 'round_ready' : 'draw_a_tile', { n: m.round }), true);
  }
  if (S.route.view === 'game' && S.route.id === m.game_id) refreshGame();
  else if (S.route.view === 'tournament') loadTournament(S.route.id);
  else if (S.route.view === 'lobby') loadLobby();
}

// Every 3 s: without a live socket, the game is polled (ETag, so mostly 304) and the lobby
// every 15 s; with one, a slow safety poll every 60 s.
let ticks = 0;
setInterval(() => {
  if (!S.me || document.hidden) return;
  ticks += 1;
  // Accepting an invitation is not pushed (only moves and invitations are): an open game is
  // polled as if there were no socket.
  const every = push.live && !(S.game && ['open', 'drawing'].includes(S.game.status)) ? 20 : 1;
  if (S.route && S.route.view === 'game' && ticks % every === 0) refreshGame();
  if (S.route && S.route.view === 'lobby' && ticks % (push.live ? 20 : 5) === 0) loadLobby();
  // The live games follow every 15 s (the first page only: a list read further stays as read).
  if (S.route && S.route.view === 'watch' && ticks % 5 === 0 && S.watchPages <= 1) loadWatch(null);
  // A tournament's page follows its games' results (not while the director types in it).
  const typing = document.activeElement && document.activeElement.tagName === 'INPUT';
  if (S.route && S.route.view === 'tournament' && ticks % (push.live ? 20 : 5) === 0 && !typing) loadTournament(S.route.id);
}, 3000);

// ---------------------------------------------------------------- routing

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'g' && parts[1]) return { view: ['history', 'analysis'].includes(parts[2]) ? parts[2] : 'game', id: parts[1] };
  if (parts[0] === 'ratings') return { view: 'ratings' };
  if (parts[0] === 'watch') return { view: 'watch' };
  if (parts[0] === 't' && parts[1]) return { view: 'tournament', id: parts[1] };
  if (parts[0] === 't') return { view: 'tournaments' };
  return { view: 'lobby' };
}

function show() {
  if (!S.me) return;
  const route = parseRoute();
  const sameGame = S.route && route.view === 'game' && S.route.view === 'game' && S.route.id === route.id;
  S.route = route;
  if (!sameGame) resetGameState();
  status('');
  if (route.view === 'lobby') { push.watch([]); renderLobbyShell(); loadLobby(); }
  else if (route.view === 'game') { push.watch([route.id]); loadGame(route.id); }
  else if (route.view === 'ratings') { push.watch([]); loadRatings(); }
  else if (route.view === 'watch') { push.watch([]); renderWatchShell(); loadWatch(null); }
  else if (route.view === 'tournaments') { push.watch([]); loadTournaments(); }
  else if (route.view === 'analysis') { push.watch([]); loadAnalysis(route.id); }
  else if (route.view === 'tournament') { push.watch([]); loadTournament(route.id); }
  else { push.watch([]); loadHistory(route.id); }
}

function resetGameState() {
  Object.assign(S, { game: null, etag: null, pending: [], selected: null, order: [], exchange: null, hints: null, revealing: false, confirming: null, word: '' });
  S.cursor = { square: 'H8', dir: 'across' };
}

// ---------------------------------------------------------------- the lobby

const others = (seats) => seats.filter((s) => s.account_id !== S.me.id);

function renderLobbyShell() {
  const variantOptions = [...S.variants.keys()].map((id) => h('option', { value: id }, variantName(id)));
  const friend = h('input', { type: 'text', id: 'friend-id', autocomplete: 'off', spellcheck: 'false', placeholder: '00000000-…', 'aria-describedby': 'friend-help' });
  const friendLabel = h('label', { id: 'friend-field', hidden: true }, t('friend_id'), friend);
  const opponent = h('select', { id: 'opponent', onchange: () => { friendLabel.hidden = opponent.value !== 'friend'; } },
    ['easy', 'medium', 'hard'].map((l) => h('option', { value: l }, t(`robot_${l}`))),
    h('option', { value: 'friend' }, t('friend')));
  const custom = customClock();
  const clock = h('select', { id: 'clock', onchange: () => { custom.hidden = clock.value !== 'custom'; } });
  const rule = h('select', { id: 'challenge-rule' }, RULES.map((r) => h('option', { value: r }, t(`rule_${r}`))));
  const ruleLabel = h('label', { id: 'rule-field' }, t('challenge_rule'), rule);
  const familyChanged = () => {
    clockOptions(clock, variant.value);
    custom.hidden = true;
    custom.family = S.variants.get(variant.value).family;
    custom.show(custom.family);
    ruleLabel.hidden = !familyInfo(custom.family).challenges;
  };
  const variant = h('select', { id: 'variant', onchange: familyChanged }, variantOptions);
  familyChanged();
  const challengeRule = () => (ruleLabel.hidden ? undefined : rule.value);
  const rated = h('input', { type: 'checkbox', id: 'rated' });
  const ratedLabel = h('label', { id: 'rated-field', class: 'check' }, rated, t('rated'));
  const family = () => S.variants.get(variant.value).family;
  const timeControl = () => (clock.value === 'custom' ? custom.control(family()) : presets(family())[Number(clock.value)]);
  const form = h('form', {
    id: 'new-game',
    onsubmit: async (e) => {
      e.preventDefault();
      // Only a game between two humans is rated.
      const body = { variant: variant.value, time_control: timeControl(), challenge_rule: challengeRule(), rated: rated.checked && opponent.value === 'friend' };
      body.opponents = [opponent.value === 'friend' ? { account: friend.value.trim() } : { robot: opponent.value }];
      try {
        const { json } = await api('POST', '/games', body);
        go(`#/g/${json.game_id}`);
      } catch (err) { showError(err); }
    },
  },
  h('div', { class: 'row' },
    h('label', {}, t('variant'), variant),
    h('label', {}, t('opponent'), opponent),
    friendLabel,
    h('label', {}, t('clock'), clock),
    ruleLabel,
    ratedLabel),
  custom,
  h('p', { class: 'row' },
    h('button', { type: 'submit', class: 'primary', id: 'create' }, t('create')),
    h('button', {
      type: 'button', id: 'open-game',
      onclick: async () => {
        const body = { variant: variant.value, time_control: timeControl(), challenge_rule: challengeRule(), rated: rated.checked };
        try { const { json } = await api('POST', '/games/open', body); go(`#/g/${json.game_id}`); } catch (err) { showError(err); }
      },
    }, t('open_game'))));
  $('#main').replaceChildren(
    h('section', { class: 'card', id: 'account' },
      h('p', {}, t('your_id'), ' ', h('code', { class: 'id', id: 'my-id' }, S.me.id), ' ',
        h('button', { type: 'button', id: 'copy-id', onclick: async (e) => { try { await navigator.clipboard.writeText(S.me.id); e.target.textContent = t('copied'); } catch { /* no clipboard: the id is on screen */ } } }, t('copy'))),
      h('p', {}, h('a', { href: '#/ratings', id: 'ratings-link' }, t('ratings_link')), ' · ',
        h('a', { href: '#/t', id: 'tournaments-link' }, t('tournaments_link')), ' · ',
        h('a', { href: '#/watch', id: 'watch-link' }, t('watch_link'))),
      spectatingSetting()),
    h('section', { class: 'card', 'aria-labelledby': 'inv-title' }, h('h2', { id: 'inv-title' }, t('invitations')), h('ul', { class: 'list', id: 'invitations' })),
    h('section', { class: 'card', 'aria-labelledby': 'mine-title' }, h('h2', { id: 'mine-title' }, t('my_games')), h('ul', { class: 'list', id: 'my-games' })),
    h('section', { class: 'card', 'aria-labelledby': 'new-title' }, h('h2', { id: 'new-title' }, t('new_game')), form),
    h('section', { class: 'card', 'aria-labelledby': 'lobby-title' }, h('h2', { id: 'lobby-title' }, t('lobby')),
      h('p', {}, h('label', {}, t('clock'), h('select', { id: 'lobby-clock', onchange: (e) => { S.lobbyClock = e.target.value; loadLobby(); } },
        [['', t('any_time')], ['none', t('tc_none')], ['realtime', t('tc_realtime')], ['correspondence', t('tc_correspondence')]]
          .map(([v, l]) => h('option', { value: v, selected: S.lobbyClock === v }, l)))),
        ' ',
        h('label', {}, t('rated'), h('select', { id: 'lobby-rated', onchange: (e) => { S.lobbyRated = e.target.value; loadLobby(); } },
          [['', t('any_time')], ['true', t('rated_only')], ['false', t('casual_only')]]
            .map(([v, l]) => h('option', { value: v, selected: S.lobbyRated === v }, l))))),
      h('ul', { class: 'list', id: 'lobby' })),
    h('section', { class: 'card', 'aria-labelledby': 'done-title' }, h('h2', { id: 'done-title' }, t('finished')), h('ul', { class: 'list', id: 'finished' })),
  );
}

/** The time controls `family` offers, as the options of `select` (the first chosen). */
function clockOptions(select, variantId) {
  const family = S.variants.get(variantId).family;
  select.replaceChildren(...presets(family).map((tc, i) => h('option', { value: String(i) }, label(tc))),
    h('option', { value: 'custom' }, t('clock_custom')));
}

/** The custom time control's fields: real time (a tile game's minutes each, increment and
 * overtime; a chain's seconds a turn) or correspondence (hours a turn and a bank). */
function customClock() {
  const num = (id, value, min, max) => h('input', { id, type: 'number', min, max, value, inputmode: 'numeric' });
  const kind = h('select', { id: 'custom-kind' }, ['realtime', 'correspondence'].map((k) => h('option', { value: k }, t(`tc_${k}`))));
  const box = h('div', { class: 'row', id: 'custom-clock', hidden: true },
    h('label', {}, t('custom_kind'), kind),
    h('label', { class: 'rt game_clock' }, t('custom_initial'), num('custom-initial', 25, 1, 180)),
    h('label', { class: 'rt game_clock' }, t('custom_increment'), num('custom-increment', 0, 0, 300)),
    h('label', { class: 'rt game_clock' }, t('custom_overtime'), num('custom-overtime', 1, 0, 10)),
    h('label', { class: 'rt turn_timer' }, t('custom_turn_seconds'), num('custom-turn-seconds', 20, 5, 600)),
    h('label', { class: 'corr' }, t('custom_turn_hours'), num('custom-turn-hours', 24, 1, 720)),
    h('label', { class: 'corr' }, t('custom_bank_hours'), num('custom-bank-hours', 0, 0, 2160)));
  /** Shows the fields of `family` and the chosen kind. */
  box.show = (family) => {
    for (const l of box.querySelectorAll('label.rt, label.corr')) {
      l.hidden = kind.value === 'realtime' ? !(l.classList.contains('rt') && l.classList.contains(familyInfo(family).clocks)) : !l.classList.contains('corr');
    }
  };
  /** The control as the API takes it. */
  box.control = (family) => {
    const v = (id) => Number(box.querySelector(`#${id}`).value);
    if (kind.value === 'correspondence') return { kind: 'correspondence', turn_seconds: v('custom-turn-hours') * 3600, bank_seconds: v('custom-bank-hours') * 3600 };
    if (familyInfo(family).clocks === 'turn_timer') return { kind: 'realtime', turn_seconds: v('custom-turn-seconds') };
    return { kind: 'realtime', initial_seconds: v('custom-initial') * 60, increment_seconds: v('custom-increment'), max_overtime_minutes: v('custom-overtime') };
  };
  kind.addEventListener('change', () => box.show(box.family));
  return box;
}

/** A game's time control as a small tag after its name (nothing when untimed). */
function clockTag(tc) {
  return tc && tc.kind !== 'none' ? h('span', { class: 'muted tc' }, ` · ${label(tc)}`) : null;
}

/** A game's challenge rule as a small tag (nothing under void). */
function ruleTag(rule) {
  return rule && rule !== 'void' ? h('span', { class: 'muted rule' }, ` · ${t(`rule_${rule}`)}`) : null;
}

/** A finished rated game's change to the player's rating, as a small tag. */
function ratingChange(g) {
  const mine = g.seats.find((s) => s.seat === g.your_seat);
  if (!g.rated || !mine || mine.rating_change == null) return null;
  return h('span', { class: 'muted rating-change' }, ` · ${ratedAs(mine.rating, mine.rating_change)}`);
}

function scoresLine(seats) {
  return seats.map((s) => `${s.display_name} ${s.score}`).join(' · ');
}

let lobbySeq = 0;
async function loadLobby() {
  const seq = ++lobbySeq;
  let open, active, done, lobby;
  try {
    [open, active, done, lobby] = await Promise.all([
      api('GET', '/games?status=open&limit=50'), api('GET', '/games?status=active&limit=50'),
      api('GET', '/games?status=finished&limit=10'),
      api('GET', `/games/open?limit=20&joinable=true${S.lobbyClock ? `&time_control=${S.lobbyClock}` : ''}${S.lobbyRated ? `&rated=${S.lobbyRated}` : ''}`),
    ]);
  } catch (e) { showError(e); return; }
  if (seq !== lobbySeq || S.route.view !== 'lobby' || !$('#invitations')) return;
  const inv = [];
  for (const g of open.json.games) {
    const rest = others(g.seats);
    const link = h('a', { href: `#/g/${g.game_id}`, class: 'open-link' }, variantName(g.variant), clockTag(g.time_control), ruleTag(g.challenge_rule));
    if (g.awaits_you) {
      const inviter = rest.find((s) => !s.invited && s.kind === 'human') || rest[0];
      inv.push(h('li', { class: 'invitation', dataset: { game: g.game_id } }, link,
        h('span', {}, t('invited_you', { name: inviter.display_name })),
        action(t('accept'), 'primary accept', async () => { await api('POST', `/games/${g.game_id}/join`); go(`#/g/${g.game_id}`); }),
        action(t('decline'), 'decline', async () => { await api('POST', `/games/${g.game_id}/decline`); loadLobby(); })));
    } else if (rest.some((s) => s.invited)) {
      inv.push(h('li', { class: 'invitation sent', dataset: { game: g.game_id } }, link,
        h('span', {}, t('waiting_for', { names: names(rest.filter((s) => s.invited)) })),
        action(t('withdraw'), 'withdraw', async () => { await api('POST', `/games/${g.game_id}/withdraw`); loadLobby(); })));
    } else {
      inv.push(h('li', { class: 'invitation waiting', dataset: { game: g.game_id } }, link,
        h('span', {}, t('waiting_opponent')),
        action(t('add_robot'), 'robot', async () => { await api('POST', `/games/${g.game_id}/robot`, { level: 'medium' }); go(`#/g/${g.game_id}`); }),
        action(t('withdraw'), 'withdraw', async () => { await api('POST', `/games/${g.game_id}/withdraw`); loadLobby(); })));
    }
  }
  $('#invitations').replaceChildren(...(inv.length ? inv : [h('li', { class: 'muted' }, t('no_invitations'))]));
  const rows = active.json.games.map((g) => {
    const mover = g.seats.find((s) => s.seat === g.to_move);
    return h('li', { class: 'game-row', dataset: { game: g.game_id } },
      h('a', { href: `#/g/${g.game_id}`, class: 'open-link' }, `${variantName(g.variant)} ${t('vs')} ${names(others(g.seats))}`, clockTag(g.time_control), ruleTag(g.challenge_rule)),
      h('span', { class: g.your_turn ? 'turn mine' : 'turn muted' }, g.your_turn ? t('your_turn') : t('their_turn', { name: mover ? mover.display_name : '' })),
      h('span', { class: 'muted' }, scoresLine(g.seats)));
  });
  $('#my-games').replaceChildren(...(rows.length ? rows : [h('li', { class: 'muted' }, t('no_games'))]));
  const offers = lobby.json.games.map((g) => h('li', { class: 'open-row', dataset: { game: g.game_id } },
    h('span', {}, t('opened_by', { variant: variantName(g.variant), name: g.opener_name }), clockTag(g.time_control), ruleTag(g.challenge_rule),
      g.rated ? h('span', { class: 'muted rated-tag' }, ` · ${t('rated_by', { rating: g.opener_rating, range: g.rating_range ? ` ±${g.rating_range}` : '' })}`) : null,
      g.pair_limited ? h('span', { class: 'muted pair-limited' }, ` · ${t('pair_limited_lobby')}`) : null),
    action(t('join'), 'primary join', async () => { await api('POST', `/games/${g.game_id}/join`); go(`#/g/${g.game_id}`); })));
  $('#lobby').replaceChildren(...(offers.length ? offers : [h('li', { class: 'muted' }, t('nobody_waiting'))]));
  const finished = done.json.games.map((g) => h('li', { class: 'finished-row', dataset: { game: g.game_id } },
    h('a', { href: `#/g/${g.game_id}`, class: 'open-link' }, `${variantName(g.variant)} ${t('vs')} ${names(others(g.seats))}`),
    h('span', { class: 'muted' }, scoresLine(g.seats)), ratingChange(g)));
  $('#finished').replaceChildren(...(finished.length ? finished : [h('li', { class: 'muted' }, t('no_games'))]));
  push.watch(active.json.games.map((g) => g.game_id));
}

// ---------------------------------------------------------------- the account's settings

const SPECTATING = ['standard', 'always', 'never'];

/** Who may watch the player's games (GET /me's `spectating`): a select that saves each choice
 * (PUT /me/settings) and shows the value the server kept. */
function spectatingSetting() {
  const saved = h('span', { class: 'muted', id: 'spectating-saved', 'aria-live': 'polite' });
  const select = h('select', {
    id: 'spectating', disabled: true,
    onchange: async () => {
      saved.textContent = '';
      select.disabled = true;
      try {
        const { json } = await api('PUT', '/me/settings', { spectating: select.value });
        S.spectating = json.spectating;
        saved.textContent = t('saved');
      } catch (e) { showError(e); }
      select.value = S.spectating || 'standard';
      select.disabled = false;
    },
  }, SPECTATING.map((v) => h('option', { value: v }, t(`spectating_${v}`))));
  (async () => {
    try {
      const { json } = await api('GET', '/me');
      S.spectating = json.spectating || 'standard';
      select.value = S.spectating;
      select.disabled = false;
    } catch (e) { showError(e); }
  })();
  return h('p', { class: 'row', id: 'spectating-field' }, h('label', {}, t('spectating_setting'), select), saved);
}

// ---------------------------------------------------------------- watching

/** The live games screen: a variant filter, then the games (GET /games/live), a page at a time. */
function renderWatchShell() {
  S.watchPages = 0;
  const variant = h('select', { id: 'watch-variant', onchange: (e) => { S.watchVariant = e.target.value; loadWatch(null); } },
    h('option', { value: '' }, t('any_variant')),
    [...S.variants.keys()].map((id) => h('option', { value: id, selected: S.watchVariant === id }, variantName(id))));
  $('#main').replaceChildren(
    h('p', {}, h('a', { href: '#/' }, `← ${t('lobby_link')}`)),
    h('section', { class: 'card', id: 'watch', 'aria-labelledby': 'watch-title' }, h('h2', { id: 'watch-title' }, t('watch_title')),
      h('p', { class: 'muted' }, t('watch_help')),
      h('p', { class: 'row' }, h('label', {}, t('variant'), variant)),
      h('ul', { class: 'list', id: 'live-games' }),
      h('p', { id: 'live-more' })));
}

/** A live game's row: its players, how far it is, its clock, a tournament's tag; the link opens
 * the game (the spectator's view, or the player's own where the player is seated). */
function liveRow(g) {
  const mine = g.seats.some((s) => s.account_id === S.me.id);
  return h('li', { class: 'live-row', dataset: { game: g.game_id, variant: g.variant } },
    h('a', { href: `#/g/${g.game_id}`, class: 'watch-game' }, `${variantName(g.variant)}: ${g.seats.map((s) => s.display_name).join(` ${t('vs')} `)}`),
    h('span', { class: 'muted live-moves' }, g.status === 'drawing' ? t('gs_drawing') : t('moves_n', { n: g.move_count })),
    clockTag(g.time_control),
    g.rated ? h('span', { class: 'muted' }, ` · ${t('rated')}`) : null,
    g.tournament_id ? h('a', { href: `#/t/${g.tournament_id}`, class: 'tournament-tag' }, t('tournament_tag')) : null,
    mine ? h('span', { class: 'mine you-play' }, t('you_play')) : null);
}

let watchSeq = 0;
/** A page of the live games, from `cursor` (null: the first, which replaces the list). */
async function loadWatch(cursor) {
  const seq = ++watchSeq;
  const q = new URLSearchParams({ limit: '20' });
  if (S.watchVariant) q.set('variant', S.watchVariant);
  if (cursor) q.set('cursor', cursor);
  let json;
  try { ({ json } = await api('GET', `/games/live?${q}`)); } catch (e) { showError(e); return; }
  const list = $('#live-games');
  if (seq !== watchSeq || S.route.view !== 'watch' || !list) return;
  if (cursor) {
    // A game that moved since the first page may come again: it is listed once.
    const shown = new Set([...list.querySelectorAll('.live-row')].map((li) => li.dataset.game));
    list.append(...json.games.filter((g) => !shown.has(g.game_id)).map(liveRow));
    S.watchPages += 1;
  } else {
    list.replaceChildren(...(json.games.length ? json.games.map(liveRow) : [h('li', { class: 'muted' }, t('live_none'))]));
    S.watchPages = 1;
  }
  $('#live-more').replaceChildren(json.next_cursor
    ? h('button', { type: 'button', id: 'live-next', onclick: () => loadWatch(json.next_cursor) }, t('more')) : '');
}

// ---------------------------------------------------------------- history

async function loadHistory(id) {
  try {
    const [{ json: view }, { json: moves }] = await Promise.all([api('GET', `/games/${id}`), api('GET', `/games/${id}/moves`)]);
    S.game = view;
    $('#main').replaceChildren(h('section', { class: 'card', id: 'history' },
      h('h2', {}, `${t('history')}: ${variantName(view.variant)}`),
      h('p', {}, h('a', { href: `#/g/${id}` }, `← ${t('back')}`)),
      h('table', { class: 'history' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('move_no')), h('th', { scope: 'col' }, t('move')), h('th', { scope: 'col' }, t('score')))),
        h('tbody', {}, moves.moves.map((m) => h('tr', {}, h('td', {}, m.move_no + 1), h('td', {}, describeMove(m)), h('td', {}, m.score)))))));
  } catch (e) { showError(e); }
}

// ---------------------------------------------------------------- start

async function start() {
  renderHeader();
  if (!S.variants.size) {
    try {
      const { json } = await api('GET', '/variants');
      for (const v of json.variants) S.variants.set(v.id, v);
      S.families = json.families;
      // Each family's client module, as the server names it; each registers itself
      // (families.js). A family without one is refused where its game would be drawn.
      await Promise.all(json.families.map((f) => import(`./${f.module}`).catch(() => null)));
    } catch (e) { showError(e); return; }
  }
  push.closed = false;
  if (!push.ws) push.connect();
  S.route = null;
  show();
}

async function boot() {
  hooks.signOut = signOut;
  hooks.show = show;
  applyLanguage();
  $('#lang').addEventListener('change', (e) => {
    setLang(e.target.value);
    applyLanguage();
    renderHeader();
    if (!S.me) renderSignIn();
    else if (S.route.view === 'game' && S.game) renderGame();
    else { S.route = null; show(); }
  });
  $('#signout').addEventListener('click', () => signOut());
  // The skip link moves the focus, not the route (the fragment is the route).
  $('#skip').addEventListener('click', (e) => { e.preventDefault(); $('#main').focus(); });
  window.addEventListener('hashchange', show);
  try {
    S.config = (await api('GET', '/web/config.json')).json;
  } catch (e) { showError(e); return; }
  const params = new URLSearchParams(location.search);
  if (S.config.sign_in === 'hosted_ui' && params.has('code') && (await pkceFinish(params))) { start(); return; }
  const kept = sessionStorage.getItem(TOKEN_KEY);
  if (kept && adoptToken(kept)) { start(); return; }
  renderHeader();
  renderSignIn();
}

boot();
