// /admin/children: list (by expert, with deactivated), create with picture and mode, edit, link to a
// family, unlink, deactivate, delete, open the report.
import { api, bindForm, h, $, $$, listFrom, actionButton, toast, iconFor } from './lib.js';

const page = $('#children-page');
const families = JSON.parse(page.dataset.families || '[]');
const tbody = $('#children-table tbody');
const createForm = $('#create-child');
const editForm = $('#edit-child');
const editPanel = $('#edit-panel');
const filter = $('#filter');
let experts = [];

const MODE_LABEL = { strict: 'Strict', flexible: 'Flexible', passive: 'Passive' };
const familyName = (id) => families.find((f) => f.parent_id === id)?.display_name ?? id;
const expertName = (id) => experts.find((e) => e.expert_id === id)?.display_name ?? id;

function fillExperts() {
  for (const select of $$('[data-experts]')) {
    const keep = select.value;
    select.replaceChildren(
      h('option', { value: '' }, experts.length ? 'Choose an expert…' : 'Add an expert first'),
      ...experts.map((e) => h('option', { value: e.expert_id }, `${e.display_name} (${e.expert_id})${e.active === false ? ' – deactivated' : ''}`)),
    );
    select.value = keep;
  }
  const f = $('#filter-expert');
  const keep = f.value;
  f.replaceChildren(h('option', { value: '' }, 'All experts'), ...experts.map((e) => h('option', { value: e.expert_id }, e.display_name)));
  f.value = keep;
}

/** The family choices follow the chosen expert: a child can only join one of its expert's families. */
function fillParents(form, selected) {
  const expertId = form.elements.expert_id.value;
  const select = $('[data-parents]', form);
  const mine = families.filter((f) => f.expert_id === expertId);
  const first =
    form === createForm
      ? h('option', { value: '' }, "The expert's own family")
      : h('option', { value: 'none' }, 'Not linked to a family');
  select.replaceChildren(
    first,
    ...mine.map((f) => h('option', { value: f.parent_id }, `${f.display_name}${f.is_default ? ' (own family)' : ''}`)),
  );
  if (selected !== undefined) select.value = selected ?? 'none';
}

async function loadExperts() {
  experts = listFrom(await api('GET', '/api/admin/experts'), 'experts');
  fillExperts();
}

async function loadChildren() {
  const q = new URLSearchParams();
  if (filter.elements.expert_id.value) q.set('expert_id', filter.elements.expert_id.value);
  if (filter.elements.include_inactive.checked) q.set('include_inactive', 'true');
  const children = listFrom(await api('GET', `/api/admin/children?${q}`), 'children');
  $('#child-count').textContent = `${children.length} child profile${children.length === 1 ? '' : 's'} shown`;
  if (children.length === 0) {
    tbody.replaceChildren(h('tr', {}, h('td', { colspan: 6, class: 'empty' }, 'No child profiles match.')));
    return;
  }
  tbody.replaceChildren(...children.map(row));
}

function row(c) {
  const name = `${c.first_name} ${c.last_name || ''}`.trim();
  const id = c.child_id;
  const reload = async (r, fallback) => {
    toast(r.message || fallback);
    await loadChildren();
  };
  return h(
    'tr',
    { class: c.active === false ? 'inactive' : '', dataset: { childId: id } },
    h('td', {}, h('span', { 'aria-hidden': 'true' }, iconFor(c.icon_key), ' '), h('strong', {}, name), h('br'), h('span', { class: 'muted small' }, `id ${id}`)),
    h('td', {}, expertName(c.expert_id)),
    h('td', {}, c.parent_id ? familyName(c.parent_id) : h('span', { class: 'badge badge-warn' }, 'Not linked')),
    h('td', {}, MODE_LABEL[c.interaction_mode] || c.interaction_mode),
    h('td', {}, c.active === false ? h('span', { class: 'badge badge-bad' }, 'Deactivated') : h('span', { class: 'badge badge-ok' }, 'Active')),
    h(
      'td',
      {},
      h(
        'div',
        { class: 'row' },
        actionButton('Edit', () => openEdit(c), { title: `Edit ${name}` }),
        h('a', { class: 'btn btn-small btn-quiet', href: `/admin/reports/${id}` }, 'Report'),
        c.parent_id &&
          actionButton('Unlink', async () => reload(await api('POST', `/api/admin/children/${id}/unlink`), `${name} was unlinked.`), {
            confirmText: `Unlink ${name} from ${familyName(c.parent_id)}? The family's code will no longer show this profile.`,
          }),
        c.active === false
          ? actionButton('Activate', async () => reload(await api('PUT', `/api/admin/children/${id}`, { active: true }), `${name} is active again.`))
          : actionButton('Deactivate', async () => reload(await api('POST', `/api/admin/children/${id}/deactivate`), `${name} was deactivated.`), {
              confirmText: `Deactivate ${name}? The profile is hidden from the tablet; scores are kept.`,
            }),
        actionButton('Delete', async () => reload(await api('DELETE', `/api/admin/children/${id}`), `${name} was deleted.`), {
          cls: 'btn btn-small btn-danger',
          confirmText: `Delete ${name} and all of their scores? This cannot be undone.`,
        }),
      ),
    ),
  );
}

function openEdit(c) {
  editPanel.hidden = false;
  editForm.reset();
  editForm.elements.child_id.value = c.child_id;
  $('[data-slot=child_id]', editForm).textContent = c.child_id;
  editForm.elements.expert_id.value = c.expert_id;
  editForm.elements.first_name.value = c.first_name;
  editForm.elements.last_name.value = c.last_name || '';
  editForm.elements.icon_key.value = c.icon_key;
  editForm.elements.interaction_mode.value = c.interaction_mode;
  editForm.elements.active.checked = c.active !== false;
  fillParents(editForm, c.parent_id);
  $('#edit-title').focus();
}

bindForm(createForm, async (v) => {
  const body = { expert_id: v.expert_id, first_name: v.first_name, icon_key: v.icon_key, interaction_mode: v.interaction_mode };
  if (v.last_name) body.last_name = v.last_name;
  if (v.parent_id) body.parent_id = v.parent_id;
  const r = await api('POST', '/api/admin/children', body);
  const keepExpert = v.expert_id;
  createForm.reset();
  createForm.elements.expert_id.value = keepExpert;
  fillParents(createForm);
  await loadChildren();
  return `${r.message || 'Child added.'} Child id: ${r.child?.child_id ?? '?'}.`;
});

bindForm(editForm, async (v) => {
  const body = {
    expert_id: v.expert_id,
    first_name: v.first_name,
    last_name: v.last_name,
    icon_key: v.icon_key,
    interaction_mode: v.interaction_mode,
    parent_id: v.parent_id === 'none' ? null : v.parent_id,
    active: editForm.elements.active.checked,
  };
  const r = await api('PUT', `/api/admin/children/${v.child_id}`, body);
  await loadChildren();
  return r.message || 'Child updated.';
});

for (const form of [createForm, editForm]) form.elements.expert_id.addEventListener('change', () => fillParents(form));
$('#edit-cancel').addEventListener('click', () => {
  editPanel.hidden = true;
});
filter.addEventListener('change', () => loadChildren().catch((e) => toast(e.message, 'bad')));
filter.addEventListener('submit', (e) => e.preventDefault());

loadExperts()
  .then(() => {
    fillParents(createForm);
    return loadChildren();
  })
  .catch((e) => toast(e.message, 'bad'));
