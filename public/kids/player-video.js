// The player's own big controls (no native controls: they are small and allow skipping):
// play/pause, back 10 s, a position slider that cannot go past the furthest point watched
// when skip prevention is on, question marks on the track, and the watch-time clock.
import { ICONS_URL, formatTime, svgUse } from './common.js';

export function createVideoControls({ video, onBlockedSeek = () => {} }) {
  const toggle = /** @type {HTMLButtonElement} */ (document.getElementById('play-toggle'));
  const toggleIcon = document.getElementById('play-toggle-icon');
  const back10 = /** @type {HTMLButtonElement} */ (document.getElementById('back10'));
  const seek = /** @type {HTMLInputElement} */ (document.getElementById('seek'));
  const time = document.getElementById('time');
  const marks = document.getElementById('marks');
  const bigPlay = document.getElementById('big-play');

  let furthest = 0;
  let guard = true;
  let locked = false; // while a question is open
  let watchedMs = 0;
  let playingSince = null;
  let lastBlocked = 0;

  const duration = () => (Number.isFinite(video.duration) ? video.duration : 0);

  function render() {
    const d = duration();
    const t = video.currentTime || 0;
    seek.max = String(d || 100);
    seek.value = String(t);
    seek.setAttribute('aria-valuetext', `${formatTime(t)} of ${formatTime(d)}`);
    seek.style.setProperty('--played', `${d ? (t / d) * 100 : 0}%`);
    seek.style.setProperty('--reach', `${d ? (Math.max(furthest, t) / d) * 100 : 0}%`);
    time.textContent = formatTime(d ? d - t : 0);
    const playing = !video.paused && !video.ended;
    toggleIcon.setAttribute('href', `${ICONS_URL}#${playing ? 'ui-pause' : 'ui-play'}`);
    toggle.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  }

  function blocked() {
    const now = Date.now();
    seek.classList.add('is-blocked');
    setTimeout(() => seek.classList.remove('is-blocked'), 400);
    if (now - lastBlocked > 4000) onBlockedSeek();
    lastBlocked = now;
  }

  function seekTo(target) {
    let t = Math.max(0, Math.min(target, duration() || target));
    if (guard && t > furthest + 0.25) {
      t = furthest;
      blocked();
    }
    video.currentTime = t;
    render();
  }

  video.addEventListener('timeupdate', () => {
    if (!video.seeking) furthest = Math.max(furthest, video.currentTime);
    render();
  });
  // Anything else that moves the playhead (keyboard media keys, picture-in-picture) is held too.
  video.addEventListener('seeking', () => {
    if (guard && video.currentTime > furthest + 1) {
      video.currentTime = furthest;
      blocked();
    }
  });
  video.addEventListener('loadedmetadata', render);
  video.addEventListener('play', render);
  video.addEventListener('playing', () => {
    playingSince = performance.now();
    bigPlay.hidden = true;
  });
  const stopClock = () => {
    if (playingSince !== null) watchedMs += performance.now() - playingSince;
    playingSince = null;
    render();
  };
  video.addEventListener('pause', stopClock);
  video.addEventListener('waiting', stopClock);
  video.addEventListener('ended', stopClock);

  seek.addEventListener('input', () => {
    if (locked) {
      render();
      return;
    }
    seekTo(Number(seek.value));
  });
  back10.addEventListener('click', () => {
    if (!locked) seekTo((video.currentTime || 0) - 10);
  });

  return {
    toggle,
    bigPlay,
    render,
    seekTo,
    setGuard(on) {
      guard = Boolean(on);
    },
    get furthest() {
      return furthest;
    },
    setFurthest(t) {
      furthest = Math.max(furthest, t || 0);
      render();
    },
    /** Real time spent playing (not paused, not buffering), in ms. */
    watchedMs() {
      return watchedMs + (playingSince !== null ? performance.now() - playingSince : 0);
    },
    addWatchedMs(ms) {
      watchedMs += ms;
    },
    resetWatched() {
      watchedMs = 0;
      playingSince = !video.paused ? performance.now() : null;
    },
    lock(on) {
      locked = on;
      for (const el of [toggle, back10, seek]) el.disabled = on;
    },
    setMarks(segments) {
      const d = duration();
      marks.replaceChildren(
        ...segments.map((s, i) => {
          const m = document.createElement('span');
          m.dataset.index = String(i);
          m.style.left = `${d ? Math.min(100, (s.segment_range_end / d) * 100) : 0}%`;
          return m;
        }),
      );
    },
    markStatus(i, status) {
      const m = marks.querySelector(`[data-index="${i}"]`);
      if (!m) return;
      m.className = status ? `is-${status}` : '';
      m.replaceChildren();
      if (status === 'correct') m.append(svgUse('icon-star'));
    },
  };
}
