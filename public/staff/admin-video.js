// /admin/videos/{id}: frames, live question generation over the WebSocket, submit, assign.
import { api, bindForm, h, $, listFrom, busy, say, toast, formatSeconds, actionButton } from './lib.js';
import { loadAssignments } from './admin-common.js';
import { jobPanel, startJob, watchJob } from './admin-jobs.js';
import { generatedList, segmentBox, segmentTitle } from './questions-view.js';
import { loadManifest, frameStrip } from './frames.js';

const page = $('#video-page');
const videoId = page.dataset.videoId;
const enc = encodeURIComponent(videoId);
$('[data-slot=duration]').textContent = formatSeconds(page.dataset.duration);

// ---------- 1. frames ----------
async function showFrames() {
  const data = await api('GET', '/api/admin/videos?include_without_frames=true');
  const v = listFrom(data, 'videos').find((x) => x.video_id === videoId);
  const state = $('#frames-state');
  if (v?.has_frames) {
    state.textContent = `${v.frame_count} frames extracted.`;
    $('#extract').textContent = 'Extract frames again';
    const manifest = await loadManifest(videoId).catch(() => []);
    $('#frames-preview').replaceChildren(frameStrip(videoId, manifest.slice(0, 12)));
  } else {
    state.textContent = 'No frames yet: extract them before generating questions.';
    $('#extract').textContent = 'Extract frames';
  }
}

$('#extract').addEventListener('click', (ev) =>
  busy(ev.currentTarget, async () => {
    const out = $('#frames-result');
    say(out, 'Extracting frames…', 'info');
    try {
      // a job: its progress bar and Cancel button stay here while ffmpeg runs
      const jobId = await startJob(`/api/frames/${enc}`);
      const panel = jobPanel(jobId, 'Extracting frames');
      out.replaceChildren(panel.el);
      const job = await watchJob(jobId, panel.update);
      if (job.state === 'succeeded') {
        say(out, job.result.message || `${job.result.count} frames extracted.`, 'ok');
        toast(job.result.message || 'Frames extracted.');
      } else {
        say(out, job.error || 'Frame extraction failed.', 'bad');
      }
      await showFrames();
    } catch (err) {
      say(out, err.message, 'bad');
    }
  }),
);

// ---------- 2. generation ----------
// Events (docs/questions.md): status {total, done (incl. skipped), failed, message},
// segment_result {segment_range_start, segment_range_end, ok, result | error}, done, error.
const form = $('#gen-form');
const segmentsEl = $('#segments');
const bar = $('#gen-bar');
const text = $('#gen-text');
const results = new Map(); // segment start -> generated segment (for submit)
const live = new Set(); // segment starts that arrived over the socket on this page
let socket = null;
let lastSettings = null;
const counts = { total: 0, done: 0, failed: 0 };

function showProgress(message) {
  $('#gen-progress').hidden = false;
  bar.max = Math.max(1, counts.total);
  bar.value = Math.min(counts.total, counts.done + counts.failed);
  const parts = [`${counts.done + counts.failed} of ${counts.total || '?'} segments`];
  if (counts.failed) parts.push(`${counts.failed} failed`);
  text.textContent = message ? `${message} (${parts.join(', ')})` : parts.join(', ');
}

function placeSegment(box) {
  const start = Number(box.dataset.start);
  const old = [...segmentsEl.children].find((el) => Number(el.dataset.start) === start);
  if (old) return old.replaceWith(box);
  const after = [...segmentsEl.children].find((el) => Number(el.dataset.start) > start);
  segmentsEl.insertBefore(box, after ?? null);
}

function renderFailed(start, end, error) {
  const retry = h('button', { type: 'button', class: 'btn btn-small' }, 'Retry this segment');
  retry.addEventListener('click', () =>
    run({ ...(lastSettings ?? readSettings()), start_seconds: start, interval_seconds: end - start, full_duration: false, regenerate: true }, true),
  );
  const why = `${error?.message || 'The provider failed.'}${error?.code ? ` (${error.code}${error.retryable ? ', worth retrying' : ''})` : ''}`;
  placeSegment(segmentBox(start, end, 'failed', [h('p', { class: 'msg msg-bad', role: 'alert' }, why)], retry));
}

function renderDone(seg, state = 'done') {
  const start = seg.segment_range_start;
  results.set(start, seg);
  const who = seg.provider ? h('span', { class: 'muted small' }, `by ${seg.provider}${seg.model ? ` (${seg.model})` : ''}`) : '';
  placeSegment(segmentBox(start, seg.segment_range_end, state, generatedList(seg.questions ?? []), who));
}

function onEvent(ev, retry) {
  switch (ev.type) {
    case 'status':
      if (!retry) Object.assign(counts, { total: ev.total, done: ev.done, failed: ev.failed });
      showProgress(retry ? 'Retrying' : ev.message);
      break;
    case 'segment_result':
      live.add(ev.segment_range_start);
      if (ev.ok) renderDone(ev.result);
      else renderFailed(ev.segment_range_start, ev.segment_range_end, ev.error);
      if (retry) {
        if (ev.ok) Object.assign(counts, { done: counts.done + 1, failed: Math.max(0, counts.failed - 1) });
      } else if (ev.ok) counts.done += 1;
      else counts.failed += 1;
      showProgress(ev.ok ? `Segment ${segmentTitle(ev.segment_range_start, ev.segment_range_end)} done` : `Segment ${segmentTitle(ev.segment_range_start, ev.segment_range_end)} failed`);
      break;
    case 'done': {
      if (!retry) Object.assign(counts, { total: ev.total, done: ev.generated + ev.skipped, failed: ev.failed });
      const bad = counts.failed > 0;
      showProgress(bad ? 'Finished with errors: retry the failed segments' : 'Finished');
      toast(ev.message || 'Generation finished.', bad ? 'warn' : 'ok');
      if (ev.skipped) showExisting();
      stopUi();
      break;
    }
    case 'error':
      say($('.form-status', form), ev.message || 'Generation stopped.', 'bad');
      toast(ev.message || 'Generation stopped.', 'bad');
      stopUi();
      break;
    default:
      break;
  }
}

function stopUi() {
  $('#gen-start').disabled = false;
  $('#gen-stop').hidden = true;
  const s = socket;
  socket = null;
  if (s && s.readyState <= 1) s.close();
}

function run(settings, retry = false) {
  if (socket) return toast('A generation is already running.', 'warn');
  if (!retry) {
    lastSettings = settings;
    Object.assign(counts, { total: 0, done: 0, failed: 0 });
  }
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/ws/questions/${enc}`);
  socket = ws;
  $('#gen-start').disabled = true;
  $('#gen-stop').hidden = false;
  showProgress('Connecting');
  ws.addEventListener('open', () => {
    const payload = { start_seconds: settings.start_seconds, interval_seconds: settings.interval_seconds, full_duration: settings.full_duration };
    if (settings.provider) payload.provider = settings.provider;
    if (settings.regenerate) payload.regenerate = true;
    ws.send(JSON.stringify(payload));
  });
  ws.addEventListener('message', (m) => {
    let ev;
    try {
      ev = JSON.parse(m.data);
    } catch {
      return;
    }
    onEvent(ev, retry);
  });
  ws.addEventListener('close', () => {
    if (socket === ws) {
      showProgress('The connection closed; finished segments are kept');
      stopUi();
    }
  });
  return undefined;
}

function readSettings() {
  return {
    provider: form.elements.provider.value,
    start_seconds: Number(form.elements.start_seconds.value || 0),
    interval_seconds: Number(form.elements.interval_seconds.value || 0),
    full_duration: form.elements.full_duration.checked,
    regenerate: form.elements.regenerate.checked,
  };
}

bindForm(form, async () => {
  const v = readSettings();
  const bad = (name, msg) => {
    form.elements[name].setAttribute('aria-invalid', 'true');
    $(`[data-error-for=${name}]`, form).textContent = msg;
    form.elements[name].focus();
    return false;
  };
  if (!Number.isInteger(v.start_seconds) || v.start_seconds < 0) return bad('start_seconds', 'Enter whole seconds, 0 or more.');
  if (!Number.isInteger(v.interval_seconds) || v.interval_seconds < 5) return bad('interval_seconds', 'Enter whole seconds, at least 5.');
  run(v);
  return false;
});

$('#gen-stop').addEventListener('click', () => {
  showProgress('Stopped: finished segments are kept');
  stopUi();
});

/** Segments generated earlier (a reload, an earlier run, skipped segments) from the review state. */
async function showExisting() {
  let data;
  try {
    data = await api('GET', `/api/expert-questions/${enc}`);
  } catch {
    return;
  }
  for (const seg of listFrom(data, 'segments')) {
    const g = seg.generated;
    if (!g) continue;
    if (live.has(seg.segment_range_start)) continue; // this page already shows the newer result
    if (g.status === 'error') {
      renderFailed(seg.segment_range_start, seg.segment_range_end, g.error);
      continue;
    }
    const questions = seg.questions.map((q) => ({ question_type: q.question_type, question: q.question, answer: q.answer, llm_ranking: q.llm_ranking }));
    renderDone({ segment_range_start: seg.segment_range_start, segment_range_end: seg.segment_range_end, provider: g.provider, model: g.model, questions }, 'skipped');
  }
}

// ---------- 3. submit ----------
$('#submit-questions').addEventListener('click', (ev) =>
  busy(ev.currentTarget, async () => {
    const out = $('#submit-result');
    const questions = [...results.values()].sort((a, b) => a.segment_range_start - b.segment_range_start);
    try {
      const r = await api('POST', '/api/submit-questions', { video_id: videoId, questions });
      const link = r.file_url ? h('a', { href: r.file_url }, ' Download the JSON export') : '';
      say(out, r.message || 'Questions submitted.', 'ok', link);
      toast(r.message || 'Questions submitted.');
    } catch (err) {
      say(out, err.message, 'bad');
    }
  }),
);

// ---------- 4. assign ----------
const assignForm = $('#assign-form');
async function showAssignments() {
  const [expertsData, map] = await Promise.all([api('GET', '/api/admin/experts'), loadAssignments()]);
  const experts = listFrom(expertsData, 'experts').filter((e) => e.active !== false);
  const select = assignForm.elements.expert_id;
  const keep = select.value;
  select.replaceChildren(h('option', { value: '' }, experts.length ? 'Choose an expert…' : 'No active experts'), ...experts.map((e) => h('option', { value: e.expert_id }, `${e.display_name} (${e.expert_id})`)));
  select.value = keep;
  const entry = map.get(videoId);
  const list = $('#assigned-list');
  if (!entry || (entry.assigned.length === 0 && !entry.claimedBy)) {
    list.replaceChildren('nobody yet');
    return;
  }
  list.replaceChildren(
    ...entry.assigned.map((a) =>
      h(
        'span',
        { class: 'row', style: 'display:inline-flex;margin-right:1rem', dataset: { expertId: a.expert_id } },
        `${a.expert_name} (${a.expert_id})`,
        actionButton('Remove', async () => {
          const r = await api('DELETE', `/api/admin/videos/assignments/${enc}/${encodeURIComponent(a.expert_id)}`);
          toast(r.message || 'Assignment removed.');
          await showAssignments();
        }, { title: `Remove: ${a.expert_name}`, cls: 'btn btn-small btn-quiet', confirmText: `Take this video away from ${a.expert_name}?` }),
      ),
    ),
    entry.claimedBy ? h('span', { class: 'badge badge-brand' }, `claimed by ${entry.claimedBy.expert_name}`) : '',
  );
}

bindForm(assignForm, async (v) => {
  if (!v.expert_id) {
    assignForm.elements.expert_id.setAttribute('aria-invalid', 'true');
    $('[data-error-for=expert_id]', assignForm).textContent = 'Choose an expert.';
    return false;
  }
  const r = await api('POST', '/api/admin/videos/assignments', { video_id: videoId, expert_id: v.expert_id });
  await showAssignments();
  return r.message || `Assigned to ${v.expert_id}.`;
});

showFrames().catch((e) => toast(e.message, 'bad'));
showExisting();
showAssignments().catch((e) => toast(e.message, 'bad'));
