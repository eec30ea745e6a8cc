// /expert/preview/{id}: pick a companion and a mode, play the child player in preview mode, and
// see the questions the child will be served in that companion's wording.
import { api, h, $, listFrom, formatSeconds } from './lib.js';

const page = $('#preview-page');
const videoId = page.dataset.videoId;
const form = $('#preview-form');
const link = $('#play-link');

async function update() {
  const companion = form.elements.companion.value;
  const mode = form.elements.mode.value;
  const q = new URLSearchParams({ preview: '1', companion, mode });
  link.href = `/kids/play/${encodeURIComponent(videoId)}?${q}`;
  const note = $('#served-note');
  try {
    const data = await api('GET', `/api/final-questions/${encodeURIComponent(videoId)}?companion=${companion}`);
    const segments = listFrom(data, 'segments');
    if (data.success === false || segments.length === 0) {
      note.textContent = data.error || 'No finalized questions yet: finalize segments on the edit page first.';
      $('#served').replaceChildren();
      return;
    }
    note.textContent = `${segments.length} question${segments.length === 1 ? '' : 's'}, as the ${companion} asks them.`;
    $('#served').replaceChildren(
      ...segments.map((s) =>
        h('li', {}, h('span', { class: 'muted small' }, `${formatSeconds(s.segment_range_start)} – ${formatSeconds(s.segment_range_end)}: `), h('strong', {}, s.question), h('span', { class: 'muted' }, ` (answer: ${s.answer})`)),
      ),
    );
  } catch (err) {
    note.textContent = err.message;
  }
}

form.addEventListener('change', update);
form.addEventListener('submit', (e) => e.preventDefault());
update();
