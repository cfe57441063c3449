  const steps = data.timeline.steps;
  const last = steps.length - 1;
  let step = 0;
  function tileCell(cell, letter, blank) {
    cell.classList.add('tile');
    const l = document.createElement('span');
    l.className = 'letter';
    l.textContent = blank ? letter.toLowerCase() : letter;
    if (blank) cell.classList.add('blank');
    cell.appendChild(l);
    const value = data.values[letter] || 0;
    if (!blank && value > 0) {
      const v = document.createElement('sub');
      v.textContent = value;
      cell.appendChild(v);
    }
  }
  function render() {
    document.querySelectorAll('td.sq').forEach(c => { c.textContent = ''; c.classList.remove('tile', 'new', 'blank'); });
    // The plays on the board at this step: a play challenged off comes off again.
    const plays = [];
    for (let k = 1; k <= step; k++) {
      const m = steps[k].move;
      if (m && m.kind === 'play') plays.push([k, m.tiles]);
      if (m && m.kind === 'challenged_off') plays.pop();
    }
    for (const [k, tiles] of plays) {
      for (const t of tiles) {
        const cell = document.getElementById('sq-' + t.square);
        tileCell(cell, t.letter, t.blank);
        if (k === step) cell.classList.add('new');
      }
    }
    const s = steps[step];
    for (const seat of data.seats) {
      const tiles = document.getElementById('tiles-' + seat.seat);
      tiles.textContent = '';
      for (const t of s.racks[seat.seat]) {
        const el = document.createElement('span');
        el.textContent = t;
        tiles.appendChild(el);
      }
      document.getElementById('score-' + seat.seat).textContent = s.scores[seat.seat];
      document.getElementById('rack-' + seat.seat).classList.toggle('to-move', s.to_move === seat.seat);
    }
    document.querySelectorAll('#log li').forEach((li, i) => {
      li.hidden = i + 1 > step;
      li.classList.toggle('current', i + 1 === step);
    });
    document.getElementById('step').textContent = step + ' / ' + last;
  }
