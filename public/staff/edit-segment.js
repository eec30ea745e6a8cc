// One part (segment) of the edit page: frames + subtitles, the ranked questions with their tools,
// the expert's own question, companion variants and a note. Every change is saved at once.
import { h, toast, busy, say, actionButton } from './lib.js';
import { TYPE_LABEL, segmentTitle } from './questions-view.js';
import { frameStrip, framesBetween, subtitlesBetween } from './frames.js';
import * as edit from './edit-api.js';
import { variantsPanel } from './edit-variants.js';

let uid = 0;
const nextId = (p) => `${p}-${++uid}`;

/** Non-trashed questions in the expert's order (then the AI's), trashed ones last. */
export function ordered(questions) {
  const rank = (q) => [q.trashed ? 1 : 0, q.expert_ranking ?? 1000, q.llm_ranking ?? 1000, q.id ?? 1e9];
  return [...questions].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
    return 0;
  });
}

/** The order on screen becomes expert_ranking 1..n; trashed questions have none. */
function renumber(list) {
  let n = 0;
  return list.map((q) => ({ ...q, expert_ranking: q.trashed ? null : ++n }));
}

export class SegmentEditor {
  constructor({ videoId, seg, frames, onChange }) {
    this.videoId = videoId;
    this.seg = { ...seg, questions: ordered(seg.questions) };
    this.frames = frames;
    this.onChange = onChange;
    this.el = h('section', { class: 'segment', dataset: { start: String(seg.start), end: String(seg.end) } });
    this.draw();
  }

  get top() {
    return this.seg.questions.find((q) => !q.trashed) ?? null;
  }

  /** Saves the new list (order, edits, trash), then shows what the server stored. */
  async commit(list, message) {
    const questions = renumber(list);
    const stored = await edit.saveSegment(this.videoId, this.seg, questions);
    if (stored) this.seg = { ...stored, questions: ordered(stored.questions) };
    else await this.reload();
    this.render();
    this.announce(message);
    this.onChange?.();
  }

  async reload() {
    const all = await edit.loadReview(this.videoId);
    const fresh = all.find((s) => s.start === this.seg.start && s.end === this.seg.end);
    if (fresh) this.seg = { ...fresh, questions: ordered(fresh.questions) };
  }

  announce(message) {
    if (!message) return;
    say(this.status, message, 'ok');
    toast(message);
  }

  /**
   * Redraws the segment and gives focus back to the control that had it (found by its name, e.g.
   * "Move up: What is…", which follows the question to its new place), so keyboard users stay put.
   */
  render() {
    const active = document.activeElement;
    const name = active && this.el.contains(active) ? active.getAttribute('aria-label') || active.textContent : null;
    this.draw();
    // the forms survive a redraw (ownQuestionForm, noteForm): whoever is typing there keeps the caret
    if (active && active.isConnected && this.el.contains(active)) return /** @type {HTMLElement} */ (active).focus();
    if (!name) return;
    const same = [...this.el.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') || b.textContent) === name && !b.disabled);
    /** @type {HTMLElement | null} */ (same ?? this.el.querySelector('h2'))?.focus();
  }

  draw() {
    const { seg } = this;
    const titleId = nextId('seg');
    this.status = h('p', { class: 'msg', role: 'status', 'aria-live': 'polite' });
    const finalizeBtn = actionButton(seg.finalized ? 'Reopen' : 'Finalize this part', async () => {
      await edit.finalizeSegments(this.videoId, [{ ...seg, questions: renumber(seg.questions) }], !seg.finalized);
      this.seg.finalized = !seg.finalized;
      this.render();
      this.announce(this.seg.finalized ? 'Part finalized: children will hear its first question.' : 'Part reopened: children no longer get it.');
      this.onChange?.();
    }, { cls: `btn btn-small ${seg.finalized ? 'btn-quiet' : ''}` });
    this.el.className = `segment${seg.finalized ? ' finalized' : ''}`;
    this.el.setAttribute('aria-labelledby', titleId);
    const subs = subtitlesBetween(this.frames, seg.start, seg.end);
    this.el.replaceChildren(
      h(
        'header',
        {},
        h('h2', { id: titleId, tabindex: '-1' }, `Part ${segmentTitle(seg.start, seg.end)}`),
        seg.finalized ? h('span', { class: 'badge badge-ok' }, 'Finalized') : h('span', { class: 'badge badge-warn' }, 'Draft'),
        h('span', { class: 'spacer' }),
        finalizeBtn,
      ),
      h(
        'div',
        { class: 'seg-body' },
        frameStrip(this.videoId, framesBetween(this.frames, seg.start, seg.end)),
        h('div', { class: 'subtitles', 'aria-label': 'Subtitles of this part' }, subs.length ? subs.join(' ') : h('span', {}, 'No subtitles in this part.')),
        h('h3', {}, 'Questions'),
        h('p', { class: 'muted small' }, 'The first question is the one children hear. Use Up and Down to rank them.'),
        h('ol', { class: 'qlist' }, seg.questions.map((q, i) => this.questionItem(q, i))),
        this.status,
        this.ownQuestionForm(),
        this.top ? variantsPanel(this) : '',
        this.noteForm(),
      ),
    );
  }

  questionItem(q, i) {
    const list = this.seg.questions;
    const live = list.filter((x) => !x.trashed);
    const pos = live.indexOf(q);
    const move = (delta) => {
      const copy = live.slice();
      const [item] = copy.splice(pos, 1);
      copy.splice(pos + delta, 0, item);
      return this.commit([...copy, ...list.filter((x) => x.trashed)], `Moved to place ${pos + delta + 1}.`);
    };
    const label = q.question.length > 40 ? `${q.question.slice(0, 40)}…` : q.question;
    const tools = h(
      'div',
      { class: 'q-tools' },
      !q.trashed && actionButton('Up', () => move(-1), { title: `Move up: ${label}`, cls: 'btn btn-small btn-quiet' }),
      !q.trashed && actionButton('Down', () => move(1), { title: `Move down: ${label}`, cls: 'btn btn-small btn-quiet' }),
      actionButton('Edit', () => this.openEditor(item, q), { title: `Edit: ${label}` }),
      !q.trashed && actionButton('New AI version', async () => {
        const fresh = await edit.regenerate(this.videoId, q);
        await this.reload();
        this.render();
        this.announce(`The AI wrote a new question: “${fresh.question ?? ''}”.`);
      }, { title: `New AI version of: ${label}` }),
      actionButton(q.trashed ? 'Restore' : 'Trash', () =>
        this.commit(list.map((x) => (x === q ? { ...x, trashed: !x.trashed, expert_ranking: null } : x)), q.trashed ? 'Question restored.' : 'Question moved to the trash.'),
      { title: `${q.trashed ? 'Restore' : 'Trash'}: ${label}`, cls: `btn btn-small ${q.trashed ? 'btn-secondary' : 'btn-danger'}` }),
    );
    tools.querySelectorAll('button').forEach((b) => {
      if ((b.textContent === 'Up' && pos === 0) || (b.textContent === 'Down' && pos === live.length - 1)) b.disabled = true;
    });
    const item = h(
      'li',
      { class: `q${!q.trashed && pos === 0 ? ' top' : ''}${q.trashed ? ' trashed' : ''}`, dataset: { questionId: String(q.id ?? '') } },
      h('div', { class: 'rank', 'aria-label': q.trashed ? 'In the trash' : `Place ${pos + 1}` }, q.trashed ? '–' : String(pos + 1)),
      h(
        'div',
        {},
        h('div', { class: 'q-text' }, q.question),
        h('div', { class: 'q-answer' }, 'Answer: ', q.answer),
        h(
          'div',
          { class: 'q-meta' },
          h('span', { class: 'badge badge-brand' }, TYPE_LABEL[q.question_type] || q.question_type),
          q.llm_ranking ? h('span', { class: 'badge' }, `AI rank ${q.llm_ranking}`) : '',
          q.origin && q.origin !== 'generated' ? h('span', { class: 'badge' }, { expert: 'written by an expert', regenerated: 'new AI version', imported: 'imported' }[q.origin] ?? q.origin) : '',
          !q.trashed && pos === 0 ? h('span', { class: 'badge badge-ok' }, 'Children hear this one') : '',
        ),
      ),
      tools,
    );
    return item;
  }

  /** Inline editor below the question: wording, answer, type. */
  openEditor(item, q) {
    if (item.querySelector('form')) return;
    const form = this.questionForm(q, 'Save', async (v) => {
      await this.commit(this.seg.questions.map((x) => (x === q ? { ...x, ...v } : x)), 'Question saved.');
    });
    form.classList.add('q-edit');
    const cancel = h('button', { type: 'button', class: 'btn btn-quiet' }, 'Cancel');
    cancel.addEventListener('click', () => form.remove());
    form.querySelector('.row').append(cancel);
    item.append(form);
    form.querySelector('textarea').focus();
  }

  /**
   * Made once and kept across redraws: a redraw (another expert's change reloaded, an AI version
   * arriving) must not close the form or lose what the expert is typing.
   */
  ownQuestionForm() {
    if (this.ownForm) return this.ownForm;
    const blank = { question_type: 'action', question: '', answer: '' };
    const details = h('details', {}, h('summary', { class: 'btn btn-small btn-secondary' }, 'Write my own question'));
    const form = this.questionForm(blank, 'Add question', async (v) => {
      await this.commit([...this.seg.questions, { ...v, trashed: false, llm_ranking: null, expert_ranking: null }], 'Your question was added at the end: move it up to rank it.');
      for (const [name, value] of Object.entries(blank)) form.elements[name].value = value;
      details.open = false;
    });
    details.append(form);
    this.ownForm = details;
    return details;
  }

  questionForm(q, submitLabel, onSave) {
    const ids = { q: nextId('q'), a: nextId('a'), t: nextId('t') };
    const form = h(
      'form',
      { novalidate: true, class: 'card' },
      h('div', { class: 'field' }, h('label', { for: ids.q }, 'Question'), h('textarea', { id: ids.q, name: 'question', required: true, rows: 2, 'aria-describedby': `${ids.q}-e` }), h('span', { class: 'field-error', id: `${ids.q}-e`, 'data-error-for': 'question' })),
      h(
        'div',
        { class: 'form-inline' },
        h('div', { class: 'field' }, h('label', { for: ids.a }, 'Expected answer (a few words)'), h('input', { id: ids.a, name: 'answer', type: 'text', required: true, 'aria-describedby': `${ids.a}-e` }), h('span', { class: 'field-error', id: `${ids.a}-e`, 'data-error-for': 'answer' })),
        h('div', { class: 'field' }, h('label', { for: ids.t }, 'Type'), h('select', { id: ids.t, name: 'question_type' }, Object.entries(TYPE_LABEL).map(([k, l]) => h('option', { value: k }, l)))),
      ),
      h('div', { class: 'form-status', role: 'alert', tabindex: '-1' }),
      h('div', { class: 'row' }, h('button', { type: 'submit', class: 'btn' }, submitLabel)),
    );
    form.elements.question.value = q.question;
    form.elements.answer.value = q.answer;
    form.elements.question_type.value = q.question_type;
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const v = { question: form.elements.question.value.trim(), answer: form.elements.answer.value.trim(), question_type: form.elements.question_type.value };
      for (const [name, msg] of [['question', 'Write the question.'], ['answer', 'Write the answer the child should give.']]) {
        const bad = !v[name];
        form.elements[name].toggleAttribute('aria-invalid', bad);
        form.querySelector(`[data-error-for=${name}]`).textContent = bad ? msg : '';
      }
      if (!v.question || !v.answer) return form.querySelector('[aria-invalid]').focus();
      await busy(ev.submitter, async () => {
        try {
          await onSave(v);
        } catch (err) {
          say(form.querySelector('.form-status'), err.message, 'bad');
        }
      });
    });
    return form;
  }

  /** Kept across redraws like the own-question form: an unsaved note is not thrown away. */
  noteForm() {
    if (this.noteEl) return this.noteEl;
    const id = nextId('note');
    const form = h(
      'form',
      { novalidate: true, class: 'form-inline' },
      h('div', { class: 'field' }, h('label', { for: id }, 'Note for this part (only experts see it)'), h('textarea', { id, name: 'note', rows: 1 })),
      h('button', { type: 'submit', class: 'btn btn-secondary' }, 'Save note'),
    );
    form.elements.note.value = this.seg.note || '';
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      await busy(ev.submitter, async () => {
        try {
          await edit.annotate(this.videoId, this.seg, form.elements.note.value);
          this.seg.note = form.elements.note.value;
          this.announce('Note saved.');
        } catch (err) {
          toast(err.message, 'bad');
        }
      });
    });
    this.noteEl = form;
    return form;
  }
}
