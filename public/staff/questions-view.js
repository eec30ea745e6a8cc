// Read-only views of generated questions (admin generation page) and the segment box around them.
import { h, formatSeconds } from './lib.js';

export const TYPE_LABEL = {
  character: 'Character',
  setting: 'Setting',
  feeling: 'Feeling',
  action: 'Action',
  causal: 'Why (cause)',
  outcome: 'Outcome',
  prediction: 'Prediction',
};

export const segmentTitle = (start, end) => `${formatSeconds(start)} – ${formatSeconds(end)}`;

/** The questions a provider produced for one segment, best AI rank first. */
export function generatedList(questions) {
  const sorted = [...questions].sort((a, b) => (a.llm_ranking ?? 99) - (b.llm_ranking ?? 99));
  return h(
    'table',
    { class: 'small' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'AI rank'), h('th', { scope: 'col' }, 'Type'), h('th', { scope: 'col' }, 'Question'), h('th', { scope: 'col' }, 'Answer'))),
    h(
      'tbody',
      {},
      sorted.map((q) =>
        h(
          'tr',
          {},
          h('td', {}, q.llm_ranking ?? '–'),
          h('td', {}, TYPE_LABEL[q.question_type] || q.question_type),
          h('td', {}, q.question),
          h('td', {}, q.answer),
        ),
      ),
    ),
  );
}

/**
 * One segment box: header (time range + state badge) and a body that the caller fills.
 * state: 'pending' | 'done' | 'failed' | 'skipped'
 */
export function segmentBox(start, end, state, body, extraHeader) {
  const badge = {
    pending: h('span', { class: 'badge' }, 'Waiting'),
    done: h('span', { class: 'badge badge-ok' }, 'Done'),
    skipped: h('span', { class: 'badge badge-brand' }, 'Already generated'),
    failed: h('span', { class: 'badge badge-bad' }, 'Failed'),
  }[state];
  return h(
    'section',
    { class: `segment ${state}`, dataset: { start: String(start), end: String(end) }, 'aria-label': `Segment ${segmentTitle(start, end)}` },
    h('header', {}, h('h3', {}, segmentTitle(start, end)), badge, h('span', { class: 'spacer' }), extraHeader || ''),
    h('div', { class: 'seg-body' }, body),
  );
}
