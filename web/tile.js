// The tile game: the board drawn from GET /variants' layout, the rack, placing tiles by
// click, drag or keyboard (and input methods), the live preview, hints, exchange; watched, the
// board, the tracking and the scoresheet only.

import { $, S, api, explain, h, showError, squareAt, squareName, status, t, uuid } from './core.js';
import { register } from './families.js';
import { confirmButton, hintControl, drawPanel, hintsList, myTurn, openPanel, renderGame, resign, resultPanel, scoresheet, seatName, showAnswer, spectating, submit } from './game.js';

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
      // A rack tile dropped on another takes its place.
      ondrop: (e) => { const d = e.dataTransfer.getData('text/plain'); if (d.startsWith('rack:')) { e.preventDefault(); e.stopPropagation(); moveInRack(Number(d.slice(5)), i); } },
      ondragover: (e) => e.preventDefault(),
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
      h('button', { type: 'button', id: 'shuffle', onclick: shuffle, title: 'Alt+S' }, t('shuffle')),
      h('button', { type: 'button', id: 'alphabetise', onclick: alphabetise, title: 'Alt+A' }, t('alphabetise')),
      h('button', { type: 'button', id: 'exchange', disabled: !canMove, onclick: () => { recallAll(false); S.exchange = new Set(); renderGame(); } }, t('exchange')),
      h('button', { type: 'button', id: 'pass', disabled: !canMove, onclick: () => submit({ kind: 'pass' }) }, t('pass')),
      ...hintControl(canMove),
      g.status === 'active' ? confirmButton('resign', t('resign'), t('confirm_resign'), resign) : null);
  }
  const panel = h('div', { class: 'panel' },
    drawPanel(), openPanel(), resultPanel(), challengePanel(canMove),
    g.status !== 'finished' && g.status !== 'withdrawn' ? h('p', { class: 'muted', id: 'bag' }, t('bag', { n: g.bag_size })) : null,
    tracking(),
    S.exchange ? h('p', {}, t('pick_tiles')) : null,
    h('p', { id: 'preview', 'aria-live': 'polite' }),
    hintsList(),
    g.status === 'open' || g.status === 'drawing' ? null : scoresheet());
  // A spectator has no rack, no controls and no keys: the board is only looked at.
  const over = g.status === 'finished' || g.status === 'withdrawn' || spectating();
  // The head (scores, whose turn, clocks, the last move) beside the board on a wide screen,
  // above it on a phone (app.css: the grid's areas).
  return h('div', { class: 'game tile-game' },
    h('div', { class: 'game-head' }, head),
    h('div', { class: 'game-board' }, h('div', { class: 'board-wrap' }, spectating() ? null : keys, board), legend, over ? null : rack, over ? null : controls, h('p', { class: 'muted', id: 'keys-help', hidden: over }, t('keyboard_help'))),
    panel);
}

/** Tile tracking: the tiles the player has not seen, the variant's full set less the board and
 * the player's own rack (nothing else is revealed), with their vowels, consonants and blanks;
 * for a spectator, who sees no rack, the full set less the board (the racks and the bag). */
function tracking() {
  const g = S.game;
  const watched = spectating();
  if (g.status !== 'active' || (!g.your_rack && !watched)) return null;
  const set = variantTiles();
  const left = new Map(set.letters.map((l) => [l.letter, l.count]));
  let blanks = set.blanks;
  const take = (letter, blank) => { if (blank) blanks -= 1; else left.set(letter, (left.get(letter) || 0) - 1); };
  for (const tile of g.board || []) take(tile.letter, tile.blank);
  for (const tile of g.your_rack || []) take(tile, tile === '?');
  let vowels = 0;
  let consonants = 0;
  for (const l of set.letters) { const n = Math.max(0, left.get(l.letter)); if (l.vowel) vowels += n; else consonants += n; }
  blanks = Math.max(0, blanks);
  const unseen = set.letters.filter((l) => left.get(l.letter) > 0)
    .map((l) => h('span', { class: 'unseen-tile', dataset: { letter: l.letter, n: left.get(l.letter) } }, l.letter, h('sub', {}, left.get(l.letter))));
  if (blanks) unseen.push(h('span', { class: 'unseen-tile', dataset: { letter: '?', n: blanks } }, '?', h('sub', {}, blanks)));
  return h('section', { class: 'card tracking', id: 'tracking', 'aria-label': t(watched ? 'not_on_board_label' : 'unseen_label') },
    h('p', { id: 'unseen-counts' }, t(watched ? 'not_on_board' : 'unseen', { n: vowels + consonants + blanks, v: vowels, c: consonants, b: blanks })),
    h('p', { class: 'unseen', id: 'unseen' }, unseen));
}

/** Under a challenge rule, the play the player may challenge (before moving), and after a play
 * that went out the acceptance that ends the game. */
function challengePanel(canMove) {
  const g = S.game;
  if (g.status !== 'active' || g.challengeable == null || !canMove) return null;
  const expected = g.move_count;
  const challenge = h('button', {
    type: 'button', class: 'danger', id: 'challenge',
    onclick: async (e) => {
      e.target.disabled = true;
      try { settle((await api('POST', `/games/${g.game_id}/challenge`, { expected_move_no: expected, client_move_id: uuid() })).json); } catch (err) { showError(err); e.target.disabled = false; }
    },
  }, t('challenge'));
  const box = h('section', { class: 'card', id: 'challenge-panel' },
    h('p', {}, g.end_pending ? t('end_pending', { name: seatName(g.challengeable) }) : t('may_challenge', { name: seatName(g.challengeable) })),
    h('div', { class: 'controls' }, challenge,
      g.end_pending ? h('button', { type: 'button', class: 'primary', id: 'accept-end', onclick: () => submit({ kind: 'accept' }) }, t('accept_end')) : null));
  return box;
}

/** Shows a challenge's answer: how it came out, then the game (and any robot's reply). */
function settle(answer) {
  const outcome = answer.moves[0];
  status(t(`challenge_${outcome.kind}`, { n: Math.abs(outcome.score) }), true);
  showAnswer(answer);
}

/** Puts a hint's tiles on the board, the rack's own tiles for its letters and blanks. */
function useHint(x) {
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
  if (spectating()) return;
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

/** The rack's order as the player left it, kept for this game and rack across refreshes. */
function keepOrder() {
  const g = S.game;
  try { localStorage.setItem(`rack:${g.game_id}`, JSON.stringify({ rack: g.your_rack.join(','), order: S.order })); } catch (e) { /* private mode */ }
}

/** The order kept for `view`'s rack, if the rack is the one it was kept for. */
function keptOrder(view) {
  try {
    const kept = JSON.parse(localStorage.getItem(`rack:${view.game_id}`) || 'null');
    const fits = kept && kept.rack === view.your_rack.join(',') && kept.order.length === view.your_rack.length
      && [...kept.order].sort((a, b) => a - b).every((x, i) => x === i);
    return fits ? kept.order : null;
  } catch (e) { return null; }
}

/** The rack in alphabetical order, blanks last (tiles on the board stay where they are). */
function alphabetise() {
  const rack = S.game.your_rack;
  const key = (i) => (rack[i] === '?' ? '\uffff' : rack[i]);
  S.order = [...S.order].sort((a, b) => key(a).localeCompare(key(b), undefined, { sensitivity: 'base' }) || a - b);
  keepOrder();
  renderGame();
}

/** Moves rack tile `i` to where rack tile `to` is (a drag onto it, or Alt+arrows by one). */
function moveInRack(i, to) {
  const from = S.order.indexOf(i);
  const at = S.order.indexOf(to);
  if (from < 0 || at < 0 || from === at) return;
  S.order.splice(from, 1);
  S.order.splice(at, 0, i);
  keepOrder();
  renderGame();
}

/** The rack's shortcuts, anywhere in a tile game: Alt+A alphabetises, Alt+S shuffles, Alt+←/→
 * moves the selected tile one place. */
document.addEventListener('keydown', (e) => {
  if (!e.altKey || !S.game || S.game.family !== 'tile' || !document.getElementById('rack')) return;
  const key = e.key.toLowerCase();
  if (e.code === 'KeyA' || key === 'a') { e.preventDefault(); alphabetise(); return; }
  if (e.code === 'KeyS' || key === 's') { e.preventDefault(); shuffle(); return; }
  if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && S.selected != null) {
    e.preventDefault();
    const at = S.order.indexOf(S.selected) + (e.key === 'ArrowLeft' ? -1 : 1);
    if (at >= 0 && at < S.order.length) moveInRack(S.selected, S.order[at]);
  }
});

function shuffle() {
  const free = S.order.filter((i) => !S.pending.some((p) => p.index === i));
  for (let k = free.length - 1; k > 0; k -= 1) {
    const j = Math.floor(Math.random() * (k + 1));
    [free[k], free[j]] = [free[j], free[k]];
  }
  const placed = S.order.filter((i) => S.pending.some((p) => p.index === i));
  S.order = free.concat(placed);
  keepOrder();
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
/** What the app can already tell is wrong with the placement, before asking the server: the
 * tiles not in one line, a gap in it, a first play off the start square or of one tile, or a
 * later one touching nothing on the board. The key of its message, or null (then the preview
 * asks the server, whose refusals are of words, which only it knows). */
function incomplete() {
  const board = new Set(S.game.board.map((x) => x.square));
  const at = S.pending.map((p) => squareAt(p.square));
  const across = at.every((q) => q.r === at[0].r);
  const down = at.every((q) => q.c === at[0].c);
  if (!across && !down) return 'placing_line';
  const line = across ? at.map((q) => q.c) : at.map((q) => q.r);
  const name = (i) => (across ? squareName(at[0].r, i) : squareName(i, at[0].c));
  const taken = new Set(S.pending.map((p) => p.square));
  for (let i = Math.min(...line); i <= Math.max(...line); i += 1) {
    if (!taken.has(name(i)) && !board.has(name(i))) return 'placing_gap';
  }
  if (!board.size) {
    if (!taken.has(variantTiles().start)) return 'placing_start';
    return S.pending.length < 2 ? 'placing_one' : null;
  }
  const near = ({ r, c }) => [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]
    .some(([y, x]) => y >= 0 && y < 15 && x >= 0 && x < 15 && board.has(squareName(y, x)));
  return at.some(near) ? null : 'placing_touch';
}

function schedulePreview() {
  clearTimeout(S.previewTimer);
  const el = $('#preview');
  if (!el) return;
  if (!S.pending.length || !myTurn()) { el.textContent = ''; el.className = ''; return; }
  // An incomplete placement is said at once, with no request (and so no refusal logged).
  const wrong = incomplete();
  if (wrong) { el.textContent = t(wrong); el.className = 'muted'; return; }
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

// ---------------------------------------------------------------- the analysis

/** A tile move as an analysis row names it: "8D QI. 22", "exchange 3", "pass". */
function namedMove(m) {
  if (m.kind === 'play') return `${m.coord} ${m.word} ${m.score}`;
  return m.kind === 'exchange' ? t('exchanged_n', { n: m.count }) : t('best_pass');
}

/** The last cell of a tile analysis row: the equity given away, or a plain note when the move
 * made held as much as the hard robot's suggestion or more (it chooses by simulation, so its
 * move can hold less static equity). An analysis without `played_as_good` shows a tick. */
function analysisNote(m) {
  if (m.equity_lost > 0) return h('td', { class: 'note lost' }, `−${m.equity_lost.toFixed(1)}`);
  if (m.played_as_good == null) return h('td', { class: 'note' }, '✓');
  return h('td', { class: 'note' }, t(m.played_equity > m.best_equity ? 'note_better' : 'note_as_good'));
}

/** A finished tile game's analysis: each move beside the hard robot's, each player's summary. */
function analysis(a) {
  const suggested = (m) => (m.suggested ? namedMove(m.suggested)
    : m.best_play ? `${m.best_play.coord} ${m.best_play.word} ${m.best_play.score}`
      : m.best_kind === 'exchange' ? t('best_exchange', { tiles: m.best_exchange.join(' ') }) : t('best_pass'));
  return {
    rows: a.moves.map((m) => h('tr', { dataset: { move: m.move_no, asGood: m.played_as_good === true } },
      h('td', {}, m.move_no + 1), h('td', {}, seatName(m.seat)),
      h('td', { class: 'played' }, m.played ? namedMove(m.played) : '—'), h('td', {}, m.played_equity.toFixed(1)),
      h('td', { class: 'suggested' }, suggested(m)),
      h('td', {}, m.best_equity.toFixed(1)), analysisNote(m))),
    head: [t('move_no'), t('player'), t('move_played'), t('equity'), t('best_move'), t('equity_best'), t('equity_lost')],
    summary: (p) => t('summary_tile', { n: p.moves, lost: p.mean_equity_lost == null ? '0' : p.mean_equity_lost.toFixed(1) }),
    help: t('analysis_tile_help'),
  };
}

register('tile', {
  render: tileGame,
  afterRender: schedulePreview,
  keptOrder,
  useHint,
  hintText: (x) => `${x.coord} ${x.word} · ${x.score}`,
  analysis,
  scoresheet: true,
});
