// wordgame's player web app: one ES module, no framework and no build step. It speaks only the
// public API (docs/API.md): the game view it renders, the moves it sends, previews, hints, the
// push socket (/ws) with the ETag poll as fallback. The server is the referee: nothing here
// knows a rule beyond drawing what the view and GET /variants say.

import { STRINGS } from './i18n.js';

// ---------------------------------------------------------------- small helpers

const $ = (sel, root = document) => root.querySelector(sel);

/** An element with attributes (`on…` are listeners) and children (text is never parsed as HTML). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c != null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

const COLUMNS = 'ABCDEFGHIJKLMNO';
const squareName = (r, c) => `${COLUMNS[c]}${r + 1}`;
const squareAt = (name) => ({ c: COLUMNS.indexOf(name[0]), r: Number(name.slice(1)) - 1 });
const NIL = '00000000-0000-0000-0000-000000000000';

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((n) => n.toString(16).padStart(2, '0')).join('');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The claims of a JWT (not verified: the server does that; the app only shows them). */
function claimsOf(token) {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const text = new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0)));
    return JSON.parse(text);
  } catch { return null; }
}

// ---------------------------------------------------------------- language

const LANGS = ['en', 'ru', 'vi'];
let lang = (() => {
  const saved = localStorage.getItem('wordgame.lang');
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return 'en';
})();

/** The string `key` in the chosen language (English when missing), `{name}`s filled in. */
function t(key, vars = {}) {
  const text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? ''));
}

function applyLanguage() {
  document.documentElement.lang = lang;
  $('#lang').value = lang;
  $('#skip').textContent = t('skip');
  $('#lang-label').textContent = t('language');
  $('#signout').textContent = t('signout');
  $('#blank-title').textContent = t('blank_title');
  $('#blank-cancel').textContent = t('cancel');
}

// ---------------------------------------------------------------- state

const S = {
  config: null,
  token: null,
  me: null, // { id, name }
  variants: new Map(),
  route: null,
  game: null,
  etag: null,
  pending: [], // [{ square, letter, blank, index }]
  selected: null, // rack index
  order: [], // the rack's display order (indices into your_rack)
  exchange: null, // Set of marked rack indices while exchanging
  cursor: { square: 'H8', dir: 'across' },
  hints: null,
  revealing: false,
  confirming: null,
  previewSeq: 0,
  previewTimer: null,
  word: '',
};

function status(text, info = false) {
  const el = $('#status');
  el.textContent = text || '';
  el.className = info ? 'info' : '';
}

// ---------------------------------------------------------------- the API

class ApiFailure extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status; this.code = code; this.details = details;
  }
}

/** One request to the API; the parsed answer (null for 304), or an ApiFailure. */
async function api(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers }, cache: 'no-store' };
  if (S.token) init.headers.authorization = `Bearer ${S.token}`;
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiFailure(0, 'network', t('network'));
  }
  if (res.status === 304) return { status: 304, json: null, etag: res.headers.get('etag') };
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!res.ok) {
    const err = json && json.error ? json.error : { code: String(res.status), message: text };
    if (res.status === 401 && S.token) signOut(t('session_over'));
    throw new ApiFailure(res.status, err.code, err.message, err.details);
  }
  return { status: res.status, json, etag: res.headers.get('etag') };
}

/** What went wrong, in the interface's language when it has words for the code (the server's
 * own message, in English, otherwise). */
function explain(e) {
  if (!(e instanceof ApiFailure)) return String(e);
  const key = `err_${e.code}`;
  if (!(key in STRINGS[lang])) return e.message;
  const d = e.details || {};
  return t(key, { words: (d.words || []).join(', '), square: d.square, expected: d.expected, found: d.found, word: d.word, bag: d.bag, needed: d.needed });
}

function showError(e) {
  status(e instanceof ApiFailure ? `${explain(e)} (${e.code})` : String(e));
}

// ---------------------------------------------------------------- sign-in

const TOKEN_KEY = 'wordgame.token';

function adoptToken(token) {
  const claims = claimsOf(token);
  if (!claims || !claims.sub || (claims.exp && claims.exp * 1000 < Date.now())) return false;
  S.token = token;
  S.me = { id: claims.sub, name: claims.name || claims.preferred_username || claims['cognito:username'] || 'Player' };
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

// Every 3 s: without a live socket, the game is polled (ETag, so mostly 304) and the lobby
// every 15 s; with one, a slow safety poll every 60 s.
let ticks = 0;
setInterval(() => {
  if (!S.me || document.hidden) return;
  ticks += 1;
  // Accepting an invitation is not pushed (only moves and invitations are): an open game is
  // polled as if there were no socket.
  const every = push.live && !(S.game && S.game.status === 'open') ? 20 : 1;
  if (S.route && S.route.view === 'game' && ticks % every === 0) refreshGame();
  if (S.route && S.route.view === 'lobby' && ticks % (push.live ? 20 : 5) === 0) loadLobby();
}, 3000);

// ---------------------------------------------------------------- routing

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'g' && parts[1]) return { view: parts[2] === 'history' ? 'history' : 'game', id: parts[1] };
  return { view: 'lobby' };
}

function go(hash) {
  if (location.hash === hash) show(); else location.hash = hash;
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
  else { push.watch([]); loadHistory(route.id); }
}

function resetGameState() {
  Object.assign(S, { game: null, etag: null, pending: [], selected: null, order: [], exchange: null, hints: null, revealing: false, confirming: null, word: '' });
  S.cursor = { square: 'H8', dir: 'across' };
}

// ---------------------------------------------------------------- the lobby

const variantName = (id) => t(`variant_${id}`);
const others = (seats) => seats.filter((s) => s.account_id !== S.me.id);
const names = (seats) => seats.map((s) => s.display_name).join(', ');

function renderLobbyShell() {
  const variantOptions = [...S.variants.keys()].map((id) => h('option', { value: id }, variantName(id)));
  const friend = h('input', { type: 'text', id: 'friend-id', autocomplete: 'off', spellcheck: 'false', placeholder: '00000000-…', 'aria-describedby': 'friend-help' });
  const friendLabel = h('label', { id: 'friend-field', hidden: true }, t('friend_id'), friend);
  const opponent = h('select', { id: 'opponent', onchange: () => { friendLabel.hidden = opponent.value !== 'friend'; } },
    ['easy', 'medium', 'hard'].map((l) => h('option', { value: l }, t(`robot_${l}`))),
    h('option', { value: 'friend' }, t('friend')));
  const clock = h('select', { id: 'clock' },
    [['', t('no_clock')], ['60', t('minutes', { n: 1 })], ['300', t('minutes', { n: 5 })], ['86400', t('days', { n: 1 })]].map(([v, l]) => h('option', { value: v }, l)));
  const variant = h('select', { id: 'variant' }, variantOptions);
  const form = h('form', {
    id: 'new-game',
    onsubmit: async (e) => {
      e.preventDefault();
      const body = { variant: variant.value };
      if (clock.value) body.turn_seconds = Number(clock.value);
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
    h('label', {}, t('clock'), clock)),
  h('p', { class: 'row' },
    h('button', { type: 'submit', class: 'primary', id: 'create' }, t('create')),
    h('button', {
      type: 'button', id: 'open-game',
      onclick: async () => {
        const body = { variant: variant.value };
        if (clock.value) body.turn_seconds = Number(clock.value);
        try { const { json } = await api('POST', '/games/open', body); go(`#/g/${json.game_id}`); } catch (err) { showError(err); }
      },
    }, t('open_game'))));
  $('#main').replaceChildren(
    h('section', { class: 'card', id: 'account' },
      h('p', {}, t('your_id'), ' ', h('code', { class: 'id', id: 'my-id' }, S.me.id), ' ',
        h('button', { type: 'button', id: 'copy-id', onclick: async (e) => { try { await navigator.clipboard.writeText(S.me.id); e.target.textContent = t('copied'); } catch { /* no clipboard: the id is on screen */ } } }, t('copy')))),
    h('section', { class: 'card', 'aria-labelledby': 'inv-title' }, h('h2', { id: 'inv-title' }, t('invitations')), h('ul', { class: 'list', id: 'invitations' })),
    h('section', { class: 'card', 'aria-labelledby': 'mine-title' }, h('h2', { id: 'mine-title' }, t('my_games')), h('ul', { class: 'list', id: 'my-games' })),
    h('section', { class: 'card', 'aria-labelledby': 'new-title' }, h('h2', { id: 'new-title' }, t('new_game')), form),
    h('section', { class: 'card', 'aria-labelledby': 'lobby-title' }, h('h2', { id: 'lobby-title' }, t('lobby')), h('ul', { class: 'list', id: 'lobby' })),
    h('section', { class: 'card', 'aria-labelledby': 'done-title' }, h('h2', { id: 'done-title' }, t('finished')), h('ul', { class: 'list', id: 'finished' })),
  );
}

function action(label, cls, run) {
  return h('button', { type: 'button', class: cls, onclick: async (e) => { e.target.disabled = true; try { await run(); } catch (err) { showError(err); e.target.disabled = false; } } }, label);
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
      api('GET', '/games?status=finished&limit=10'), api('GET', '/games/open?limit=20'),
    ]);
  } catch (e) { showError(e); return; }
  if (seq !== lobbySeq || S.route.view !== 'lobby' || !$('#invitations')) return;
  const inv = [];
  for (const g of open.json.games) {
    const rest = others(g.seats);
    const link = h('a', { href: `#/g/${g.game_id}`, class: 'open-link' }, variantName(g.variant));
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
      h('a', { href: `#/g/${g.game_id}`, class: 'open-link' }, `${variantName(g.variant)} ${t('vs')} ${names(others(g.seats))}`),
      h('span', { class: g.your_turn ? 'turn mine' : 'turn muted' }, g.your_turn ? t('your_turn') : t('their_turn', { name: mover ? mover.display_name : '' })),
      h('span', { class: 'muted' }, scoresLine(g.seats)));
  });
  $('#my-games').replaceChildren(...(rows.length ? rows : [h('li', { class: 'muted' }, t('no_games'))]));
  const offers = lobby.json.games.map((g) => h('li', { class: 'open-row', dataset: { game: g.game_id } },
    h('span', {}, t('opened_by', { variant: variantName(g.variant), name: g.opener_name })),
    action(t('join'), 'primary join', async () => { await api('POST', `/games/${g.game_id}/join`); go(`#/g/${g.game_id}`); })));
  $('#lobby').replaceChildren(...(offers.length ? offers : [h('li', { class: 'muted' }, t('nobody_waiting'))]));
  const finished = done.json.games.map((g) => h('li', { class: 'finished-row', dataset: { game: g.game_id } },
    h('a', { href: `#/g/${g.game_id}`, class: 'open-link' }, `${variantName(g.variant)} ${t('vs')} ${names(others(g.seats))}`),
    h('span', { class: 'muted' }, scoresLine(g.seats))));
  $('#finished').replaceChildren(...(finished.length ? finished : [h('li', { class: 'muted' }, t('no_games'))]));
  push.watch(active.json.games.map((g) => g.game_id));
}

// ---------------------------------------------------------------- a game

async function loadGame(id) {
  $('#main').replaceChildren(h('p', { class: 'muted' }, '…'));
  try {
    const { json, etag } = await api('GET', `/games/${id}`);
    S.etag = etag;
    setGame(json);
  } catch (e) { showError(e); }
}

let refreshing = false;
async function refreshGame() {
  if (!S.game || S.revealing || refreshing) return;
  refreshing = true;
  const id = S.game.game_id;
  try {
    const res = await api('GET', `/games/${id}`, undefined, S.etag ? { 'if-none-match': S.etag } : {});
    if (res.status !== 304 && S.game && S.game.game_id === id && !S.revealing) {
      S.etag = res.etag;
      if (JSON.stringify(res.json) !== JSON.stringify(S.game)) setGame(res.json);
    }
  } catch (e) { if (e.code !== 'network') showError(e); } finally { refreshing = false; }
}

/** Shows `view`: a new move clears what the player was composing; the same move keeps it. */
function setGame(view) {
  const before = S.game;
  if (!before || before.move_count !== view.move_count || before.status !== view.status) {
    S.pending = []; S.selected = null; S.exchange = null; S.hints = null; S.confirming = null;
    S.word = '';
  }
  if (view.your_rack) {
    const same = before && before.your_rack && before.your_rack.join() === view.your_rack.join() && S.order.length === view.your_rack.length;
    if (!same) S.order = view.your_rack.map((_, i) => i);
  }
  S.game = view;
  renderGame();
}

const mySeat = () => S.game.your_seat;
const myTurn = () => {
  const g = S.game;
  if (g.to_move !== g.your_seat || S.revealing) return false;
  if (g.status === 'active') return true;
  // An open game nobody was invited to: its opener may lead while waiting.
  return g.status === 'open' && !g.seats.some((s) => s.invited);
};
const seatName = (seat) => {
  const s = S.game.seats.find((x) => x.seat === seat);
  if (!s) return '';
  return s.seat === mySeat() ? `${s.display_name} (${t('you')})` : s.display_name;
};

function describeMove(m) {
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
    case 'word': return t('moved_word', { name, word: m.word, score: m.score });
    default: return `${name}: ${m.kind}`;
  }
}

function renderSeats() {
  const g = S.game;
  return h('ul', { class: 'seats', id: 'scores', 'aria-label': t('scores') }, g.seats.map((s) => h('li', {
    class: s.seat === g.to_move ? 'to-move' : '', dataset: { seat: s.seat },
  }, seatName(s.seat), s.invited ? ` (${t('invited')})` : '', h('span', { class: 'score' }, s.score),
  g.family === 'tile' && g.status !== 'finished' ? h('span', { class: 'muted' }, ` · ${s.rack_size}`) : null)));
}

function turnLine() {
  const g = S.game;
  if (g.status === 'finished') return h('p', { id: 'turn' }, t('game_over'));
  if (g.status === 'withdrawn') return h('p', { id: 'turn' }, t('withdrawn'));
  const text = g.to_move === g.your_seat ? t('turn_mine') : t('turn_of', { name: seatName(g.to_move) });
  return h('p', { id: 'turn', class: g.to_move === g.your_seat ? 'mine' : '' }, text,
    g.turn_deadline ? h('span', { class: 'muted' }, ` · ${t('deadline', { time: new Date(g.turn_deadline).toLocaleString(lang) })}`) : null);
}

/** An open game's state: invitations to answer or wait on, or a seat nobody took yet. */
function openPanel() {
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

function resultPanel() {
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
      action(t('rematch'), 'rematch', async () => { const { json } = await api('POST', `/games/${g.game_id}/rematch`); go(`#/g/${json.game_id}`); })));
}

function renderGame() {
  const g = S.game;
  const focusId = document.activeElement && document.activeElement.id;
  const head = h('div', {},
    h('h2', {}, variantName(g.variant), ' ', h('a', { href: '#/', class: 'muted' }, `← ${t('lobby_link')}`)),
    renderSeats(), turnLine(),
    g.last_move ? h('p', { class: 'muted', id: 'last-move' }, t('last_move', { what: describeMove(g.last_move) })) : null,
    h('p', { id: 'thinking', 'aria-live': 'polite' }, S.revealing ? t('thinking', { name: seatName(g.to_move) }) : ''));
  const body = g.family === 'tile' ? tileGame(head) : chainGame(head);
  $('#main').replaceChildren(body);
  if (focusId && document.getElementById(focusId)) document.getElementById(focusId).focus({ preventScroll: true });
  // A control that is disabled now (the move just sent) cannot keep the focus: the game keeps it.
  if (focusId && document.activeElement === document.body) $('#main').focus({ preventScroll: true });
  if (g.family === 'tile') schedulePreview();
}

// ---------------------------------------------------------------- moves

async function submit(move) {
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

/** An answer with moves: the player's own at once, the robots' after their `thinking_ms`. */
function reveal(answer, mine) {
  const g = S.game;
  const own = answer.moves.filter((m) => m.seat === g.your_seat);
  const robots = answer.moves.filter((m) => m.seat !== g.your_seat);
  if (!robots.length || !answer.thinking_ms) { setGame(answer.game); return; }
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
      setGame(answer.game);
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

function confirmButton(id, label, question, run) {
  if (S.confirming === id) {
    return h('span', { class: 'row', id: `${id}-confirm` }, h('span', {}, question),
      h('button', { type: 'button', class: 'danger', id: `${id}-yes`, onclick: () => { S.confirming = null; run(); } }, t('yes')),
      h('button', { type: 'button', id: `${id}-no`, onclick: () => { S.confirming = null; renderGame(); } }, t('no')));
  }
  return h('button', { type: 'button', class: 'danger', id, onclick: () => { S.confirming = id; renderGame(); $(`#${id}-no`).focus(); } }, label);
}

async function resign() {
  const g = S.game;
  try { reveal((await api('POST', `/games/${g.game_id}/resign`)).json, 1); } catch (e) { showError(e); }
}

// ---------------------------------------------------------------- the tile game

const variantTiles = () => S.variants.get(S.game.variant).tiles;
const valueOf = (letter) => {
  const l = variantTiles().letters.find((x) => x.letter === letter);
  return l ? l.value : 0;
};

function tileEl(letter, blank, extra = {}) {
  return h('span', { class: `tile${blank ? ' blank' : ''}${extra.cls ? ` ${extra.cls}` : ''}`, ...extra.attrs },
    h('span', { class: 'letter' }, blank ? letter.toLowerCase() : letter),
    !blank && letter !== '?' ? h('span', { class: 'value', 'aria-hidden': 'true' }, valueOf(letter)) : null);
}

function boardMap() {
  const map = new Map();
  for (const tile of S.game.board) map.set(tile.square, { ...tile, placed: true });
  for (const p of S.pending) map.set(p.square, { ...p, pending: true });
  return map;
}

function lastSquares() {
  const m = S.game.last_move;
  return new Set(m && m.kind === 'play' ? m.tiles.map((x) => x.square) : []);
}

function tileGame(head) {
  const g = S.game;
  const set = variantTiles();
  const tiles = boardMap();
  const last = lastSquares();
  const canMove = myTurn();
  const board = h('div', { id: 'board', role: 'grid', 'aria-label': t('board_label'), 'aria-describedby': 'keys-help' });
  // The keyboard's way onto the board: a text field over it takes the letters (typed, from an
  // input method or a phone's keyboard, which send no usable key events) and the moving keys.
  const keys = h('input', {
    id: 'board-keys', class: 'board-keys', type: 'text', autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false',
    'aria-label': t('board_keys', { square: S.cursor.square, dir: t(S.cursor.dir) }), 'aria-describedby': 'keys-help',
    'aria-activedescendant': `sq-${S.cursor.square}`, disabled: !canMove,
    onkeydown: boardKey, oninput: boardText, oncompositionend: boardText,
  });
  for (let r = 0; r < 15; r += 1) {
    const row = h('div', { role: 'row', style: null });
    row.style.display = 'contents';
    for (let c = 0; c < 15; c += 1) {
      const name = squareName(r, c);
      const premium = set.premiums[r * 15 + c];
      const tile = tiles.get(name);
      const isStart = name === set.start;
      const classes = ['sq', premium, isStart ? 'start' : '', canMove && name === S.cursor.square ? `cursor ${S.cursor.dir}` : ''].filter(Boolean).join(' ');
      const label = tile ? `${name} ${tile.blank ? `${tile.letter.toLowerCase()} (${t('blank')})` : tile.letter}`
        : `${name}${premium ? ` ${t(`legend_${premium}`)}` : ''}${isStart ? ` ${t('start')}` : ''}`;
      const cell = h('div', { class: classes, id: `sq-${name}`, role: 'gridcell', 'aria-label': label, dataset: { square: name }, onclick: () => squareClick(name) });
      if (premium && !tile) cell.append(h('span', { class: 'premium', 'aria-hidden': 'true' }, t(`premium_${premium}`)));
      if (tile) {
        const el = tileEl(tile.letter, tile.blank, { cls: `${tile.pending ? 'pending' : ''}${last.has(name) ? ' last' : ''}` });
        if (tile.pending) {
          el.draggable = true;
          el.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', `sq:${name}`));
        }
        cell.append(el);
      } else {
        cell.addEventListener('dragover', (e) => { e.preventDefault(); cell.classList.add('drop'); });
        cell.addEventListener('dragleave', () => cell.classList.remove('drop'));
        cell.addEventListener('drop', (e) => { e.preventDefault(); dropOn(name, e.dataTransfer.getData('text/plain')); });
      }
      row.append(cell);
    }
    board.append(row);
  }
  const legend = h('p', { class: 'legend', 'aria-hidden': 'true' },
    ['tw', 'dw', 'tl', 'dl'].filter((p) => set.premiums.includes(p)).map((p) => h('span', { class: p }, t(`legend_${p}`))),
    h('span', {}, `★ ${set.start} ${t('start')}${set.premiums[7 * 15 + 7] ? '' : ` (${t('plain')})`}`));

  const used = new Set(S.pending.map((p) => p.index));
  const rack = h('div', {
    id: 'rack', role: 'group', 'aria-label': t('rack_label'),
    ondragover: (e) => e.preventDefault(),
    ondrop: (e) => { e.preventDefault(); const d = e.dataTransfer.getData('text/plain'); if (d.startsWith('sq:')) recall(d.slice(3)); },
  });
  for (const i of S.order) {
    const letter = (g.your_rack || [])[i];
    if (letter === undefined) continue;
    const blank = letter === '?';
    const marked = S.exchange && S.exchange.has(i);
    const el = h('button', {
      type: 'button', id: `rack-${i}`, class: `tile${blank ? ' blank' : ''}${S.selected === i ? ' selected' : ''}${used.has(i) ? ' used' : ''}${marked ? ' marked' : ''}`,
      dataset: { index: i, letter }, draggable: canMove && !S.exchange ? 'true' : null, disabled: !canMove || used.has(i),
      'aria-pressed': S.exchange ? String(!!marked) : String(S.selected === i),
      'aria-label': blank ? t('blank') : `${letter} ${valueOf(letter)}`,
      onclick: () => rackClick(i),
      ondragstart: (e) => e.dataTransfer.setData('text/plain', `rack:${i}`),
    }, h('span', { class: 'letter' }, blank ? '' : letter), blank ? null : h('span', { class: 'value', 'aria-hidden': 'true' }, valueOf(letter)));
    rack.append(el);
  }

  const controls = h('div', { class: 'controls' });
  if (S.exchange) {
    controls.append(
      h('button', { type: 'button', class: 'primary', id: 'exchange-confirm', disabled: !S.exchange.size, onclick: doExchange }, t('exchange_n', { n: S.exchange.size })),
      h('button', { type: 'button', id: 'exchange-cancel', onclick: () => { S.exchange = null; renderGame(); } }, t('cancel')));
  } else if (g.status === 'active' || g.status === 'open') {
    controls.append(
      h('button', { type: 'button', class: 'primary', id: 'play', disabled: !canMove || !S.pending.length, onclick: playTiles }, t('play')),
      h('button', { type: 'button', id: 'recall', disabled: !S.pending.length, onclick: () => recallAll() }, t('recall')),
      h('button', { type: 'button', id: 'shuffle', onclick: shuffle }, t('shuffle')),
      h('button', { type: 'button', id: 'exchange', disabled: !canMove, onclick: () => { recallAll(false); S.exchange = new Set(); renderGame(); } }, t('exchange')),
      h('button', { type: 'button', id: 'pass', disabled: !canMove, onclick: () => submit({ kind: 'pass' }) }, t('pass')),
      h('button', { type: 'button', id: 'hint', disabled: !canMove, onclick: loadHints }, t('hint')),
      g.status === 'active' ? confirmButton('resign', t('resign'), t('confirm_resign'), resign) : null);
  }
  const panel = h('div', { class: 'panel' },
    head, openPanel(), resultPanel(),
    g.status !== 'finished' && g.status !== 'withdrawn' ? h('p', { class: 'muted', id: 'bag' }, t('bag', { n: g.bag_size })) : null,
    S.exchange ? h('p', {}, t('pick_tiles')) : null,
    h('p', { id: 'preview', 'aria-live': 'polite' }),
    hintsList());
  const over = g.status === 'finished' || g.status === 'withdrawn';
  return h('div', { class: 'game tile-game' },
    h('div', {}, h('div', { class: 'board-wrap' }, keys, board), legend, over ? null : rack, over ? null : controls, h('p', { class: 'muted', id: 'keys-help', hidden: over }, t('keyboard_help'))),
    panel);
}

function hintsList() {
  if (!S.hints) return null;
  if (!S.hints.length) return h('p', { id: 'hints' }, t('no_hints'));
  return h('section', { 'aria-labelledby': 'hints-title' }, h('h2', { id: 'hints-title' }, t('hints')),
    h('ol', { class: 'list', id: 'hints' }, S.hints.map((x, i) => h('li', {},
      S.game.family === 'tile' ? `${x.coord} ${x.word} · ${x.score}` : `${x.word} · ${x.score}`,
      h('button', { type: 'button', class: 'use-hint', dataset: { hint: i }, onclick: () => useHint(x) }, t('use'))))));
}

async function loadHints() {
  try {
    const { json } = await api('GET', `/games/${S.game.game_id}/hint?limit=5`);
    S.hints = json.hints;
    renderGame();
  } catch (e) { showError(e); }
}

function useHint(x) {
  if (S.game.family === 'chain') {
    S.word = x.word;
    renderGame();
    chainPreview();
    return;
  }
  recallAll(false);
  const taken = new Set();
  for (const p of x.placements) {
    const want = p.blank ? '?' : p.letter;
    const index = S.order.find((i) => !taken.has(i) && S.game.your_rack[i] === want);
    if (index === undefined) continue;
    taken.add(index);
    S.pending.push({ square: p.square, letter: p.letter, blank: !!p.blank, index });
  }
  renderGame();
}

function rackClick(i) {
  if (S.exchange) {
    if (S.exchange.has(i)) S.exchange.delete(i); else S.exchange.add(i);
    renderGame();
    return;
  }
  S.selected = S.selected === i ? null : i;
  renderGame();
}

function squareClick(name) {
  const g = S.game;
  if (S.pending.some((p) => p.square === name)) { recall(name); return; }
  if (g.board.some((x) => x.square === name)) return;
  if (S.selected != null && myTurn()) {
    const i = S.selected;
    S.selected = null;
    place(i, name);
    return;
  }
  S.cursor.square = name;
  renderGame();
  focusBoard();
}

function dropOn(name, data) {
  if (!myTurn()) return;
  if (data.startsWith('rack:')) place(Number(data.slice(5)), name);
  else if (data.startsWith('sq:')) {
    const p = S.pending.find((x) => x.square === data.slice(3));
    if (p) { p.square = name; renderGame(); }
  }
}

/** Puts rack tile `i` on `square`; a blank first asks which letter it is. */
function place(i, square, letter) {
  const tile = S.game.your_rack[i];
  if (tile === undefined || S.pending.some((p) => p.index === i)) return;
  if (tile === '?' && !letter) {
    askBlank((chosen) => { if (chosen) place(i, square, chosen); });
    return;
  }
  S.pending.push({ square, letter: tile === '?' ? letter : tile, blank: tile === '?', index: i });
  S.hints = null;
  renderGame();
}

function askBlank(done) {
  const dialog = $('#blank-dialog');
  const letters = $('#blank-letters');
  letters.replaceChildren(...variantTiles().letters.map((l) => h('button', {
    type: 'button', dataset: { letter: l.letter }, onclick: () => { dialog.close(); done(l.letter); },
  }, l.letter)));
  $('#blank-cancel').onclick = () => { dialog.close(); done(null); };
  dialog.showModal();
  letters.firstChild.focus();
}

function recall(square) {
  S.pending = S.pending.filter((p) => p.square !== square);
  renderGame();
}

function recallAll(render = true) {
  S.pending = []; S.selected = null;
  if (render) renderGame();
}

function shuffle() {
  const free = S.order.filter((i) => !S.pending.some((p) => p.index === i));
  for (let k = free.length - 1; k > 0; k -= 1) {
    const j = Math.floor(Math.random() * (k + 1));
    [free[k], free[j]] = [free[j], free[k]];
  }
  const placed = S.order.filter((i) => S.pending.some((p) => p.index === i));
  S.order = free.concat(placed);
  renderGame();
}

function placements() {
  return S.pending.map((p) => ({ square: p.square, letter: p.letter, blank: p.blank }));
}

function playTiles() {
  if (!S.pending.length) return;
  submit({ kind: 'play', placements: placements() });
}

function doExchange() {
  const tiles = [...S.exchange].map((i) => (S.game.your_rack[i] === '?' ? 'blank' : { letter: S.game.your_rack[i] }));
  S.exchange = null;
  submit({ kind: 'exchange', tiles });
}

/** The live score of the tiles placed so far (POST preview), a moment after the last change. */
function schedulePreview() {
  clearTimeout(S.previewTimer);
  const el = $('#preview');
  if (!el) return;
  if (!S.pending.length || !myTurn()) { el.textContent = ''; el.className = ''; return; }
  const key = JSON.stringify(placements());
  if (S.previewShown && S.previewShown.key === key) { el.textContent = S.previewShown.text; el.className = S.previewShown.cls; return; }
  S.previewTimer = setTimeout(async () => {
    const seq = ++S.previewSeq;
    const g = S.game;
    let text, cls = '';
    try {
      const { json } = await api('POST', `/games/${g.game_id}/preview`, { move: { kind: 'play', placements: placements() } });
      const words = (json.score.words || []).map((w) => `${w.word} ${w.score}`).join(', ');
      text = `${t('preview_score', { total: json.score.total })} · ${words}${json.score.bingo ? ` · ${t('bingo', { n: json.score.bingo })}` : ''}`;
    } catch (e) {
      text = explain(e);
      cls = 'bad';
    }
    if (seq !== S.previewSeq || JSON.stringify(placements()) !== key) return;
    S.previewShown = { key, text, cls };
    const now = $('#preview');
    if (now) { now.textContent = text; now.className = cls; }
  }, 150);
}

function focusBoard() {
  const keys = $('#board-keys');
  if (keys && !keys.disabled) keys.focus({ preventScroll: true });
}

/** The board's keys: arrows move, Space turns, Backspace takes back, Enter plays, Escape
 * recalls everything; letters arrive as text ([`boardText`]). IME composition is left alone. */
function boardKey(e) {
  if (e.isComposing || e.key === 'Process' || e.keyCode === 229) return;
  const { r, c } = squareAt(S.cursor.square);
  const move = (dr, dc) => {
    const nr = Math.min(14, Math.max(0, r + dr)), nc = Math.min(14, Math.max(0, c + dc));
    S.cursor.square = squareName(nr, nc);
    renderGame(); focusBoard();
  };
  switch (e.key) {
    case 'ArrowUp': e.preventDefault(); move(-1, 0); return;
    case 'ArrowDown': e.preventDefault(); move(1, 0); return;
    case 'ArrowLeft': e.preventDefault(); move(0, -1); return;
    case 'ArrowRight': e.preventDefault(); move(0, 1); return;
    case ' ': e.preventDefault(); S.cursor.dir = S.cursor.dir === 'across' ? 'down' : 'across'; renderGame(); focusBoard(); return;
    case 'Enter': e.preventDefault(); playTiles(); return;
    case 'Escape': e.preventDefault(); recallAll(); focusBoard(); return;
    case 'Backspace': case 'Delete': {
      e.preventDefault();
      const here = S.pending.find((p) => p.square === S.cursor.square) || S.pending[S.pending.length - 1];
      if (here) { S.cursor.square = here.square; recall(here.square); focusBoard(); }
      return;
    }
    default: break;
  }
}

/** Letters typed on the board, once any composition is done: each goes down at the cursor. */
function boardText(e) {
  if (e.isComposing) return;
  const text = e.target.value;
  e.target.value = '';
  if (!myTurn()) return;
  for (const ch of text) placeTyped(ch);
  renderGame();
  focusBoard();
}

/** Puts the rack tile of letter `ch` (else a blank as it) at the cursor and moves the cursor on
 * along its direction, over the tiles already there. */
function placeTyped(ch) {
  let letter = ch.toUpperCase();
  const alphabet = variantTiles().letters.map((l) => l.letter);
  if (!alphabet.includes(letter) && letter === 'Ё' && alphabet.includes('Е')) letter = 'Е';
  if (!alphabet.includes(letter)) return;
  if (boardMap().has(S.cursor.square)) return;
  const free = S.order.filter((i) => !S.pending.some((p) => p.index === i));
  const exact = free.find((i) => S.game.your_rack[i] === letter);
  const blank = free.find((i) => S.game.your_rack[i] === '?');
  const index = exact !== undefined ? exact : blank;
  if (index === undefined) return;
  const square = S.cursor.square;
  S.pending.push({ square, letter, blank: exact === undefined, index });
  // On along the direction, over the tiles already there.
  const taken = boardMap();
  let { r: nr, c: nc } = squareAt(square);
  do {
    if (S.cursor.dir === 'across') nc += 1; else nr += 1;
  } while (nr < 15 && nc < 15 && taken.has(squareName(nr, nc)));
  if (nr < 15 && nc < 15) S.cursor.square = squareName(nr, nc);
}

// ---------------------------------------------------------------- the chain game

function chainGame(head) {
  const g = S.game;
  const canMove = myTurn();
  const words = [g.opening, ...g.chain.map((l) => l.word)];
  const chain = h('ol', { id: 'chain', 'aria-label': t('chain') },
    h('li', { class: 'opening' }, h('span', {}, g.opening), h('span', { class: 'muted' }, t('chain_opening'))),
    g.chain.map((l) => h('li', { dataset: { move: l.move_no } }, h('span', { class: 'word' }, l.word), h('span', { class: 'muted' }, `${seatName(l.seat)} · ${l.points}`))));
  const input = h('input', {
    type: 'text', id: 'word', lang: 'vi', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', disabled: !canMove,
    'aria-describedby': 'syllable-line preview',
    oninput: (e) => { S.word = e.target.value; if (!e.isComposing) chainPreviewSoon(); },
    oncompositionend: (e) => { S.word = e.target.value; chainPreviewSoon(); },
    onkeydown: (e) => { if (e.key === 'Enter' && !e.isComposing && e.keyCode !== 229) { e.preventDefault(); playWord(); } },
  });
  input.value = S.word;
  const form = h('div', { class: 'card' },
    h('p', { id: 'syllable-line' }, `${t('continue_with')}: `, h('span', { id: 'syllable' }, g.syllable)),
    h('label', { for: 'word' }, t('your_word')), input,
    h('p', { id: 'preview', 'aria-live': 'polite' }),
    g.status === 'active' || g.status === 'open' ? h('div', { class: 'controls' },
      h('button', { type: 'button', class: 'primary', id: 'play-word', disabled: !canMove, onclick: playWord }, t('word_play')),
      h('button', { type: 'button', id: 'hint', disabled: !canMove, onclick: loadHints }, t('hint')),
      g.status === 'active' ? confirmButton('resign', t('resign'), t('confirm_resign'), resign) : null) : null,
    hintsList());
  const used = h('p', { id: 'used-words' }, t('used_words', { n: words.length }), ': ', words.join(', '));
  setTimeout(() => { if (S.word) chainPreviewSoon(); }, 0);
  return h('div', { class: 'game chain-game' },
    h('div', {}, head, openPanel(), resultPanel(), chain),
    h('div', {}, g.status === 'finished' || g.status === 'withdrawn' ? null : form, used));
}

let chainTimer = null;
function chainPreviewSoon() {
  clearTimeout(chainTimer);
  chainTimer = setTimeout(chainPreview, 200);
}

async function chainPreview() {
  const el = $('#preview');
  const word = S.word.trim();
  if (!el) return;
  if (!word || !myTurn()) { el.textContent = ''; return; }
  const seq = ++S.previewSeq;
  let text, cls = '';
  try {
    const { json } = await api('POST', `/games/${S.game.game_id}/preview`, { move: { kind: 'word', word } });
    text = `${json.score.word} · ${t('preview_score', { total: json.score.total })}`;
  } catch (e) {
    text = explain(e);
    cls = 'bad';
  }
  const now = $('#preview');
  if (seq !== S.previewSeq || !now || S.word.trim() !== word) return;
  now.textContent = text;
  now.className = cls;
}

function playWord() {
  const word = S.word.trim();
  if (!word || !myTurn()) return;
  submit({ kind: 'word', word });
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
    } catch (e) { showError(e); return; }
  }
  push.closed = false;
  if (!push.ws) push.connect();
  S.route = null;
  show();
}

async function boot() {
  applyLanguage();
  $('#lang').addEventListener('change', (e) => {
    lang = e.target.value;
    localStorage.setItem('wordgame.lang', lang);
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
