  // The replay pages' stepper: buttons and keys move `step` within 0..=last and call render().
  function go(to) { step = Math.max(0, Math.min(last, to)); render(); }
  document.getElementById('first').onclick = () => go(0);
  document.getElementById('prev').onclick = () => go(step - 1);
  document.getElementById('next').onclick = () => go(step + 1);
  document.getElementById('last').onclick = () => go(last);
  document.addEventListener('keydown', e => {
    if (e.key === 'ArrowLeft') go(step - 1);
    else if (e.key === 'ArrowRight') go(step + 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(last);
  });
  render();
