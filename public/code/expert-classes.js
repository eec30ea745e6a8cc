// The expert's code classes: create, rename, delete, enrol and take out children.
import { $, actionButton, api, bindForm, h, toast } from '../staff/lib.js';

const box = $('#classes');

async function load() {
  const data = await api('GET', '/api/expert/classes');
  if (data.classes.length === 0) {
    box.replaceChildren(h('p', { class: 'empty' }, 'No classes yet. Create one above.'));
    return;
  }
  box.replaceChildren(...data.classes.map((c) => classCard(c, data.my_children)));
}

function classCard(c, myChildren) {
  const enrolledIds = new Set(c.children.map((k) => k.child_id));
  const options = myChildren.filter((k) => !enrolledIds.has(k.child_id));
  const select = h('select', { 'aria-label': `Child to add to ${c.name}` }, ...options.map((k) => h('option', { value: k.child_id }, `${k.first_name} ${k.last_name}`.trim())));
  return h(
    'article',
    { class: 'card class-card', dataset: { classId: String(c.class_id) } },
    h('div', { class: 'row' }, h('h3', {}, h('a', { href: `/expert/code/classes/${c.class_id}` }, c.name)), h('span', { class: 'badge badge-brand' }, `${c.problem_count} problem(s)`), h('span', { class: 'spacer' }),
      actionButton('Rename', async () => {
        const name = window.prompt('New name of the class', c.name);
        if (!name) return;
        await api('PUT', `/api/expert/classes/${c.class_id}`, { name });
        toast('Class renamed.');
        await load();
      }, { title: `Rename: ${c.name}` }),
      actionButton('Delete', async () => {
        await api('DELETE', `/api/expert/classes/${c.class_id}`);
        toast('Class deleted.');
        await load();
      }, { cls: 'btn btn-small btn-danger', confirmText: `Delete the class "${c.name}" with its problems and everything the children did in it?`, title: `Delete: ${c.name}` })),
    c.description ? h('p', { class: 'muted' }, c.description) : null,
    h('ul', { class: 'enrolled', 'aria-label': 'Children in this class' },
      ...c.children.map((k) => h('li', {}, h('span', { class: 'badge' }, k.first_name), ' ',
        actionButton('Remove', async () => {
          await api('DELETE', `/api/expert/classes/${c.class_id}/enrolments/${k.child_id}`);
          await load();
        }, { title: `Remove ${k.first_name} from ${c.name}` })))),
    c.children.length === 0 ? h('p', { class: 'empty' }, 'No children in this class yet.') : null,
    options.length > 0
      ? h('div', { class: 'row' }, select, actionButton('Add child', async () => {
          await api('POST', `/api/expert/classes/${c.class_id}/enrolments`, { child_id: select.value });
          toast('Child added to the class.');
          await load();
        }, { cls: 'btn btn-small', title: `Add child to ${c.name}` }))
      : null,
  );
}

bindForm($('#new-class'), async (values, form) => {
  await api('POST', '/api/expert/classes', { name: values.name, description: values.description || undefined });
  form.reset();
  await load();
  return 'Class created.';
});

load().catch((err) => toast(err.message, 'bad'));
