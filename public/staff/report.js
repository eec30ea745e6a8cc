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
/**
 * One rounding rule for every figure on the page (headline, charts, table): percentages to the
 * whole percent, minutes to one decimal. The charts print their values with these same functions.
 */
const pct = (v) => (v === null || v === undefined ? '–' : `${Math.round(v)}%`);
const minutes = (v) => `${(Math.round((Number(v) || 0) * 10) / 10).toLocaleString(undefined, { maximumFractionDigits: 1 })} min`;
const time = (iso, seconds = false) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) });
};

/**
 * Axis labels that tell sessions apart: the date where it changes, the time of day always (seven
 * sessions on one day read "Nov 24 · 9:05 AM", "9:20 AM", … instead of seven "Nov 24").
 */
function sessionLabels(points) {
  const minutesTaken = new Map();
  for (const p of points) minutesTaken.set(time(p.date), (minutesTaken.get(time(p.date)) ?? 0) + 1);
  const seen = new Map();
  let lastDay = '';
  return points.map((p) => {
    const d = day(p.date);
    // two sessions in the same minute: their seconds; still the same: numbered
    let t = minutesTaken.get(time(p.date)) > 1 ? time(p.date, true) : time(p.date);
    const n = (seen.get(t) ?? 0) + 1;
    seen.set(t, n);
    if (n > 1) t = `${t} (${n})`;
    const label = d === lastDay ? t : `${d} · ${t}`;
    lastDay = d;
    return label;
  });
}

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
    stat(minutes(o.watch_minutes), 'watched'),
  );

  const points = r.score_over_time ?? [];
  const labels = sessionLabels(points);
  const overTime = points.map((p, i) => ({ label: labels[i], value: p.percentage, text: pct(p.percentage), about: `${p.video_title}, ${when(p.date)}` }));
  const types = (r.by_question_type ?? []).filter((t) => t.questions > 0);
  const modes = (r.by_mode ?? []).filter((m) => m.attempts > 0);
  const watch = (r.recent_videos ?? []).filter((v) => v.watch_minutes > 0);
  $('#charts').replaceChildren(
    chartCard('Score over time', overTime.length ? lineChart(overTime, { title: 'Score of each session, in percent', format: pct }) : null, 'No scored sessions yet.'),
    chartCard(
      'Score by question type',
      types.length
        ? barChart(types.map((t) => ({ label: TYPE_LABEL[t.question_type] || t.question_type, value: t.score, note: `${t.correct}/${t.questions} right` })), { title: 'Score per question type', max: 100, lowBelow: 50, format: pct })
        : null,
      'No answers with a question type yet.',
    ),
    chartCard(
      'Score by mode',
      modes.length ? barChart(modes.map((m) => ({ label: MODE_LABEL[m.interaction_mode] || m.interaction_mode, value: m.average_score, note: `${m.attempts} session${m.attempts === 1 ? '' : 's'}` })), { title: 'Average score per interaction mode', max: 100, lowBelow: 50, format: pct }) : null,
      'No sessions yet.',
    ),
    chartCard('Watch time', watch.length ? barChart(watch.map((v) => ({ label: short(v.title), value: v.watch_minutes })), { title: 'Minutes watched per video', format: minutes }) : null, 'Nothing watched yet.'),
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

  // one row per session, newest first, with the mode and retries the attempt stored
  const rows = (r.sessions ?? []).map((a) => [when(a.date), a.video_title, pct(a.percentage), MODE_LABEL[a.interaction_mode] || a.interaction_mode || '–', minutes(a.watch_minutes), String(a.total_retries ?? 0)]);
  $('#attempts-card').hidden = false;
  $('#attempts').replaceChildren(...rows.map((cells) => h('tr', {}, cells.map((c) => h('td', {}, c)))));
  renderInProgress(r.in_progress ?? []);
}

function renderInProgress(list) {
  if (list.length === 0) return;
  $('#stats').append(stat(String(list.length), list.length === 1 ? 'video not finished' : 'videos not finished'));
}

const short = (s) => (s && s.length > 14 ? `${s.slice(0, 13)}…` : s || '');

if (page) {
  api('GET', page.dataset.reportUrl)
    .then(render)
    .catch((err) => {
      $('#report-state').textContent = err.message;
      toast(err.message, 'bad');
    });
}
