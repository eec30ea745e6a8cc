// Shared helpers for the kids pages: JSON API calls, the page's spoken instruction,
// live-region announcements, profile pictures and the remembered companion.
import { speak, unlockAudio } from './speech.js';
import { COMPANIONS } from './kids-data.js';

export { KIDS, COMPANIONS, companionProfile } from './kids-data.js';

/** Mirrors ICON_KEYS in src/accounts/icons.ts; an unknown key shows the star. */
export const ICON_KEYS = ['star', 'bunny', 'pig', 'alligator', 'cat', 'dog', 'bear', 'fox',
  'owl', 'fish', 'rocket', 'flower', 'sun', 'moon', 'car', 'ball'];
// relative to this module, so it stays under the same versioned /static/<hash>/ folder
export const ICONS_URL = new URL('./icons.svg', import.meta.url).pathname;

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.message || body.error)) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * fetch + JSON. `json` sends a JSON body, `form` a FormData. A 401 on a kids page means the
 * session ended (logged out elsewhere, expired): go back to the login page.
 * @param {string} path
 * @param {{ method?: string, json?: unknown, form?: FormData, redirectOn401?: boolean, signal?: AbortSignal }} [options]
 */
export async function api(path, { method = 'GET', json, form, redirectOn401 = true, signal } = {}) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' }, signal };
  if (json !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (form) {
    init.body = form;
  }
  const res = await fetch(path, init);
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (res.status === 401 && redirectOn401) {
    location.assign('/kids');
    throw new ApiError(401, body);
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

export function iconHref(key) {
  return `${ICONS_URL}#icon-${ICON_KEYS.includes(key) ? key : 'star'}`;
}

/** An <svg><use/></svg> for a sprite symbol (profile picture or control). */
export function svgUse(id, className = '') {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  if (className) svg.setAttribute('class', className);
  const use = document.createElementNS(ns, 'use');
  use.setAttribute('href', id.startsWith('/') ? id : `${ICONS_URL}#${id}`);
  svg.append(use);
  return svg;
}

/** Polite screen-reader announcement (the page's live region). */
export function announce(text) {
  const live = document.getElementById('kids-live');
  if (!live) return;
  live.textContent = '';
  // a fresh text node after a tick makes screen readers repeat identical messages
  setTimeout(() => { live.textContent = text; }, 30);
}

/** The companion a child picked last on this tablet (per child), or null. */
export function rememberedCompanion(childId) {
  try {
    const v = localStorage.getItem(`kids.companion.${childId}`);
    return COMPANIONS.includes(v) ? v : null;
  } catch {
    return null;
  }
}

export function rememberCompanion(childId, companion) {
  try {
    localStorage.setItem(`kids.companion.${childId}`, companion);
  } catch {
    // private mode: the query string still carries it
  }
}

/** Shows only the wanted companion among the server-rendered ones inside root. */
export function showCompanion(root, companion) {
  for (const el of root.querySelectorAll('.companion[data-companion]')) {
    el.hidden = el.dataset.companion !== companion;
  }
}

export function companionEls(companion) {
  return [...document.querySelectorAll(`.companion[data-companion="${companion}"]`)];
}

/**
 * Wires the "say it again" button and speaks the page's instruction once. Browsers refuse sound
 * before the first touch, so when the first try is refused it is spoken on the first tap instead.
 */
export function initPage({ companion = null } = {}) {
  const text = document.body.dataset.instruction || '';
  const btn = document.querySelector('[data-say]');
  const sayIt = async () => {
    if (!text) return;
    btn?.classList.add('is-speaking');
    try {
      await speak(text, { companion });
    } finally {
      btn?.classList.remove('is-speaking');
    }
  };
  btn?.addEventListener('click', () => {
    unlockAudio();
    sayIt();
  });
  const onFirstTap = () => unlockAudio();
  document.addEventListener('pointerdown', onFirstTap, { once: true, capture: true });
  return { sayInstruction: sayIt };
}

export function childIdFrom(session) {
  return session && session.child ? String(session.child.child_id) : null;
}

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds || 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The browser URL of a video's file (video or thumbnail) from a listing field: URLs pass through;
 * a file-system path (local_path is where the file lives on the server) maps to the media route
 * /media/videos/{video_id}/{file name}.
 */
export function mediaUrl(videoId, value) {
  if (!value) return '';
  const v = String(value);
  if (/^(https?:|data:|blob:)/i.test(v) || /^\/(media|static|api|videos|sample)\//.test(v)) return v;
  const name = v.split(/[\\/]/).pop();
  return `/media/videos/${encodeURIComponent(videoId)}/${encodeURIComponent(name)}`;
}

/** Shows a (grown-up readable) error with a big "try again" button that reloads the page. */
export function showError(el, text) {
  el.textContent = text;
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'kbtn kbtn-round';
  retry.setAttribute('aria-label', 'Try again');
  retry.append(svgUse('ui-replay'));
  retry.addEventListener('click', () => location.reload());
  el.append(retry);
}

/**
 * The pages' buttons are sent `disabled data-needs-script`: tapped before the page's script had
 * wired them, they would do nothing (or send the family code in the URL). Every module script of a
 * page has run before DOMContentLoaded, so that is when they become usable.
 */
function enableScriptControls() {
  for (const el of document.querySelectorAll('[data-needs-script]')) {
    el.removeAttribute('data-needs-script');
    /** @type {HTMLButtonElement} */ (el).disabled = false;
  }
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', enableScriptControls);
  else enableScriptControls();
}
