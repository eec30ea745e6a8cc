// Pick a friend: the companion says hello in its own voice, then the video grid opens with it.
import { api, initPage, rememberCompanion, rememberedCompanion, COMPANIONS } from './common.js';
import { speak, unlockAudio } from './speech.js';

const { sayInstruction } = initPage();
let childId = null;

init();

async function init() {
  try {
    const session = await api('/api/learners/session');
    childId = session.child ? String(session.child.child_id) : null;
  } catch {
    childId = null;
  }
  const last = childId && rememberedCompanion(childId);
  if (last) document.querySelector(`[data-pick="${last}"]`)?.classList.add('is-picked');
  sayInstruction();
}

let busy = false;
for (const btn of document.querySelectorAll('[data-pick]')) {
  btn.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    unlockAudio();
    const companion = btn.dataset.pick;
    if (!COMPANIONS.includes(companion)) return;
    document.querySelectorAll('[data-pick]').forEach((b) => b.classList.toggle('is-picked', b === btn));
    btn.querySelector('.companion')?.classList.add('is-happy');
    if (childId) rememberCompanion(childId, companion);
    await speak(btn.dataset.hello, { companion });
    location.assign(`/kids/videos?companion=${encodeURIComponent(companion)}`);
  });
}
