// Companion wordings of the question children hear, side by side: one column per companion; the
// expert picks the wording each companion uses, or writes their own (saved at once).
import { h, actionButton, toast, busy, COMPANIONS, iconFor } from './lib.js';
import * as edit from './edit-api.js';

let uid = 0;

export function variantsPanel(editor) {
  const top = editor.top;
  const seg = editor.seg;
  const mine = seg.variants.filter((v) => v.question_id === top.id);
  const refresh = async (message) => {
    await editor.reload();
    editor.render();
    editor.announce(message);
  };
  const write = actionButton(mine.length ? 'Write new companion versions (AI)' : 'Write companion versions (AI)', async () => {
    const r = await edit.makeVariants(editor.videoId, top);
    const failed = (r.errors ?? []).length;
    await refresh(`${(r.created ?? []).length} companion versions written${failed ? `, ${failed} failed` : ''}. Pick the one each companion says.`);
  }, { cls: 'btn btn-small btn-secondary' });
  const columns = COMPANIONS.map((c) => {
    const options = mine.filter((v) => v.companion === c.key);
    const name = `pick-${seg.start}-${seg.end}-${c.key}`;
    const chosen = options.find((v) => v.chosen) ?? null;
    const col = h('fieldset', { class: 'variant', dataset: { companion: c.key } }, h('legend', { class: 'who-says' }, iconFor(c.key), ` ${c.label}`));
    if (options.length === 0) col.append(h('p', { class: 'muted small' }, 'No version yet: the child hears the question as written.'));
    for (const v of options) {
      const input = h('input', { type: 'radio', name, value: String(v.id), checked: chosen?.id === v.id });
      input.addEventListener('change', async () => {
        try {
          await edit.chooseVariant(editor.videoId, seg, c.key, v.id);
          for (const o of seg.variants) if (o.companion === c.key && o.question_id === top.id) o.chosen = o.id === v.id;
          col.querySelector('.not-picked')?.remove();
          editor.announce(`${c.label} will ask: “${v.question}”`);
        } catch (err) {
          toast(err.message, 'bad');
        }
      });
      col.append(h('label', { class: 'choice variant-option' }, input, h('span', {}, v.question)));
    }
    if (options.length > 0 && !chosen) col.append(h('p', { class: 'muted small not-picked' }, 'Not picked yet: the newest version is used.'));
    col.append(ownWording(editor, top, c, refresh));
    return col;
  });
  return h(
    'div',
    { class: 'variants-panel' },
    h('h3', {}, 'How each companion asks it'),
    h('p', { class: 'muted small' }, `For “${top.question}” (the answer stays “${top.answer}”).`),
    h('div', { class: 'variants' }, columns),
    h('div', { class: 'row', style: 'margin-top:0.5rem' }, write),
  );
}

function ownWording(editor, top, c, refresh) {
  const id = `own-${c.key}-${++uid}`;
  const form = h(
    'form',
    { novalidate: true, class: 'own-wording' },
    h('label', { for: id, class: 'small' }, `My own wording for the ${c.label.toLowerCase()}`),
    h('input', { id, name: 'question', type: 'text', autocomplete: 'off' }),
    h('button', { type: 'submit', class: 'btn btn-small btn-quiet' }, 'Use my wording'),
  );
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const text = form.elements.question.value.trim();
    if (!text) {
      form.elements.question.setAttribute('aria-invalid', 'true');
      form.elements.question.focus();
      return;
    }
    await busy(ev.submitter, async () => {
      try {
        await edit.writeVariant(editor.videoId, top, c.key, text);
        await refresh(`${c.label} will ask: “${text}”`);
      } catch (err) {
        toast(err.message, 'bad');
      }
    });
  });
  return form;
}
