// /admin: download a video by link; the library with frames/questions state and quick actions.
import { api, bindForm, h, $, listFrom, actionButton, toast, formatSeconds } from './lib.js';
import { downloadResultView, loadAssignments, whoHas } from './admin-common.js';
import { activeJobs, downloadResultOfJob, jobPanel, startJob, watchJob } from './admin-jobs.js';

const form = $('#download-form');
const result = $('#download-result');
const tbody = $('#videos-table tbody');

// A new submit starts from a clean panel: the previous link's result never stays next to a new link.
form.addEventListener('submit', () => result.replaceChildren(), { capture: true });

bindForm(form, async (values) => {
  // an empty or malformed link was already marked by the page's own check (lib.js checkForm)
  const url = (values.url || '').trim();
  // The download runs as a job: its progress bar and Cancel button show here while it runs.
  let r;
  try {
    const jobId = await startJob('/api/download', { url }, { form: true });
    form.reset();
    const panel = jobPanel(jobId, `Downloading ${url}`);
    result.replaceChildren(panel.el);
    r = downloadResultOfJob(await watchJob(jobId, panel.update));
  } catch (err) {
    // A refused request (bad link, already downloading) still carries a readable body.
    r = { success: false, message: err.message, ...err.body };
  }
  if (!r.success && r.error_code === 'invalid_url') {
    // a link the service will not download: said once, next to the link
    result.replaceChildren();
    form.elements.url.setAttribute('aria-invalid', 'true');
    $('[data-error-for=url]', form).textContent = r.recovery_hint || r.message;
    form.elements.url.focus();
    return false;
  }
  // every other outcome is said once, in the result panel (with what to do next)
  result.replaceChildren(downloadResultView(r));
  if (!r.success) return false;
  toast(`Downloaded “${r.title || r.video_id}”.`);
  await load();
  return false;
});

async function load() {
  const [data, assignments] = await Promise.all([
    api('GET', '/api/admin/videos?include_without_frames=true'),
    loadAssignments().catch(() => new Map()),
  ]);
  const videos = listFrom(data, 'videos');
  $('#video-count').textContent = `${videos.length} video${videos.length === 1 ? '' : 's'}`;
  if (videos.length === 0) {
    tbody.replaceChildren(h('tr', {}, h('td', { colspan: 6, class: 'empty' }, 'No videos yet. Paste a link above to download the first one.')));
    return;
  }
  tbody.replaceChildren(...videos.map((v) => row(v, whoHas(assignments.get(v.video_id)))));
}

function row(v, experts) {
  const href = `/admin/videos/${encodeURIComponent(v.video_id)}`;
  return h(
    'tr',
    { dataset: { videoId: v.video_id } },
    h('td', {}, h('a', { href }, v.title || v.video_id), h('br'), h('span', { class: 'muted small' }, v.video_id)),
    h('td', {}, v.duration_formatted || formatSeconds(v.duration_seconds)),
    h('td', {}, v.has_frames ? h('span', { class: 'badge badge-ok' }, `${v.frame_count} frames`) : h('span', { class: 'badge badge-warn' }, 'Not extracted')),
    h('td', {}, v.has_questions ? h('span', { class: 'badge badge-ok' }, 'Generated') : h('span', { class: 'badge' }, 'None yet')),
    h('td', {}, experts || h('span', { class: 'muted' }, 'Nobody')),
    h(
      'td',
      {},
      h(
        'div',
        { class: 'row' },
        h('a', { class: 'btn btn-small', href }, v.has_frames ? 'Questions' : 'Open'),
        !v.has_frames &&
          actionButton('Extract frames', async (button) => {
            const jobId = await startJob(`/api/frames/${encodeURIComponent(v.video_id)}`);
            const panel = jobPanel(jobId, 'Extracting frames');
            button.after(panel.el);
            const job = await watchJob(jobId, panel.update);
            toast(job.state === 'succeeded' ? job.result.message : `Frames: ${job.error}`, job.state === 'succeeded' ? 'ok' : 'bad');
            await load();
          }),
      ),
    ),
  );
}

/** Jobs that were already running when the page opened (another tab, a reload) get their own panel. */
async function showRunningJobs() {
  const box = $('#running-jobs');
  const jobs = await activeJobs();
  box.hidden = jobs.length === 0;
  for (const job of jobs) {
    const panel = jobPanel(job.job_id, job.kind === 'download' ? `Downloading ${job.input?.url ?? ''}` : `Extracting frames of ${job.video_id}`);
    panel.update(job);
    $('#running-jobs-list').append(panel.el);
    watchJob(job.job_id, panel.update).then(() => load());
  }
}

load().catch((err) => toast(err.message, 'bad'));
showRunningJobs().catch((err) => toast(err.message, 'bad'));
