// Pick a friend: the companion says hello in its own voice, then the video grid opens with it.
import { api, initPage, rememberCompanion, rememberedCompanion, COMPANIONS } from './common.js';
import { speak, unlockAudio } from './speech.js';

const { sayInstruction } = initPage();
let childId = null;

init();

async function init() {
  try {
    const session = /** @type {KvqApi.Session} */ (await api('/api/learners/session'));
    childId = session.child ? String(session.child.child_id) : null;
  } catch {
    childId = null;
  }
  const last = childId && rememberedCompanion(childId);
  if (last) document.querySelector(`[data-pick="${last}"]`)?.classList.add('is-picked');
  sayInstruction();
}

let busy = false;
for (const btn of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('[data-pick]'))) {
  btn.addEventListener('click', async () => {
    const companion = btn.dataset.pick;
    // checked before taking `busy`: an unknown pick must not leave every button dead
    if (busy || !COMPANIONS.includes(companion)) return;
    busy = true;
    unlockAudio();
    document.querySelectorAll('[data-pick]').forEach((b) => b.classList.toggle('is-picked', b === btn));
    btn.querySelector('.companion')?.classList.add('is-happy');
    if (childId) rememberCompanion(childId, companion);
    await speak(btn.dataset.hello, { companion });
    location.assign(`/kids/videos?companion=${encodeURIComponent(companion)}`);
  });
}
