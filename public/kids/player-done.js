// The end of a video: stars (pictures, not numbers) and two big buttons: more videos, watch again.
import { svgUse, iconHref } from './common.js';

/** 3 stars from 80 %, 2 from 50 %, else 1; a video with no questions (passive) earns 3 for watching. */
export function starsFor(percentage) {
  if (percentage === undefined || percentage === null) return 3;
  if (percentage >= 80) return 3;
  if (percentage >= 50) return 2;
  return 1;
}

export function finishScreen({ companion, attempt, saved, preview, onAgain }) {
  const done = document.getElementById('done');
  const starsEl = document.getElementById('done-stars');
  const note = document.getElementById('done-note');
  const again = document.getElementById('done-again');
  const home = document.getElementById('done-home');

  const stars = starsFor(attempt.percentage);
  starsEl.replaceChildren(...[1, 2, 3].map((n) => svgUse(iconHref('star'), n <= stars ? '' : 'dim')));
  starsEl.setAttribute('aria-label', `${stars} of 3 stars`);
  starsEl.dataset.stars = String(stars);
  note.textContent = preview
    ? `Preview: ${attempt.details.length} questions, ${attempt.percentage ?? '–'}% (not saved).`
    : saved === 'yes'
      ? ''
      : 'The score could not be saved. Please tell a grown-up.';
  if (preview) home.hidden = true;
  /** @type {NodeListOf<HTMLElement>} */ (done.querySelectorAll('.companion')).forEach((c) => {
    c.hidden = c.dataset.companion !== companion;
    c.classList.add('is-happy');
  });
  done.hidden = false;
  again.onclick = () => {
    done.hidden = true;
    onAgain();
  };
  (preview ? again : home).focus();
}
