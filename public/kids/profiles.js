// Who is watching? One big picture per child of the family; a tap picks the profile.
import { api, announce, initPage, iconHref, svgUse, showError } from './common.js';
import { speak, stopSpeaking, ttsIdle, unlockAudio } from './speech.js';

const list = document.getElementById('profiles');
const empty = document.getElementById('profiles-empty');
const error = document.getElementById('profiles-error');

const { sayInstruction } = initPage();
sayInstruction();
load();

/** How long a grown-up holds "Another family" before the tablet logs out (a child's tap does nothing). */
const HOLD_MS = 2000;
holdToLogout(document.getElementById('logout'));

function holdToLogout(btn) {
  let timer = null;
  const start = (e) => {
    if (timer) return;
    e.preventDefault();
    unlockAudio();
    btn.classList.add('is-holding');
    timer = setTimeout(logout, HOLD_MS);
  };
  const cancel = () => {
    if (!timer) return;
    clearTimeout(timer);
    timer = null;
    btn.classList.remove('is-holding');
    // let go too early: say what a grown-up has to do
    speak(btn.dataset.holdText || '');
    announce(btn.dataset.holdText || '');
  };
  btn.addEventListener('pointerdown', start);
  btn.addEventListener('pointerup', cancel);
  btn.addEventListener('pointerleave', cancel);
  btn.addEventListener('pointercancel', cancel);
  btn.addEventListener('contextmenu', (e) => e.preventDefault());
  btn.addEventListener('keydown', (e) => {
    if ((e.key === 'Enter' || e.key === ' ') && !e.repeat) start(e);
  });
  btn.addEventListener('keyup', (e) => {
    if (e.key === 'Enter' || e.key === ' ') cancel();
  });
  // a plain click (the keyboard's, a screen reader's) never logs out on its own
  btn.addEventListener('click', (e) => e.preventDefault());
}

async function logout() {
  stopSpeaking();
  await ttsIdle();
  try {
    await api('/api/learners/logout', { method: 'POST', redirectOn401: false });
  } finally {
    location.assign('/kids');
  }
}

async function load() {
  try {
    const session = /** @type {KvqApi.Session} */ (await api('/api/learners/session'));
    const children = Array.isArray(session.children) ? session.children : [];
    list.replaceChildren(...children.map(card));
    empty.hidden = children.length > 0;
  } catch {
    showError(error, 'Could not load the children.');
  } finally {
    list.setAttribute('aria-busy', 'false');
  }
}

function card(child) {
  const li = document.createElement('li');
  const btn = document.createElement('button');
  btn.type = 'button';
  btn.className = 'kcard kcard-profile';
  btn.dataset.childId = child.child_id;
  const name = [child.first_name].filter(Boolean).join(' ');
  btn.setAttribute('aria-label', name || 'Child');
  btn.append(svgUse(iconHref(child.icon_key), 'kicon'));
  const label = document.createElement('span');
  label.className = 'kcard-name';
  label.textContent = name;
  label.setAttribute('aria-hidden', 'true');
  btn.append(label);
  btn.addEventListener('click', () => pick(btn, child));
  li.append(btn);
  return li;
}

async function pick(btn, child) {
  unlockAudio();
  btn.classList.add('is-picked');
  stopSpeaking();
  await ttsIdle();
  try {
    await api('/api/learners/session/child', { method: 'POST', json: { child_id: child.child_id } });
    location.assign('/kids/companion');
  } catch {
    btn.classList.remove('is-picked');
    error.textContent = 'Could not pick this profile. Try again.';
  }
}
