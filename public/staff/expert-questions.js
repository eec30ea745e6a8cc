// /expert/questions: the expert's videos with their review state, linking to edit and preview.
import { api, h, $, listFrom, toast, formatSeconds } from './lib.js';

const tbody = $('#videos');

function state(v) {
  if (v.final_question_count > 0) return h('span', { class: 'badge badge-ok' }, `${v.final_question_count} finalized`);
  if (v.has_questions) return h('span', { class: 'badge badge-warn' }, `${v.question_count} to review`);
  return h('span', { class: 'badge' }, 'Not generated yet');
}

async function load() {
  const videos = listFrom(await api('GET', '/api/expert/videos'), 'videos');
  if (videos.length === 0) {
    tbody.replaceChildren(h('tr', {}, h('td', { colspan: 4, class: 'empty' }, 'No videos yet: claim one on “My videos”.')));
    return;
  }
  tbody.replaceChildren(
    ...videos.map((v) => {
      const id = encodeURIComponent(v.video_id);
      return h(
        'tr',
        {},
        h('td', {}, v.title || v.video_id),
        h('td', {}, v.duration_formatted || formatSeconds(v.duration_seconds)),
        h('td', {}, state(v)),
        h('td', {}, h('div', { class: 'row' }, h('a', { class: 'btn btn-small', href: `/expert/edit/${id}` }, 'Edit'), h('a', { class: 'btn btn-small btn-secondary', href: `/expert/preview/${id}` }, 'Preview'))),
      );
    }),
  );
}

load().catch((err) => toast(err.message, 'bad'));
