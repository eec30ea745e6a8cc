// /expert: my videos (edit, preview, unclaim) and videos available to claim.
import { api, h, $, listFrom, actionButton, toast, formatSeconds } from './lib.js';

const mine = $('#my-videos');
const available = $('#available-videos');

const idOf = (v) => v.video_id;

function card(v, actions, note) {
  const id = idOf(v);
  const thumb = v.thumbnail;
  return h(
    'article',
    { class: 'video-card', dataset: { videoId: id } },
    thumb ? h('img', { src: thumb, alt: '', loading: 'lazy' }) : h('div', { class: 'thumb', 'aria-hidden': 'true' }),
    h(
      'div',
      { class: 'body' },
      h('h3', {}, v.title || id),
      h('span', { class: 'muted small' }, [formatSeconds(v.duration_seconds ?? v.duration), note].filter(Boolean).join(' · ')),
      h('div', { class: 'row' }, actions),
    ),
  );
}

function stateNote(v) {
  if (v.final_question_count > 0) return `${v.final_question_count} question${v.final_question_count === 1 ? '' : 's'} finalized`;
  if (v.has_questions) return 'questions to review';
  return 'no questions yet';
}

async function load() {
  const [m, a] = await Promise.all([api('GET', '/api/expert/videos'), api('GET', '/api/expert/videos/available')]);
  const my = listFrom(m, 'videos');
  // a video already in my list (assigned to me) needs no claim
  const av = listFrom(a, 'videos').filter((v) => !my.some((m) => m.video_id === v.video_id));
  mine.replaceChildren(
    ...(my.length
      ? my.map((v) => {
          const id = encodeURIComponent(idOf(v));
          const claimed = v.claimed_by_me === true;
          return card(
            v,
            [
              h('a', { class: 'btn btn-small', href: `/expert/edit/${id}` }, 'Edit questions'),
              h('a', { class: 'btn btn-small btn-secondary', href: `/expert/preview/${id}` }, 'Preview'),
              claimed &&
                actionButton('Unclaim', async () => {
                  const r = await api('DELETE', `/api/expert/videos/${id}/unclaim`);
                  toast(r.message || 'Video released.');
                  await load();
                }, { cls: 'btn btn-small btn-quiet', confirmText: 'Give this video back so another expert can claim it?' }),
            ],
            stateNote(v),
          );
        })
      : [h('p', { class: 'empty' }, 'No videos yet. Claim one below, or ask the admin to assign one to you.')]),
  );
  available.replaceChildren(
    ...(av.length
      ? av.map((v) =>
          card(v, [
            actionButton('Claim', async () => {
              const r = await api('POST', `/api/expert/videos/${encodeURIComponent(idOf(v))}/claim`);
              toast(r.message || `You claimed “${v.title || idOf(v)}”.`);
              await load();
            }, { cls: 'btn btn-small' }),
          ]),
        )
      : [h('p', { class: 'empty' }, 'Nothing to claim right now.')]),
  );
}

load().catch((err) => toast(err.message, 'bad'));
