// /expert/edit/{video_id}: the review of a video's questions, part by part.
import { $, h, busy, toast } from './lib.js';
import { loadManifest } from './frames.js';
import * as edit from './edit-api.js';
import { SegmentEditor } from './edit-segment.js';

const page = $('#edit-page');
const videoId = page.dataset.videoId;
const list = $('#segments');
let editors = [];

function summarize() {
  const total = editors.length;
  const done = editors.filter((e) => e.seg.finalized).length;
  $('#edit-summary').textContent = total ? `${done} of ${total} parts finalized.` : 'No questions yet.';
}

async function load() {
  const [frames, segments] = await Promise.all([
    loadManifest(videoId).catch(() => []),
    edit.loadReview(videoId).catch((err) => {
      if (err.status === 404) return [];
      throw err;
    }),
  ]);
  if (segments.length === 0) {
    list.replaceChildren(h('p', { class: 'empty' }, 'This video has no questions yet. The admin generates them; come back when they are ready.'));
    editors = [];
    summarize();
    return;
  }
  editors = segments.map((seg) => new SegmentEditor({ videoId, seg, frames, onChange: summarize }));
  list.replaceChildren(...editors.map((e) => e.el));
  summarize();
}

$('#ai-provider').addEventListener('change', (ev) => edit.setProvider(ev.currentTarget.value));

$('#finalize-all').addEventListener('click', (ev) =>
  busy(ev.currentTarget, async () => {
    const open = editors.filter((e) => !e.seg.finalized && e.top);
    if (open.length === 0) return toast('Every part with a question is already finalized.');
    try {
      await edit.finalizeSegments(
        videoId,
        open.map((e) => e.seg),
        true,
      );
      await load();
      toast(`${open.length} part${open.length === 1 ? '' : 's'} finalized. Children now hear these questions.`);
    } catch (err) {
      toast(err.message, 'bad');
    }
  }),
);

load().catch((err) => {
  list.replaceChildren(h('p', { class: 'msg msg-bad', role: 'alert' }, err.message));
});

