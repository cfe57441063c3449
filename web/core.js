// The web app's core: small helpers, the interface's language, the one state object, the API
// client every screen uses, and navigation. It imports no screen: what the app's shell does on
// a signed-out answer and on navigation it hands in through `hooks` (app.js sets them).

import { STRINGS } from './i18n.js';

/** What the app's shell does for the screens: `signOut(message)` when the session is over,
 * `show()` to draw the current route again. */
export const hooks = { signOut: () => {}, show: () => {} };

// ---------------------------------------------------------------- small helpers

export const $ = (sel, root = document) => root.querySelector(sel);

/** An element with attributes (`on…` are listeners) and children (text is never parsed as HTML). */
export function h(tag, attrs = {}, ...children) {
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
export const squareName = (r, c) => `${COLUMNS[c]}${r + 1}`;
export const squareAt = (name) => ({ c: COLUMNS.indexOf(name[0]), r: Number(name.slice(1)) - 1 });

export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((n) => n.toString(16).padStart(2, '0')).join('');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The claims of a JWT (not verified: the server does that; the app only shows them). */
export function claimsOf(token) {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const text = new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0)));
    return JSON.parse(text);
  } catch { return null; }
}

// ---------------------------------------------------------------- language

const LANGS = ['en', 'ru', 'vi'];
export let lang = (() => {
  const saved = localStorage.getItem('wordgame.lang');
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return 'en';
})();

/** Chooses the interface's language (and keeps the choice). */
export function setLang(chosen) {
  lang = chosen;
  localStorage.setItem('wordgame.lang', lang);
}

/** The string `key` in the chosen language (English when missing), `{name}`s filled in. */
export function t(key, vars = {}) {
  const text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? ''));
}

export function applyLanguage() {
  document.documentElement.lang = lang;
  $('#lang').value = lang;
  $('#skip').textContent = t('skip');
  $('#lang-label').textContent = t('language');
  $('#signout').textContent = t('signout');
  $('#blank-title').textContent = t('blank_title');
  $('#blank-cancel').textContent = t('cancel');
}

// ---------------------------------------------------------------- state

export const S = {
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
  clockAt: 0, // when the game's view (and its clock) arrived, in the page's monotonic time
  flagSeen: null, // the clock whose fallen flag was acted on
  lobbyClock: '', // the lobby's time-control filter ('' for any)
  lobbyRated: '', // the lobby's rated filter ('', 'true', 'false')
  watchVariant: '', // the live games' variant filter ('' for any)
  watchPages: 0, // the pages of live games read (the poll refreshes only the first)
  spectating: null, // who may watch the player's games, as GET /me last said
  board: { variant: 'scrabble-en', speed: 'realtime' }, // the leaderboard shown
};

export function status(text, info = false) {
  const el = $('#status');
  el.textContent = text || '';
  el.className = info ? 'info' : '';
}

// ---------------------------------------------------------------- the API

export class ApiFailure extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status; this.code = code; this.details = details;
  }
}

/** How long one request waits, in all, for a server that cannot reach its database yet (a paused
 * database resumes in about 15 s): each `503` (nothing was written) is sent again after its
 * `Retry-After`, at most 5 s, while the status line says the server is waking up. */
export const WAKE_MS = 45000;

/** One request to the API; the parsed answer (null for 304), or an ApiFailure. */
export async function api(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers }, cache: 'no-store' };
  if (S.token) init.headers.authorization = `Bearer ${S.token}`;
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const began = Date.now();
  let res;
  let waking = false;
  for (;;) {
    try {
      res = await fetch(path, init);
    } catch (e) {
      throw new ApiFailure(0, 'network', t('network'));
    }
    if (res.status !== 503 || Date.now() - began >= WAKE_MS) break;
    waking = true;
    status(t('waking_up'), true);
    const after = Math.min(Math.max(Number(res.headers.get('retry-after')) || 1, 1), 5);
    await new Promise((resolve) => setTimeout(resolve, after * 1000));
  }
  if (waking) status('');
  if (res.status === 304) return { status: 304, json: null, etag: res.headers.get('etag') };
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = null; }
  if (!res.ok) {
    const err = json && json.error ? json.error : { code: String(res.status), message: text };
    if (res.status === 401 && S.token) hooks.signOut(t('session_over'));
    throw new ApiFailure(res.status, err.code, err.message, err.details);
  }
  return { status: res.status, json, etag: res.headers.get('etag') };
}

/** What went wrong, in the interface's language when it has words for the code (the server's
 * own message, in English, otherwise). */
export function explain(e) {
  if (!(e instanceof ApiFailure)) return String(e);
  const key = `err_${e.code}`;
  if (!(key in STRINGS[lang])) return e.message;
  const d = e.details || {};
  return t(key, { words: (d.words || []).join(', '), square: d.square, expected: d.expected, found: d.found, word: d.word, bag: d.bag, needed: d.needed });
}

export function showError(e) {
  status(e instanceof ApiFailure ? `${explain(e)} (${e.code})` : String(e));
}

// ---------------------------------------------------------------- navigation and shared pieces

/** Goes to `hash` (drawing it again when it is the current one). */
export function go(hash) {
  if (location.hash === hash) hooks.show(); else location.hash = hash;
}

/** A variant's name in the interface's language. */
export const variantName = (id) => t(`variant_${id}`);

/** The seats' names, comma separated. */
export const names = (seats) => seats.map((s) => s.display_name).join(', ');

/** A button that runs `run` once at a time (disabled while it runs, enabled again on failure). */
export function action(label, cls, run) {
  return h('button', { type: 'button', class: cls, onclick: async (e) => { e.target.disabled = true; try { await run(); } catch (err) { showError(err); e.target.disabled = false; } } }, label);
}

/** The challenge rules a tile game may be created with, void (the default) first. */
export const RULES = ['void', 'single', 'double', 'five_point', 'ten_point'];
