// /admin/experts: list, create, edit (name, code, active), deactivate, delete.
import { api, bindForm, h, $, listFrom, actionButton, toast } from './lib.js';

const tbody = $('#experts-table tbody');
const createForm = $('#create-expert');
const editPanel = $('#edit-panel');
const editForm = $('#edit-expert');

async function load() {
  const data = await api('GET', '/api/admin/experts');
  const experts = listFrom(data, 'experts');
  $('#expert-count').textContent = `${experts.length} expert${experts.length === 1 ? '' : 's'}`;
  if (experts.length === 0) {
    tbody.replaceChildren(h('tr', {}, h('td', { colspan: 5, class: 'empty' }, 'No experts yet. Add the first one with the form above.')));
    return;
  }
  tbody.replaceChildren(...experts.map(row));
}

function row(e) {
  const name = e.display_name || e.expert_id;
  return h(
    'tr',
    { class: e.active === false ? 'inactive' : '', dataset: { expertId: e.expert_id } },
    h('td', {}, h('strong', {}, name), h('br'), h('span', { class: 'muted small' }, e.expert_id)),
    h('td', {}, e.active === false ? h('span', { class: 'badge badge-bad' }, 'Deactivated') : h('span', { class: 'badge badge-ok' }, 'Active')),
    h('td', {}, String(e.parent_count ?? '–')),
    h('td', {}, String(e.child_count ?? '–')),
    h(
      'td',
      {},
      h(
        'div',
        { class: 'row' },
        actionButton('Edit', () => openEdit(e), { title: `Edit ${name}` }),
        e.active === false
          ? actionButton('Activate', async () => {
              await api('PUT', `/api/admin/experts/${encodeURIComponent(e.expert_id)}`, { active: true });
              toast(`${name} can log in again.`);
              await load();
            })
          : actionButton('Deactivate', async () => {
              const r = await api('POST', `/api/admin/experts/${encodeURIComponent(e.expert_id)}/deactivate`);
              toast(r.message || `${name} was deactivated.`);
              await load();
            }, { confirmText: `Deactivate ${name}? They are logged out and cannot log in until activated again.` }),
        actionButton('Delete', async () => {
          // An expert who still owns children is never deleted with them: their families, children
          // and every score move to another expert first (the server refuses otherwise, 409).
          let query = '';
          if ((e.child_count ?? 0) > 0) {
            const target = await chooseHeir(e, name);
            if (!target) return;
            query = `?move_children_to=${encodeURIComponent(target)}`;
          } else if (!window.confirm(`Delete ${name}? They own no children; this cannot be undone.`)) {
            return;
          }
          const r = await api('DELETE', `/api/admin/experts/${encodeURIComponent(e.expert_id)}${query}`);
          toast(r.message || `${name} was deleted.`);
          if (editForm.elements.expert_id.value === e.expert_id) editPanel.hidden = true;
          await load();
        }, { cls: 'btn btn-small btn-danger', title: `Delete ${name}` }),
      ),
    ),
  );
}

/**
 * Asks which active expert receives the families, children and scores of the expert being
 * deleted; resolves to that expert's id, or null when the admin cancels.
 * @param {{expert_id: string, child_count?: number}} e
 * @param {string} name
 * @returns {Promise<string | null>}
 */
async function chooseHeir(e, name) {
  const all = listFrom(await api('GET', '/api/admin/experts'), 'experts');
  const others = all.filter((x) => x.expert_id !== e.expert_id && x.active !== false);
  if (others.length === 0) {
    toast(`${name} still has ${e.child_count} child profile(s). Add another active expert to move them to, or delete the children first.`, 'bad');
    return null;
  }
  const select = h('select', { name: 'heir', required: true }, ...others.map((x) => h('option', { value: x.expert_id }, `${x.display_name || x.expert_id} (${x.expert_id})`)));
  const dialog = h(
    'dialog',
    { class: 'panel', 'aria-labelledby': 'heir-title' },
    h(
      'form',
      { method: 'dialog', class: 'stack' },
      h('h2', { id: 'heir-title' }, `Delete ${name}`),
      h('p', {}, `${name} still has ${e.child_count} child profile(s). Their families, children and every score move to the expert you choose; nothing is lost.`),
      h('label', { class: 'field' }, h('span', {}, 'Move them to'), select),
      h('div', { class: 'row' }, h('button', { type: 'submit', value: 'move', class: 'btn btn-danger' }, 'Move and delete'), h('button', { type: 'submit', value: 'cancel', class: 'btn btn-secondary' }, 'Cancel')),
    ),
  );
  document.body.append(dialog);
  dialog.showModal();
  const choice = await new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue), { once: true }));
  const heir = select.value;
  dialog.remove();
  return choice === 'move' ? heir : null;
}

function openEdit(e) {
  editPanel.hidden = false;
  editForm.reset();
  editForm.elements.expert_id.value = e.expert_id;
  editForm.elements.display_name.value = e.display_name || '';
  editForm.elements.active.checked = e.active !== false;
  $('[data-slot=expert_id]', editForm).textContent = e.expert_id;
  $('.form-status', editForm).replaceChildren();
  $('#edit-title').focus();
}

bindForm(createForm, async (values) => {
  const r = await api('POST', '/api/admin/experts', {
    expert_id: values.expert_id.trim(),
    display_name: values.display_name,
    password: values.password,
  });
  createForm.reset();
  await load();
  return r.message || 'Expert added.';
});

bindForm(editForm, async (values) => {
  const body = { display_name: values.display_name, active: editForm.elements.active.checked };
  if (values.login_code) body.login_code = values.login_code;
  const r = await api('PUT', `/api/admin/experts/${encodeURIComponent(values.expert_id)}`, body);
  editForm.elements.login_code.value = '';
  await load();
  return (r.message || 'Expert updated.') + (body.login_code ? ' The new access code is active.' : '');
});

$('#edit-cancel').addEventListener('click', () => {
  editPanel.hidden = true;
  $('#list-title').focus?.();
});

load().catch((err) => toast(err.message, 'bad'));
