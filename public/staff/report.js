// A child's report (src/quiz/report.service.ts): headline numbers, charts (score over time, per
// question type, per mode, watch time per video), the child's own words for missed answers, and
// the sessions.
import { api, h, $, toast } from './lib.js';
import { lineChart, barChart } from './charts.js';
import { TYPE_LABEL } from './questions-view.js';

const page = $('#report-page');
const MODE_LABEL = { strict: 'Strict', flexible: 'Flexible', passive: 'Passive' };

const day = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
};
const when = (iso) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '–' : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};
const pct = (v) => (v === null || v === undefined ? '–' : `${Math.round(v)}%`);

function stat(value, label) {
  return h('div', { class: 'stat' }, h('div', { class: 'value' }, value), h('div', { class: 'label' }, label));
}

function chartCard(title, svg, empty) {
  return h('figure', { class: 'chart' }, h('figcaption', {}, h('h2', {}, title)), svg ?? h('p', { class: 'muted' }, empty));
}

function render(r) {
  const o = r.overall;
  const state = $('#report-state');
  if (!o || o.attempts === 0) {
    state.textContent = 'No sessions yet. The report fills in after the child plays a video with questions.';
    renderInProgress(r.in_progress ?? []);
    return;
  }
  state.textContent = `${o.attempts} session${o.attempts === 1 ? '' : 's'} from ${day(o.first_activity)} to ${day(o.last_activity)}.`;
  $('#stats').replaceChildren(
    stat(pct(o.score), 'average score'),
    stat(String(o.attempts), 'sessions'),
    stat(String(o.videos_watched), o.videos_watched === 1 ? 'video' : 'videos'),
    stat(o.questions_answered ? `${o.correct} of ${o.questions_answered}` : '–', 'answers right'),
    stat(`${Math.round(o.watch_minutes)} min`, 'watched'),
  );

  const overTime = (r.score_over_time ?? []).map((p) => ({ label: day(p.date), value: p.percentage }));
  const types = (r.by_question_type ?? []).filter((t) => t.questions > 0);
  const modes = (r.by_mode ?? []).filter((m) => m.attempts > 0);
  const watch = (r.recent_videos ?? []).filter((v) => v.watch_minutes > 0);
  $('#charts').replaceChildren(
    chartCard('Score over time', overTime.length ? lineChart(overTime, { title: 'Score of each session, in percent' }) : null, 'No scored sessions yet.'),
    chartCard(
      'Score by question type',
      types.length
        ? barChart(types.map((t) => ({ label: TYPE_LABEL[t.question_type] || t.question_type, value: t.score, note: `${t.correct}/${t.questions} right` })), { title: 'Score per question type', max: 100, lowBelow: 50 })
        : null,
      'No answers with a question type yet.',
    ),
    chartCard(
      'Score by mode',
      modes.length ? barChart(modes.map((m) => ({ label: MODE_LABEL[m.interaction_mode] || m.interaction_mode, value: m.average_score, note: `${m.attempts} session${m.attempts === 1 ? '' : 's'}` })), { title: 'Average score per interaction mode', max: 100, lowBelow: 50 }) : null,
      'No sessions yet.',
    ),
    chartCard('Watch time', watch.length ? barChart(watch.map((v) => ({ label: short(v.title), value: v.watch_minutes })), { title: 'Minutes watched per video', unit: ' min' }) : null, 'Nothing watched yet.'),
  );

  const missed = [...(r.answers_to_review ?? [])].sort((a, b) => String(b.date).localeCompare(String(a.date)));
  $('#missed-card').hidden = false;
  $('#missed').replaceChildren(
    ...(missed.length
      ? missed.slice(0, 40).map((d) =>
          h(
            'li',
            {},
            h('div', {}, h('strong', {}, d.question ?? 'Question'), ' ', h('span', { class: `badge ${d.status === 'almost' ? 'badge-warn' : 'badge-bad'}` }, d.status === 'almost' ? 'almost' : d.status === 'skipped' ? 'skipped' : 'not yet')),
            h('div', {}, 'Said: ', d.said ? h('q', {}, d.said) : h('span', { class: 'muted' }, '(nothing heard)'), ' · expected ', h('strong', {}, d.expected ?? '?')),
            h('div', { class: 'muted small' }, `${d.video_title} · ${day(d.date)}${d.question_type ? ` · ${TYPE_LABEL[d.question_type] || d.question_type}` : ''}`),
          ),
        )
      : [h('li', { class: 'muted' }, 'Nothing missed. Well done!')]),
  );

  // The admin's report carries every attempt; the expert's has the recent videos.
  const rows = r.attempts
    ? r.attempts.map((a) => [when(a.created_at), a.video_title, pct(a.percentage), MODE_LABEL[a.interaction_mode] || a.interaction_mode || '–', `${Math.round(a.watch_minutes * 10) / 10} min`, String(a.total_retries)])
    : (r.recent_videos ?? []).map((v) => [when(v.last_played), `${v.title} (${v.attempts}×)`, pct(v.last_score), '–', `${v.watch_minutes} min`, '–']);
  $('#attempts-card').hidden = false;
  $('#attempts').replaceChildren(...rows.map((cells) => h('tr', {}, cells.map((c) => h('td', {}, c)))));
  renderInProgress(r.in_progress ?? []);
}

function renderInProgress(list) {
  if (list.length === 0) return;
  $('#stats').append(stat(String(list.length), list.length === 1 ? 'video not finished' : 'videos not finished'));
}

const short = (s) => (s && s.length > 16 ? `${s.slice(0, 15)}…` : s || '');

if (page) {
  api('GET', page.dataset.reportUrl)
    .then(render)
    .catch((err) => {
      $('#report-state').textContent = err.message;
      toast(err.message, 'bad');
    });
}
