// /expert/parents: families (parents) with their codes and children; create a parent, set a code,
// move a child to another family.
import { api, bindForm, h, $, listFrom, toast, iconFor } from './lib.js';

const page = $('#parents-page');
const expertId = page.dataset.expertId;
const familiesEl = $('#families');
let parents = [];
let uid = 0;

async function load() {
  parents = listFrom(await api('GET', '/api/expert/parents'), 'parents');
  const withChildren = await Promise.all(
    parents.map(async (p) => ({ p, children: listFrom(await api('GET', `/api/expert/parents/${p.parent_id}/children`), 'children') })),
  );
  familiesEl.replaceChildren(...(withChildren.length ? withChildren.map(({ p, children }) => family(p, children)) : [h('p', { class: 'empty' }, 'No families yet.')]));
  const all = listFrom(await api('GET', `/api/learners/experts/${encodeURIComponent(expertId)}/children`), 'children');
  const unlinked = all.filter((c) => !c.parent_id);
  $('#unlinked').replaceChildren(
    unlinked.length ? h('ul', { class: 'missed' }, unlinked.map((c) => h('li', {}, childLine(c)))) : h('p', { class: 'muted' }, 'Every child is in a family.'),
  );
}

function childLine(c) {
  const id = `move-${uid++}`;
  const select = h(
    'select',
    { id },
    h('option', { value: '' }, 'Not in a family'),
    parents.map((p) => h('option', { value: p.parent_id, selected: p.parent_id === c.parent_id }, p.display_name)),
  );
  select.addEventListener('change', async () => {
    try {
      await api('PUT', `/api/expert/children/${c.child_id}/parent`, { parent_id: select.value || null });
      toast(`${c.first_name} moved to ${select.value ? select.selectedOptions[0].textContent : 'no family'}.`);
      await load();
    } catch (err) {
      toast(err.message, 'bad');
    }
  });
  return h(
    'div',
    { class: 'row child-line', dataset: { childId: c.child_id } },
    iconFor(c.icon_key),
    h('strong', {}, `${c.first_name} ${c.last_name || ''}`.trim()),
    c.active === false ? h('span', { class: 'badge badge-bad' }, 'Deactivated') : '',
    h('span', { class: 'spacer' }),
    h('label', { for: id, class: 'small' }, 'Family'),
    select,
    h('a', { class: 'btn btn-small btn-quiet', href: `/expert/reports/${c.child_id}` }, 'Report'),
  );
}

function family(p, children) {
  const codeId = `code-${p.parent_id}`;
  const codeEl = h('code', { id: `${codeId}-shown` }, p.login_code ? '••••••' : 'no code yet');
  const reveal = h('button', { type: 'button', class: 'btn btn-small btn-secondary', 'aria-pressed': 'false', 'aria-controls': `${codeId}-shown`, hidden: !p.login_code }, 'Show');
  reveal.addEventListener('click', () => {
    const on = reveal.getAttribute('aria-pressed') !== 'true';
    codeEl.textContent = on ? p.login_code : '••••••';
    reveal.setAttribute('aria-pressed', String(on));
    reveal.textContent = on ? 'Hide' : 'Show';
  });
  const form = h(
    'form',
    { class: 'form-inline', novalidate: true, 'aria-label': `Set the code of ${p.display_name}` },
    h(
      'div',
      { class: 'field' },
      h('label', { for: codeId }, 'New family code'),
      h('input', { id: codeId, name: 'login_code', type: 'text', autocomplete: 'off', required: true, 'aria-describedby': `${codeId}-error` }),
      h('span', { class: 'field-error', id: `${codeId}-error`, 'data-error-for': 'login_code' }),
    ),
    h('button', { class: 'btn', type: 'submit' }, 'Set code'),
    h('div', { class: 'form-status', role: 'status', tabindex: '-1', style: 'flex-basis:100%' }),
  );
  bindForm(form, async (v) => {
    const r = await api('PUT', `/api/expert/parents/${p.parent_id}/login-code`, { login_code: v.login_code });
    p.login_code = v.login_code.trim();
    form.reset();
    reveal.hidden = false;
    codeEl.textContent = reveal.getAttribute('aria-pressed') === 'true' ? p.login_code : '••••••';
    return r.message || 'Code set.';
  });
  return h(
    'section',
    { class: 'card', 'aria-label': p.display_name, dataset: { parentId: p.parent_id } },
    h('div', { class: 'row' }, h('h3', {}, p.display_name), p.is_default ? h('span', { class: 'badge badge-brand' }, 'Your own family') : '', h('span', { class: 'spacer' }), h('span', { class: 'muted small' }, 'Code:'), codeEl, reveal),
    children.length ? h('ul', { class: 'missed' }, children.map((c) => h('li', {}, childLine(c)))) : h('p', { class: 'muted' }, 'No children in this family yet.'),
    form,
  );
}

const createForm = $('#create-parent');
bindForm(createForm, async (v) => {
  const body = { display_name: v.display_name };
  if (v.login_code) body.login_code = v.login_code;
  const r = await api('POST', '/api/expert/parents', body);
  createForm.reset();
  await load();
  return r.message || 'Parent added.';
});

load().catch((err) => toast(err.message, 'bad'));
