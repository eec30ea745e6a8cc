// Background jobs on the admin pages: downloads and frame extraction start as jobs
// (`Prefer: respond-async` answers 202 with a job id at once), their progress arrives on the
// /ws/jobs socket (docs/jobs.md), and a panel shows a real progress bar with a Cancel button.
import { api, h, toast } from './lib.js';

const listeners = new Map(); // job_id -> Set of callbacks
let socket = null;

/** Starts a job; resolves with its id. A refused start throws ApiError (its body says why). */
export async function startJob(url, body, opts = {}) {
  const r = await api('POST', url, body, { ...opts, headers: { Prefer: 'respond-async' } });
  return r.job_id;
}

/**
 * Calls onUpdate with the job on every change; resolves with it once finished. Updates come
 * from the socket; a slow poll covers a socket that cannot connect or drops.
 */
export function watchJob(jobId, onUpdate) {
  connect();
  return new Promise((resolve) => {
    const finished = (job) => ['succeeded', 'failed', 'cancelled'].includes(job.state);
    let done = false;
    const update = (job) => {
      if (done) return;
      onUpdate(job);
      if (finished(job)) {
        done = true;
        clearInterval(poll);
        listeners.get(jobId)?.delete(update);
        resolve(job);
      }
    };
    if (!listeners.has(jobId)) listeners.set(jobId, new Set());
    listeners.get(jobId).add(update);
    const fetchOnce = () => api('GET', `/api/admin/jobs/${encodeURIComponent(jobId)}`).then((r) => update(r.job), () => undefined);
    const poll = setInterval(fetchOnce, 3000);
    fetchOnce();
  });
}

/** The jobs still queued or running (for a page opened while they run). */
export async function activeJobs() {
  const [queued, running] = await Promise.all([api('GET', '/api/admin/jobs?state=queued'), api('GET', '/api/admin/jobs?state=running')]);
  return [...running.jobs, ...queued.jobs];
}

/** A progress bar, its text and a Cancel button for one job; `update(job)` redraws it. */
export function jobPanel(jobId, label) {
  const bar = h('progress', { max: '100', value: '0', 'aria-label': `${label} progress` });
  const text = h('p', { class: 'progress-text', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' }, 'Waiting…');
  const cancel = h('button', { type: 'button', class: 'btn btn-small btn-secondary', 'data-testid': 'job-cancel' }, 'Cancel');
  cancel.addEventListener('click', async () => {
    cancel.setAttribute('aria-disabled', 'true');
    try {
      await api('POST', `/api/admin/jobs/${encodeURIComponent(jobId)}/cancel`);
    } catch (err) {
      toast(err.message, 'bad');
    }
  });
  const el = h('div', { class: 'job-panel', 'data-job-id': jobId, 'data-testid': 'job-panel' }, h('strong', {}, label), bar, h('div', { class: 'row' }, text, cancel));
  const update = (job) => {
    el.dataset.state = job.state;
    bar.value = Math.round((job.progress || 0) * 100);
    const pct = `${Math.round((job.progress || 0) * 100)} %`;
    if (job.state === 'queued') text.textContent = 'Waiting for a free worker…';
    else if (job.state === 'running') text.textContent = `${job.message || 'Working'}: ${pct}`;
    else text.textContent = job.state === 'succeeded' ? 'Done.' : job.error || job.state;
    cancel.hidden = !['queued', 'running'].includes(job.state);
  };
  return { el, update };
}

/** A finished download job as the download result the page shows (a cancelled job says so). */
export function downloadResultOfJob(job) {
  if (job.state === 'cancelled') return { success: false, message: job.error || 'The download was cancelled.', error_code: 'cancelled', recovery_hint: 'Start the download again.' };
  if (job.result && typeof job.result === 'object' && 'success' in job.result) return job.result;
  return { success: false, message: job.error || 'The download failed.', error_code: 'download_failed' };
}

function connect() {
  if (socket) return;
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${proto}://${location.host}/ws/jobs`);
  socket.addEventListener('message', (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    const jobs = msg.type === 'snapshot' ? msg.jobs : msg.type === 'job' ? [msg.job] : [];
    for (const job of jobs) for (const cb of [...(listeners.get(job.job_id) ?? [])]) cb(job);
  });
  // the poll in watchJob carries on; a later watch opens a new socket
  socket.addEventListener('close', () => {
    socket = null;
  });
}
