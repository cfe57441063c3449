  const steps = data.steps;
  const last = steps.length - 1;
  let step = 0;
  function render() {
    const s = steps[step];
    for (const seat of data.seats) {
      document.getElementById('score-' + seat.seat).textContent = s.scores[seat.seat];
      document.getElementById('player-' + seat.seat).classList.toggle('to-move', s.to_move === seat.seat);
    }
    document.getElementById('syllable').textContent = s.syllable;
    document.querySelectorAll('#log li').forEach((li, i) => {
      li.hidden = i + 1 > step;
      li.classList.toggle('current', i + 1 === step);
    });
    document.getElementById('step').textContent = step + ' / ' + last;
  }
