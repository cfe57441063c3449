// Time controls in the web app: the controls the new-game form offers, a control's short label,
// and a game's running clocks. The clock is the server's: a view's `clock` holds every seat's
// time as of the server's `now`, and the display runs from it by this page's own monotonic
// time since the view arrived (never by the device's wall clock, which may be off).

import { S, api, h, showError, t } from './core.js';
import { familyInfo } from './families.js';

/** `seconds` as a short span: "5 min", "1 day", "30 s", "1 h 30 min". */
export function span(seconds) {
  const parts = [];
  let rest = seconds;
  for (const [unit, size] of [['dur_d', 86400], ['dur_h', 3600], ['dur_min', 60], ['dur_s', 1]]) {
    const n = Math.floor(rest / size);
    if (n) parts.push(t(unit, { n }));
    rest -= n * size;
  }
  return parts.length ? parts.join(' ') : t('dur_s', { n: 0 });
}

/** A time control's label: "5 min + 5 s", "25 min · 1 min overtime", "15 s a word", "1 day a move". */
export function label(tc) {
  if (!tc || tc.kind === 'none') return t('tc_none');
  if (tc.kind === 'realtime' && tc.initial_seconds != null) {
    const base = tc.increment_seconds ? t('tc_increment', { main: span(tc.initial_seconds), inc: span(tc.increment_seconds) }) : span(tc.initial_seconds);
    return tc.max_overtime_minutes ? t('tc_overtime', { main: base, over: span(tc.max_overtime_minutes * 60) }) : base;
  }
  if (tc.kind === 'realtime') return t('tc_turn_timer', { per: span(tc.turn_seconds) });
  const per = t('tc_per_move', { per: span(tc.turn_seconds) });
  return tc.bank_seconds ? t('tc_bank', { main: per, bank: span(tc.bank_seconds) }) : per;
}

/** Whether a control is real time (a running clock worth a second's display). */
export const isRealtime = (tc) => !!tc && tc.kind === 'realtime';

/** `ms` as a clock face: "4:59", "1:02:03", "2 d 3 h"; a minus sign in overtime. */
export function face(ms) {
  const sign = ms < 0 ? '−' : '';
  const total = ms < 0 ? Math.ceil(-ms / 1000) : Math.ceil(ms / 1000);
  const d = Math.floor(total / 86400), hours = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60), s = total % 60;
  if (d) return `${sign}${t('dur_d', { n: d })} ${t('dur_h', { n: hours })}`;
  const mm = hours ? String(m).padStart(2, '0') : String(m);
  return `${sign}${hours ? `${hours}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** One seat's time now: the view's clock run on by the time since it arrived. */
export function seatTime(g, seat) {
  const c = g.clock;
  const running = c.running === seat && g.status !== 'finished';
  const elapsed = running ? Math.max(0, performance.now() - S.clockAt) : 0;
  const tc = g.time_control;
  const s = c.seats[seat];
  let remaining = s.remaining_ms - elapsed;
  let bank = s.bank_ms;
  if (tc.kind === 'correspondence' && remaining < 0) {
    bank = Math.max(0, bank + remaining);
    remaining = 0;
  }
  const overtime = tc.kind === 'realtime' && tc.initial_seconds != null && remaining < 0;
  const lost = g.status === 'finished' && g.result && g.result.reason === 'timeout' && g.result.seat === seat;
  const flagged = lost || (running && c.flag_at != null && Date.parse(c.flag_at) - Date.parse(c.now) - elapsed <= 0);
  const penalty = overtime ? 10 * Math.ceil(-remaining / 60000) : 0;
  return { running, remaining, bank, overtime, flagged, penalty };
}

/** A seat's clock, drawn by [`tick`] (an empty span for an untimed game). */
export function seatClock(seat, name) {
  const g = S.game;
  if (!g.clock) return null;
  return h('span', { class: clockClass(seat), id: `clock-${seat}`, dataset: { seat }, role: 'timer', 'aria-label': t('clock_of', { name }) }, drawClock(seat));
}

function drawClock(seat) {
  const g = S.game;
  const x = seatTime(g, seat);
  const tc = g.time_control;
  const parts = [h('span', { class: 'face' }, x.flagged ? t('flag_fell') : face(x.remaining))];
  if (x.overtime && !x.flagged) parts.push(h('span', { class: 'penalty' }, ` ${t('overtime_penalty', { n: x.penalty })}`));
  if (tc.kind === 'correspondence' && tc.bank_seconds) parts.push(h('span', { class: 'bank' }, ` ${t('bank_left', { time: face(x.bank) })}`));
  return parts;
}

/** The class list of a seat's clock: running, low (under ten seconds in real time), overtime, flag. */
function clockClass(seat) {
  const x = seatTime(S.game, seat);
  const low = x.running && isRealtime(S.game.time_control) && x.remaining < 10000 && !x.overtime;
  return ['clock', x.running && 'running', low && 'low', x.overtime && 'overtime', x.flagged && 'flagged'].filter(Boolean).join(' ');
}

/** Redraws every seat's clock; once the running seat's time is out, calls `flagged` once (the
 * game is read again, which records a fall, or a claim is offered). */
export function tick(flagged) {
  const g = S.game;
  if (!g || !g.clock || !document.getElementById('scores')) return;
  for (const seat of g.clock.seats.keys()) {
    const el = document.getElementById(`clock-${seat}`);
    if (!el) continue;
    el.className = clockClass(seat);
    el.replaceChildren(...drawClock(seat));
  }
  const running = g.clock.running;
  if (running == null || g.status !== 'active' || !seatTime(g, running).flagged) return;
  if (S.flagSeen !== g.clock.now) {
    S.flagSeen = g.clock.now;
    flagged();
  }
}

/** Whether the player may claim the running seat's lapsed turn (a correspondence tile game, whose
 * lapse costs only the turn and is recorded by a claim or the sweep). */
export function claimable() {
  const g = S.game;
  if (!g || g.spectator || !g.clock || g.status !== 'active' || familyInfo(g.family).clocks !== 'game_clock' || g.time_control.kind !== 'correspondence') return false;
  const running = g.clock.running;
  return running != null && running !== g.your_seat && seatTime(g, running).flagged;
}

/** The claim's button: `POST /games/{id}/timeout`, then `done` with the answer. */
export function claimButton(done) {
  return h('button', {
    type: 'button', id: 'claim', class: 'danger',
    onclick: async (e) => {
      e.target.disabled = true;
      try { done((await api('POST', `/games/${S.game.game_id}/timeout`)).json); } catch (err) { showError(err); e.target.disabled = false; }
    },
  }, t('claim_timeout'));
}
