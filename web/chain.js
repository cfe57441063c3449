// The chain game (Nối từ): the chain, the syllable to continue, the word box with its live
// preview (input methods' compositions awaited), the used words.

import { $, S, api, explain, h, t } from './core.js';
import { register } from './families.js';
import { confirmButton, hintControl, hintsList, myTurn, openPanel, renderGame, resign, resultPanel, seatName, spectating, submit } from './game.js';

// ---------------------------------------------------------------- the chain game

function chainGame(head) {
  const g = S.game;
  const canMove = myTurn();
  const words = [g.opening, ...g.chain.map((l) => l.word)];
  const chain = h('ol', { id: 'chain', 'aria-label': t('chain') },
    h('li', { class: 'opening' }, h('span', {}, g.opening), h('span', { class: 'muted' }, t('chain_opening'))),
    g.chain.map((l) => l.opens_round
      ? h('li', { class: 'opening round', dataset: { move: l.move_no } }, h('span', {}, l.word), h('span', { class: 'muted' }, t('chain_round', { name: seatName(l.seat) })))
      : h('li', { dataset: { move: l.move_no } }, h('span', { class: 'word' }, l.word), h('span', { class: 'muted' }, `${seatName(l.seat)} · ${l.points}`))));
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
      ...hintControl(canMove),
      g.status === 'active' ? confirmButton('resign', t('resign'), t('confirm_resign'), resign) : null) : null,
    hintsList());
  const used = h('p', { id: 'used-words' }, t('used_words', { n: words.length }), ': ', words.join(', '));
  const over = g.status === 'finished' || g.status === 'withdrawn';
  // A spectator sees the syllable to continue with, and no word box and no control.
  const watched = h('div', { class: 'card' }, h('p', { id: 'syllable-line' }, `${t('continue_with')}: `, h('span', { id: 'syllable' }, g.syllable)));
  if (!spectating()) setTimeout(() => { if (S.word) chainPreviewSoon(); }, 0);
  return h('div', { class: 'game chain-game' },
    h('div', {}, head, openPanel(), resultPanel(), chain),
    h('div', {}, over ? null : spectating() ? watched : form, used));
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

/** Puts a hinted word in the box and previews it. */
function useWord(x) {
  S.word = x.word;
  renderGame();
  chainPreview();
}

/** A finished chain game's analysis: each word beside a winning word where one existed, each
 * player's summary. */
function analysis(a) {
  return {
    rows: a.words.map((w) => h('tr', { dataset: { move: w.move_no } },
      h('td', {}, w.move_no + 1), h('td', {}, seatName(w.seat)), h('td', {}, w.word),
      h('td', {}, w.wins ? t('word_wins') : w.winning_word ? t('winning_word', { word: w.winning_word }) : '—'))),
    head: [t('move_no'), t('player'), t('move'), t('winning')],
    summary: (p) => t('summary_chain', { n: p.moves, missed: p.missed_wins }),
    help: t('analysis_chain_help'),
  };
}

register('chain', {
  render: chainGame,
  afterRender: () => {},
  keptOrder: () => null,
  useHint: useWord,
  hintText: (x) => `${x.word} · ${x.score}`,
  analysis,
  scoresheet: false,
});
