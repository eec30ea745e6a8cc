// Who is watching? One big picture per child of the family; a tap picks the profile.
import { api, initPage, iconHref, svgUse, showError } from './common.js';
import { stopSpeaking, ttsIdle, unlockAudio } from './speech.js';

const list = document.getElementById('profiles');
const empty = document.getElementById('profiles-empty');
const error = document.getElementById('profiles-error');

const { sayInstruction } = initPage();
sayInstruction();
load();

document.getElementById('logout').addEventListener('click', async () => {
  stopSpeaking();
  await ttsIdle();
  try {
    await api('/api/learners/logout', { method: 'POST', redirectOn401: false });
  } finally {
    location.assign('/kids');
  }
});

async function load() {
  try {
    const session = await api('/api/learners/session');
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
